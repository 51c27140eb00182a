import { IDEMPOTENCY_KEY_HEADER } from '@sf/contract/ledger';
import type { CreateRedemption, RedemptionResult } from '@sf/contract/rewards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

/** A redemption: the key makes a retry of the same confirmation count once. */
export function redeemReward({ idempotencyKey, ...body }: CreateRedemption & { idempotencyKey: string }): Promise<RedemptionResult> {
  return apiClient.post<RedemptionResult>('/admin/redemptions', body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }, isSilent: true });
}

export function useRedeemReward() {
  const client = useQueryClient();
  // Balances, the ledger and the reward's stock and vouchers all change.
  return useMutation({ mutationFn: redeemReward, onSuccess: () => client.invalidateQueries() });
}
