import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

/**
 * The dashboard's query key root (`features/dashboard/api/get-dashboard.ts`): its figures summarise the
 * ledger, customers, merchants, rewards, approvals and privacy requests, so any successful write may change
 * them. Named here because a feature never imports another.
 */
export const DASHBOARD_QUERY_ROOT = 'dashboard';

/** Client errors (4xx) will not change on a second try; the HTTP client already refreshed a stale token. */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // Every successful write marks the dashboard stale, and refetches it when it is on screen (a purchase
    // from "Azioni" while on the dashboard): its cards never wait for a reload.
    mutationCache: new MutationCache({
      onSuccess: () => client.invalidateQueries({ queryKey: [DASHBOARD_QUERY_ROOT] }),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
