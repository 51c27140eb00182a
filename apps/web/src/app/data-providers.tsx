import type { ReactNode } from 'react';
import { createTheme, MantineThemeProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { queryClient as defaultQueryClient } from '../lib/query-client.ts';

/**
 * Mantine draws a dialog's title bar as a <header>, which axe and screen readers took for a second page
 * banner beside the app's own (landmark-no-duplicate-banner): it is the dialog's title, not a landmark.
 * Here rather than in `theme.ts`, which the sign-in page carries at its byte ceiling and which has no dialog.
 */
const dialogHeader = { defaultProps: { attributes: { header: { role: 'none' } } } };
const signedInTheme = createTheme({ components: { Modal: dialogHeader, Drawer: dialogHeader } });

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
