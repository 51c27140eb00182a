import { createTheme, darken, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';
import { drawSelectOpening } from '../lib/select-opening.ts';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Indigo 6 is 4.32:1 on white (links, filled buttons): below WCAG AA's 4.5:1. Shade 7 is 4.98:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Keyboard users must always see where they are (issue 3: visible focus).
  focusRing: 'auto',
  components: {
    // Mantine's Combobox keeps a closed Select's dropdown in the page (hidden, every option rendered) and
    // positions it when the field mounts: a forced layout per Select, ~20 ms of a list's first render
    // with its filters (decision 010). A closed Select has no dropdown now; it renders on opening.
    // A plain object, not `Select.extend`: the sign-in page's chunk carries this theme and has no Select.
    // A searchable Select shows its chosen label ("Tutte le province") as its search: focused, the label is
    // selected, so typing "MI" searches for MI instead of landing inside the label ("Tutte le prMIovince").
    // The keyboard, then. A closed Select has no options in the page, so the ArrowDown that opened it found
    // none to highlight and the Enter after it picked nothing ("Programma è obbligatorio"): the opening is
    // drawn at once (`drawSelectOpening`), so ArrowDown opens on the chosen option, or the first, and Enter
    // picks it.
    // A field that takes the focus does not open its list (Mantine opens a searchable one): open, even
    // empty or unseen, the list kept the first Esc for itself, and a dialog opening on that field needed
    // two to close. Typing, a click, ArrowDown or Space open it.
    Select: {
      defaultProps: {
        comboboxProps: { keepMounted: false },
        openOnFocus: false,
        onDropdownOpen: drawSelectOpening,
        onFocus: (event: { currentTarget: HTMLInputElement }) => event.currentTarget.select(),
      },
    },
    // A MultiSelect (a program's merchants) the same way, by the same mechanism: it opened on focus and
    // its ArrowDown highlighted nothing to pick.
    MultiSelect: {
      defaultProps: {
        comboboxProps: { keepMounted: false },
        openOnFocus: false,
        onDropdownOpen: drawSelectOpening,
      },
    },
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
