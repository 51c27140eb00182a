import type { CustomerMemberships } from '@sf/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { ledgerKeys } from './get-ledger.ts';

export function getMemberships(customerId: string, signal?: AbortSignal): Promise<CustomerMemberships> {
  return apiClient.get<CustomerMemberships>(`/admin/customers/${customerId}/memberships`, { signal });
}

export function useMemberships(customerId: string | null) {
  return useQuery({ queryKey: ledgerKeys.memberships(customerId ?? ''), queryFn: ({ signal }) => getMemberships(customerId ?? '', signal), enabled: Boolean(customerId) });
}
