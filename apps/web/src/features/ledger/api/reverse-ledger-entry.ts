import { IDEMPOTENCY_KEY_HEADER, type LedgerWriteResult } from '@sf/contract/ledger';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { LEDGER_PATH, ledgerKeys } from './get-ledger.ts';

export function reverseLedgerEntry({ id, reason, idempotencyKey }: { id: number; reason: string; idempotencyKey: string }): Promise<LedgerWriteResult> {
  return apiClient.post<LedgerWriteResult>(`${LEDGER_PATH}/${id}/reversal`, { reason }, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }, isSilent: true });
}

export function useReverseLedgerEntry() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reverseLedgerEntry, onSuccess: () => client.invalidateQueries({ queryKey: ledgerKeys.all }) });
}
