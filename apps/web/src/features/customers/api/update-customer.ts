import type { Customer, UpdateCustomer } from '@sf/contract/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, type RequestOptions } from '../../../lib/api-client.ts';
import { VERSION_CONFLICT_CODES } from '../../../lib/version-conflict.ts';
import { CARD_LINK_QUERY_ROOT } from '../../../lib/query-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

export function updateCustomer({ id, ...body }: UpdateCustomer & { id: string }, options: RequestOptions = {}): Promise<Customer> {
  return apiClient.patch<Customer>(`${CUSTOMERS_PATH}/${id}`, body, options);
}

/**
 * Also block/unblock: a change of `status` with the version read (`isStatusChange`). Blocking revokes
 * the card's link, and an unblocked customer's panel mounts afresh: the card links on screen are only
 * marked stale, not read again (a blocked customer's would answer 409). The form shows a version
 * conflict itself, with its reload (`VersionConflictNotice`); block/unblock keeps the toast.
 */
export function useUpdateCustomer({ isStatusChange = false }: { isStatusChange?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateCustomer & { id: string }) => updateCustomer(change, isStatusChange ? {} : { inlineCodes: VERSION_CONFLICT_CODES }),
    meta: isStatusChange ? { staleOnly: [CARD_LINK_QUERY_ROOT] } : undefined,
    onSuccess: (customer) => {
      client.setQueryData(customerKeys.customer(customer.id), customer);
      return client.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}
