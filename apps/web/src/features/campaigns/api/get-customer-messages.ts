import type { CustomerMessage } from '@sf/contract/campaigns';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { campaignKeys } from './get-campaigns.ts';

export function getCustomerMessages(customerId: string, signal?: AbortSignal): Promise<{ items: CustomerMessage[] }> {
  return apiClient.get<{ items: CustomerMessage[] }>(`/admin/customers/${customerId}/messages`, { signal });
}

export function useCustomerMessages(customerId: string) {
  return useQuery(queryOptions({ queryKey: campaignKeys.customerMessages(customerId), queryFn: ({ signal }) => getCustomerMessages(customerId, signal) }));
}
