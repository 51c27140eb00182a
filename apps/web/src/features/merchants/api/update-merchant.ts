import type { Merchant, UpdateMerchant } from '@sf/contract/merchants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, type RequestOptions } from '../../../lib/api-client.ts';
import { VERSION_CONFLICT_CODES } from '../../../lib/version-conflict.ts';
import { MERCHANTS_PATH, merchantKeys } from './get-merchants.ts';

export function updateMerchant({ id, ...body }: UpdateMerchant & { id: string }, options: RequestOptions = {}): Promise<Merchant> {
  return apiClient.patch<Merchant>(`${MERCHANTS_PATH}/${id}`, body, options);
}

/**
 * Also suspend / reactivate / archive: a change of `status` with the version read. The form
 * (`isFormSave`) shows a version conflict itself, with its reload (`VersionConflictNotice`).
 */
export function useUpdateMerchant({ isFormSave = false }: { isFormSave?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateMerchant & { id: string }) => updateMerchant(change, isFormSave ? { inlineCodes: VERSION_CONFLICT_CODES } : {}),
    onSuccess: (merchant) => {
      client.setQueryData(merchantKeys.merchant(merchant.id), merchant);
      return client.invalidateQueries({ queryKey: merchantKeys.lists() });
    },
  });
}
