import { listApiKeysQuerySchema, type ApiKey, type ApiKeyPage, type CreateApiKey, type CreatedApiKey } from '@sf/contract/integration';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const API_KEYS_PATH = '/admin/api-keys';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  lists: () => [...apiKeyKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...apiKeyKeys.lists(), query] as const,
};

export function getApiKeysQueryOptions(query: Record<string, string>) {
  return queryOptions({
    queryKey: apiKeyKeys.list(query),
    queryFn: ({ signal }) => apiClient.get<ApiKeyPage>(API_KEYS_PATH, { params: query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useApiKeys(query: Record<string, string>) {
  return useQuery(getApiKeysQueryOptions(query));
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKey) => apiClient.post<CreatedApiKey>(API_KEYS_PATH, body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete<ApiKey>(`${API_KEYS_PATH}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listApiKeysQuerySchema, queryKey: apiKeyKeys.list };
