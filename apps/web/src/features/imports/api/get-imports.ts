import { listImportsQuerySchema, type Import, type ImportDetail } from '@sf/contract/imports';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type ImportPage = { items: Import[]; total: number; page: number; pageSize: number };

export const IMPORTS_PATH = '/admin/imports';

export const importKeys = {
  all: ['imports'] as const,
  lists: () => [...importKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...importKeys.lists(), query] as const,
  detail: (id: string) => [...importKeys.all, 'detail', id] as const,
};

const isActive = (status: Import['status'] | undefined) => status === 'queued' || status === 'running';

export function useImports(query: Record<string, string>) {
  return useQuery(
    queryOptions({
      queryKey: importKeys.list(query),
      queryFn: ({ signal }) => apiClient.get<ImportPage>(IMPORTS_PATH, { params: query, signal }),
      placeholderData: keepPreviousData,
      // A running import's progress moves: the list follows it while one is running.
      refetchInterval: (current) => (current.state.data?.items.some((item) => isActive(item.status)) ? 2000 : false),
    }),
  );
}

/** One import; polled every second while it is queued or running (the progress bar). */
export function useImport(id: string | null) {
  return useQuery({
    ...queryOptions({
      queryKey: importKeys.detail(id ?? ''),
      // No toast: the drawer says what failed.
      queryFn: ({ signal }) => apiClient.get<ImportDetail>(`${IMPORTS_PATH}/${id}`, { signal, isSilent: true }),
      refetchInterval: (current) => (isActive(current.state.data?.status) ? 1000 : false),
    }),
    enabled: id !== null,
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listImportsQuerySchema, queryKey: importKeys.list };
