import { listCustomersQuerySchema, type Customer } from '@sf/contract/customers-list';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type CustomerPage = { items: Customer[]; total: number; page: number; pageSize: number };

export const CUSTOMERS_PATH = '/admin/customers';

export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...customerKeys.lists(), query] as const,
  customer: (id: string) => [...customerKeys.all, 'customer', id] as const,
  consents: (id: string) => [...customerKeys.all, 'consents', id] as const,
};

export function getCustomers(query: Record<string, string>, signal?: AbortSignal, options: { isSilent?: boolean } = {}): Promise<CustomerPage> {
  return apiClient.get<CustomerPage>(CUSTOMERS_PATH, { params: query, signal, ...options });
}

/**
 * One page of the list. A deep link prefetches it before the app has loaded (app/prefetch-routes.ts)
 * under this same key, with `getCustomers`: the screen finds the answer (or the request in flight).
 */
export function useCustomers(query: Record<string, string>, options: { isEnabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions({ queryKey: customerKeys.list(query), queryFn: ({ signal }) => getCustomers(query, signal), placeholderData: keepPreviousData }),
    enabled: options.isEnabled ?? true,
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listCustomersQuerySchema, queryKey: customerKeys.list };
