import { listMerchantsQuerySchema, type Merchant } from '@sf/contract/merchants-list';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAllPages } from '../../../lib/all-pages.ts';
import { apiClient } from '../../../lib/api-client.ts';

export type MerchantPage = { items: Merchant[]; total: number; page: number; pageSize: number };

export const MERCHANTS_PATH = '/admin/merchants';

export const merchantKeys = {
  all: ['merchants'] as const,
  lists: () => [...merchantKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...merchantKeys.lists(), query] as const,
  merchant: (id: string) => [...merchantKeys.all, 'merchant', id] as const,
};

export function getMerchants(query: Record<string, string>, signal?: AbortSignal): Promise<MerchantPage> {
  return apiClient.get<MerchantPage>(MERCHANTS_PATH, { params: query, signal });
}

export function getMerchantsQueryOptions(query: Record<string, string>) {
  return queryOptions({ queryKey: merchantKeys.list(query), queryFn: ({ signal }) => getMerchants(query, signal), placeholderData: keepPreviousData });
}

export function useMerchants(query: Record<string, string>, options: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getMerchantsQueryOptions(query), enabled: options.isEnabled ?? true });
}

/** Every merchant, by name, for pickers and for naming merchants in other lists (not only the first 100). */
export function useAllMerchants(options: { isEnabled?: boolean } = {}) {
  const query = { sort: 'legalName', order: 'asc' };
  return useQuery({ queryKey: [...merchantKeys.lists(), 'all'], queryFn: ({ signal }) => fetchAllPages(getMerchants, query, { signal }), enabled: options.isEnabled ?? true });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listMerchantsQuerySchema, queryKey: merchantKeys.list };
