import type { NewsHistory } from '@sf/contract/news';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

export function getNewsPostHistory(id: number, signal?: AbortSignal): Promise<NewsHistory> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<NewsHistory>(`/admin/news/${id}/history`, { signal, isSilent: true });
}

export function getNewsPostHistoryQueryOptions(id: number) {
  return queryOptions({
    queryKey: newsKeys.history(id),
    queryFn: ({ signal }) => getNewsPostHistory(id, signal),
  });
}

export function useNewsPostHistory(id: number) {
  return useQuery(getNewsPostHistoryQueryOptions(id));
}
