import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

/**
 * Query key roots whose answers follow other features' writes: every successful write marks them stale,
 * and those on screen are fetched again. The dashboard's figures (`features/dashboard`) summarise the
 * ledger, customers, merchants, rewards, approvals and privacy requests; a card link (`features/wallet`)
 * says whether the card could be e-mailed, which follows the customer's address and service consent.
 * Named here because a feature never imports another.
 */
export const DASHBOARD_QUERY_ROOT = 'dashboard';
export const CARD_LINK_QUERY_ROOT = 'card-link';
const ROOTS_FOLLOWING_EVERY_WRITE = [DASHBOARD_QUERY_ROOT, CARD_LINK_QUERY_ROOT];

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /**
       * Roots this write marks stale without fetching again what is on screen, because the write takes
       * it off the screen and a read now could only fail: blocking a customer revokes their card's link
       * (the wallet panel then says so itself), so reading it would answer 409.
       */
      staleOnly?: readonly string[];
    };
  }
}

/** Client errors (4xx) will not change on a second try; the HTTP client already refreshed a stale token. */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // Every successful write marks those roots stale, and refetches what is on screen (a purchase from
    // "Azioni" while on the dashboard, a consent on the customer's page): nothing waits for a reload.
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) =>
        Promise.all(
          ROOTS_FOLLOWING_EVERY_WRITE.map((root) =>
            client.invalidateQueries({ queryKey: [root], refetchType: mutation.meta?.staleOnly?.includes(root) ? 'none' : 'active' }),
          ),
        ),
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
