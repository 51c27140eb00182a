import type { Customer } from '@sf/contract/customers-list';
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

export function getCustomers(query: Record<string, string>, signal?: AbortSignal): Promise<CustomerPage> {
  return apiClient.get<CustomerPage>(CUSTOMERS_PATH, { params: query, signal });
}

/** One page of the list. */
export function useCustomers(query: Record<string, string>, options: { isEnabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions({ queryKey: customerKeys.list(query), queryFn: ({ signal }) => getCustomers(query, signal), placeholderData: keepPreviousData }),
    enabled: options.isEnabled ?? true,
  });
}
