import { IDEMPOTENCY_KEY_HEADER } from '@sf/contract/ledger';
import type { Voucher, VoucherBatchResult, VoucherCheck, VoucherPage } from '@sf/contract/rewards';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { REWARDS_PATH, rewardKeys } from './get-rewards.ts';

export const vouchersPath = (rewardId: string) => `${REWARDS_PATH}/${rewardId}/vouchers`;

export function useVouchers(rewardId: string, query: Record<string, string>) {
  return useQuery(
    queryOptions({
      queryKey: rewardKeys.vouchers(rewardId, query),
      queryFn: ({ signal }) => apiClient.get<VoucherPage>(vouchersPath(rewardId), { params: query, signal }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Generates `count` codes, or imports a CSV file (`dryRun`: the report only). */
export function useCreateVouchers(rewardId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { count: number } | { file: File; dryRun: boolean }): Promise<VoucherBatchResult> => {
      if ('count' in input) return apiClient.post<VoucherBatchResult>(vouchersPath(rewardId), { count: input.count }, { isSilent: true });
      const form = new FormData();
      form.append('file', input.file);
      return apiClient.upload<VoucherBatchResult>(`${vouchersPath(rewardId)}${input.dryRun ? '?dryRun=true' : ''}`, form, { isSilent: true });
    },
    onSuccess: (result) => (result.dryRun ? undefined : client.invalidateQueries({ queryKey: rewardKeys.all })),
  });
}

export function useVoidVoucher(rewardId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (voucherId: number) => apiClient.post<Voucher>(`${vouchersPath(rewardId)}/${voucherId}/void`, undefined, { isSilent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: rewardKeys.all }),
  });
}

/**
 * Marks a voucher used at a merchant (the till's step, from the back-office). One key per use: the
 * client's own re-send of it (after refreshing the session) answers the use, not 409 voucher_used.
 */
export function useUseVoucher() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { code: string; merchantId: string }) =>
      apiClient.post<VoucherCheck>(
        `/admin/vouchers/${encodeURIComponent(input.code.trim())}/use`,
        { merchantId: input.merchantId },
        { headers: { [IDEMPOTENCY_KEY_HEADER]: `web-use-${crypto.randomUUID()}` }, isSilent: true },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: rewardKeys.all }),
  });
}
