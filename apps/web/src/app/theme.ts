import { createTheme, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Keyboard users must always see where they are (issue 3: visible focus).
  focusRing: 'auto',
});

/** The light/dark/auto choice of the user menu, remembered in this browser. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });

/** Mantine's default "dimmed" grey is below the 4.5:1 contrast of WCAG AA on white; darken it. */
export const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: { '--mantine-color-dimmed': current.colors.gray[7] },
  dark: { '--mantine-color-dimmed': current.colors.dark[1] },
});
