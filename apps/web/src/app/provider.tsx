import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { queryClient as defaultQueryClient } from '../lib/query-client.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

/** S16: every toast top-right, gone after 5000 ms. */
export const TOAST_AUTO_CLOSE_MS = 5000;

export function AppProviders({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
            {children}
          </ModalsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
