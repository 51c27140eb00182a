import type { CreateMerchant, Merchant } from '@sf/contract/merchants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { MERCHANTS_PATH, merchantKeys } from './get-merchants.ts';

export function createMerchant(body: CreateMerchant): Promise<Merchant> {
  return apiClient.post<Merchant>(MERCHANTS_PATH, body);
}

export function useCreateMerchant() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createMerchant, onSuccess: () => client.invalidateQueries({ queryKey: merchantKeys.lists() }) });
}
