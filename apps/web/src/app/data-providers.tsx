import type { ReactNode } from 'react';
import { createTheme, MantineThemeProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { queryClient as defaultQueryClient } from '../lib/query-client.ts';
import { drawSelectOpening } from '../lib/select-opening.ts';

/**
 * What only the signed-in area's components need, here rather than in `theme.ts`, which the sign-in page
 * carries at its byte ceiling (decision 010) and which has no dialog and no Select.
 */
const signedInTheme = createTheme({
  components: {
    // Mantine draws a dialog's title bar as a <header>, which axe and screen readers took for a second page
    // banner beside the app's own (landmark-no-duplicate-banner): it is the dialog's title, not a landmark.
    Modal: dialogHeader(),
    Drawer: dialogHeader(),
    // Mantine's Combobox keeps a closed Select's dropdown in the page (hidden, every option rendered) and
    // positions it when the field mounts: a forced layout per Select, ~20 ms of a list's first render
    // with its filters (decision 010). A closed Select has no dropdown now; it renders on opening.
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
  },
});

function dialogHeader() {
  return { defaultProps: { attributes: { header: { role: 'none' } } } };
}

/**
 * The data cache and the modals manager, mounted by the signed-in layout only: together with the
 * Modal/ScrollArea/floating-ui code they pull in, they would cost the sign-in page ~40 kB gzip of
 * JavaScript it never uses (issue 3 budget, `npm run size`).
 */
export function AppDataProviders({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <MantineThemeProvider theme={signedInTheme} inherit>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </MantineThemeProvider>
  );
}
