import { IDEMPOTENCY_KEY_HEADER, type CreateLedgerEntry, type LedgerWriteResult } from '@sf/contract/ledger';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { LEDGER_PATH, ledgerKeys } from './get-ledger.ts';

/** A purchase, redemption, adjustment or bonus; the key makes a retry of the same submission count once. */
export function createLedgerEntry({ idempotencyKey, ...body }: CreateLedgerEntry & { idempotencyKey: string }): Promise<LedgerWriteResult> {
  return apiClient.post<LedgerWriteResult>(LEDGER_PATH, body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }, isSilent: true });
}

export function useCreateLedgerEntry() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createLedgerEntry, onSuccess: () => client.invalidateQueries({ queryKey: ledgerKeys.all }) });
}
