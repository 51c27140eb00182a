import type { ConsentRecord } from '@sf/contract/customers';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

export function getConsentHistory(customerId: string, signal?: AbortSignal): Promise<{ items: ConsentRecord[] }> {
  return apiClient.get<{ items: ConsentRecord[] }>(`${CUSTOMERS_PATH}/${customerId}/consents`, { signal });
}

export function useConsentHistory(customerId: string) {
  return useQuery({ queryKey: customerKeys.consents(customerId), queryFn: ({ signal }) => getConsentHistory(customerId, signal) });
}
