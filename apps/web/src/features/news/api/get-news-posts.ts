import { listNewsQuerySchema, type newsPageSchema } from '@sf/contract/news';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type NewsPage = z.infer<typeof newsPageSchema>;
/** The list's query as the list kit sends it (`useList`: the contract's fields as strings). */
export type NewsListQuery = Record<string, string>;

/** The list's API path (its CSV export is `<path>/export.csv`). */
export const NEWS_PATH = '/admin/news';

/** Every news query lives under this key, so one invalidation refreshes lists, posts and history. */
export const newsKeys = {
  all: ['news'] as const,
  lists: () => [...newsKeys.all, 'list'] as const,
  list: (query: NewsListQuery) => [...newsKeys.lists(), query] as const,
  post: (id: number) => [...newsKeys.all, 'post', id] as const,
  history: (id: number) => [...newsKeys.all, 'history', id] as const,
};

export function getNewsPosts(query: NewsListQuery, signal?: AbortSignal): Promise<NewsPage> {
  return apiClient.get<NewsPage>(NEWS_PATH, { params: query, signal });
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

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listNewsQuerySchema, queryKey: newsKeys.list };
