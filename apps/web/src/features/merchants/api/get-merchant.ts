import type { Merchant } from '@sf/contract/merchants';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { MERCHANTS_PATH, merchantKeys } from './get-merchants.ts';

export function getMerchant(id: string, signal?: AbortSignal): Promise<Merchant> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<Merchant>(`${MERCHANTS_PATH}/${id}`, { signal, isSilent: true });
}

export function useMerchant(id: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: merchantKeys.merchant(id ?? ''), queryFn: ({ signal }) => getMerchant(id ?? '', signal) }),
    enabled: Boolean(id),
  });
}
