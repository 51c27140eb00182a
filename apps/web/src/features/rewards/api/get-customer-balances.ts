import type { CustomerMemberships } from '@sf/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

/** A customer's balances per program, so that the redemption dialog says at once when a reward is out of reach. */
export function useCustomerBalances(customerId: string | null) {
  return useQuery({
    queryKey: ['rewards', 'balances', customerId],
    queryFn: ({ signal }) => apiClient.get<CustomerMemberships>(`/admin/customers/${customerId}/memberships`, { signal }),
    enabled: customerId !== null,
  });
}
