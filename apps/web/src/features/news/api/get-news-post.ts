import type { NewsPost } from '@sf/contract/news';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

export function getNewsPost(id: number, signal?: AbortSignal): Promise<NewsPost> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<NewsPost>(`/admin/news/${id}`, { signal, isSilent: true });
}

export function getNewsPostQueryOptions(id: number) {
  return queryOptions({
    queryKey: newsKeys.post(id),
    queryFn: ({ signal }) => getNewsPost(id, signal),
  });
}

export function useNewsPost(id: number | null) {
  return useQuery({ ...getNewsPostQueryOptions(id ?? 0), enabled: id !== null });
}
