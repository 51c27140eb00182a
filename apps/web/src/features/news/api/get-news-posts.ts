import type { ListNewsQuery, newsPageSchema } from '@sf/contract/news';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type NewsPage = z.infer<typeof newsPageSchema>;
export type NewsListQuery = Partial<ListNewsQuery>;

/** Every news query lives under this key, so one invalidation refreshes lists, posts and history. */
export const newsKeys = {
  all: ['news'] as const,
  lists: () => [...newsKeys.all, 'list'] as const,
  list: (query: NewsListQuery) => [...newsKeys.lists(), query] as const,
  post: (id: number) => [...newsKeys.all, 'post', id] as const,
  history: (id: number) => [...newsKeys.all, 'history', id] as const,
};

export function getNewsPosts(query: NewsListQuery, signal?: AbortSignal): Promise<NewsPage> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params[key] = String(value);
  }
  return apiClient.get<NewsPage>('/admin/news', { params, signal });
}

export function getNewsPostsQueryOptions(query: NewsListQuery) {
  return queryOptions({
    queryKey: newsKeys.list(query),
    queryFn: ({ signal }) => getNewsPosts(query, signal),
    // The table keeps the previous page on screen while the next one loads (no flicker when paging).
    placeholderData: keepPreviousData,
  });
}

export function useNewsPosts(query: NewsListQuery) {
  return useQuery(getNewsPostsQueryOptions(query));
}
