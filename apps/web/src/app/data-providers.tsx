import type { ReactNode } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { queryClient as defaultQueryClient } from '../lib/query-client.ts';

/**
 * The data cache and the modals manager, mounted by the signed-in layout only: together with the
 * Modal/ScrollArea/floating-ui code they pull in, they would cost the sign-in page ~40 kB gzip of
 * JavaScript it never uses (issue 3 budget, `npm run size`).
 */
export function AppDataProviders({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>{children}</ModalsProvider>
    </QueryClientProvider>
  );
}
