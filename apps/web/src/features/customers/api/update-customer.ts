import type { Customer, UpdateCustomer } from '@sf/contract/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

export function updateCustomer({ id, ...body }: UpdateCustomer & { id: string }): Promise<Customer> {
  return apiClient.patch<Customer>(`${CUSTOMERS_PATH}/${id}`, body);
}

/** Also block/unblock: a change of `status` with the version read. */
export function useUpdateCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: (customer) => {
      client.setQueryData(customerKeys.customer(customer.id), customer);
      return client.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}
