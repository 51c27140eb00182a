import type { Customer } from '@sf/contract/customers';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

/** Reading a customer's personal data is audited by the API (B5). No toast: the customer's page says what failed. */
export function getCustomer(id: string, signal?: AbortSignal): Promise<Customer> {
  return apiClient.get<Customer>(`${CUSTOMERS_PATH}/${id}`, { signal, isSilent: true });
}

export function useCustomer(id: string | null) {
  return useQuery({ queryKey: customerKeys.customer(id ?? ''), queryFn: ({ signal }) => getCustomer(id ?? '', signal), enabled: Boolean(id) });
}
