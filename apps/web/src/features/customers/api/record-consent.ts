import type { Customer, RecordConsent } from '@sf/contract/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

export function recordConsent({ customerId, ...body }: RecordConsent & { customerId: string }): Promise<Customer> {
  return apiClient.post<Customer>(`${CUSTOMERS_PATH}/${customerId}/consents`, body);
}

/** A grant or a withdrawal is a new history entry; the answer is the customer with its current consents. */
export function useRecordConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: recordConsent,
    onSuccess: (customer) => {
      client.setQueryData(customerKeys.customer(customer.id), customer);
      void client.invalidateQueries({ queryKey: customerKeys.lists() });
      return client.invalidateQueries({ queryKey: customerKeys.consents(customer.id) });
    },
  });
}
