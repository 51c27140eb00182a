import { createTheme, darken, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Indigo 6 is 4.32:1 on white (links, filled buttons): below WCAG AA's 4.5:1. Shade 7 is 4.98:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Keyboard users must always see where they are (issue 3: visible focus).
  focusRing: 'auto',
  components: {
    // A badge in a narrow table column was cut to "ATTI…", "ACCRE…" at 1366 px: a badge is never
    // narrower than its word.
    Badge: { styles: { root: { minWidth: 'max-content' } } },
    // A wide table scrolls with the browser's own scrolling: Mantine's ScrollArea measured its thumb after
    // every render of the table, forcing a layout of the whole page each time (issue 32, decision 036).
    TableScrollContainer: { defaultProps: { type: 'native' } },
  },
});

/** The light/dark/auto choice of the user menu, remembered in this browser. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });

/** Mantine's default "dimmed" and placeholder greys and error red are below the 4.5:1 contrast of WCAG AA on white; darken them. */
export const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  // Field error texts use the error colour: red 6 is 3.28:1 on white, red 9 is 5.4:1.
  light: {
    '--mantine-color-dimmed': current.colors.gray[7],
    '--mantine-color-error': current.colors.red[9],
    // Placeholders (the cover picker shows one as its only text) need the same 4.5:1: gray 5 is 2.07:1.
    '--mantine-color-placeholder': current.colors.gray[7],
    // Text of the "light" variant (badges, active menu entries) on its tinted background: even shade 9 of
    // orange or green stays under 4.5:1 there, so it is darkened for every colour.
    ...Object.fromEntries(
      Object.entries(current.colors).map(([name, shades]) => [`--mantine-color-${name}-light-color`, darken(shades[9] ?? shades[0] ?? '#000', 0.3)]),
    ),
  },
  dark: { '--mantine-color-dimmed': current.colors.dark[1] },
});
