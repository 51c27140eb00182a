import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

/** Client errors (4xx) will not change on a second try; the HTTP client already refreshed a stale token. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
