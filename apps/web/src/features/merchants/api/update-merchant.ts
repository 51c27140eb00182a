import type { Merchant, UpdateMerchant } from '@sf/contract/merchants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { MERCHANTS_PATH, merchantKeys } from './get-merchants.ts';

export function updateMerchant({ id, ...body }: UpdateMerchant & { id: string }): Promise<Merchant> {
  return apiClient.patch<Merchant>(`${MERCHANTS_PATH}/${id}`, body);
}

/** Also suspend / reactivate / archive: a change of `status` with the version read. */
export function useUpdateMerchant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateMerchant,
    onSuccess: (merchant) => {
      client.setQueryData(merchantKeys.merchant(merchant.id), merchant);
      return client.invalidateQueries({ queryKey: merchantKeys.lists() });
    },
  });
}
