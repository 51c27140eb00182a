import type { CreateCustomer, Customer } from '@sf/contract/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

export function createCustomer(body: CreateCustomer): Promise<Customer> {
  return apiClient.post<Customer>(CUSTOMERS_PATH, body);
}

export function useCreateCustomer() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createCustomer, onSuccess: () => client.invalidateQueries({ queryKey: customerKeys.lists() }) });
}
