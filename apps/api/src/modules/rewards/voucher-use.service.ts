import { normalizeVoucherCode, type RewardErrorCode, type VoucherCheck, type VoucherStatus } from '@sf/contract/rewards';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { fieldError } from '../../lib/errors.ts';
import { requestHash, runIdempotent } from '../../lib/idempotency.ts';
import * as repo from './rewards.repository.ts';
import { type RewardsActor, VOUCHER_ENTITY } from './rewards.service.ts';
import { businessToday, notFoundOf, rewardError } from './rewards.common.ts';

/**
 * A voucher at the till (split out of rewards.service.ts, issue 26): checking a code and using it
 * once, at a merchant of the reward's program, within its window. The integration API and the
 * staff screen both come here.
 */

/** `today`: the business date of the moment asked about; the window's last day is still valid. */
export function effectiveStatus(voucher: repo.VoucherForUse, today: string): VoucherStatus {
  if ((voucher.status === 'available' || voucher.status === 'issued') && voucher.validUntil && voucher.validUntil < today) return 'expired';
  return voucher.status;
}

/** Why `use` would fail now (most final first), or null. */
export function refusalOf(voucher: repo.VoucherForUse, isMerchantOfProgram: boolean, today: string): RewardErrorCode | null {
  if (voucher.status === 'used') return 'voucher_used';
  if (voucher.status === 'void') return 'voucher_void';
  if (voucher.validUntil && voucher.validUntil < today) return 'voucher_expired';
  if (voucher.status !== 'issued') return 'voucher_not_issued';
  if (voucher.validFrom && voucher.validFrom > today) return 'voucher_not_yet_valid';
  if (!isMerchantOfProgram) return 'voucher_wrong_merchant';
  return null;
}

export function toCheck(voucher: repo.VoucherForUse, reason: RewardErrorCode | null, today: string): VoucherCheck {
  return {
    code: voucher.code,
    status: effectiveStatus(voucher, today),
    usable: reason === null,
    reason,
    reward: { id: voucher.rewardId, name: voucher.rewardName, programId: voucher.programId },
    customerId: voucher.customerId,
    issuedAt: voucher.issuedAt,
    usedAt: voucher.usedAt,
    validFrom: voucher.validFrom,
    validUntil: voucher.validUntil,
  };
}

export async function checkMerchant(executor: Executor, merchantId: string) {
  if (!(await repo.merchantExists(executor, merchantId))) throw fieldError('merchantId', 'notFound');
}

/**
 * What a till learns about a code before using it: status, whether `useVoucher` at this merchant
 * would succeed now (`usable`) and if not why (`reason`, an error code). Changes nothing.
 * `code` is compared after normalizeVoucherCode (spaces and dashes dropped, upper case).
 * Throws 404 `not_found` (unknown code), 400 `validation` (unknown merchantId).
 */
export async function checkVoucher(deps: ServiceDeps, input: { code: string; merchantId: string }): Promise<VoucherCheck> {
  await checkMerchant(deps.db, input.merchantId);
  const voucher = await repo.findVoucherByCode(deps.db, normalizeVoucherCode(input.code));
  if (!voucher) throw notFoundOf('voucher');
  const today = businessToday(deps);
  return toCheck(voucher, refusalOf(voucher, await repo.isMerchantOfProgram(deps.db, input.merchantId, voucher.programId), today), today);
}

/** The idempotency scope of staff voucher uses; the integration API passes its own (per key). */
export const ADMIN_VOUCHER_USE_SCOPE = 'admin-voucher-use';

/**
 * Marks an issued voucher used at a merchant, once: the voucher row is locked, so of many parallel
 * uses exactly one succeeds. Answers the voucher as a check would right after the use: status
 * `used`, `usable: false`, reason `voucher_used` (a till must never be told it can offer it again).
 *
 * With `idempotency` (the request's `Idempotency-Key` in the caller's scope) the use goes through the
 * one idempotency mechanism of the ledger (lib/idempotency.ts): a retry of a use that went through
 * answers the first answer (`isReplay: true`) instead of 409 `voucher_used`; the same key for another
 * code or merchant throws 422 `idempotency_key_reused`; while its twin runs, 409
 * `idempotency_key_in_flight`. Without a key a second use is refused, as it always was.
 *
 * Throws 404 `not_found` (unknown code), 400 `validation` (unknown merchantId); 409 `voucher_used`,
 * `voucher_void`, `voucher_expired` (past the reward's window), `voucher_not_issued` (a code still
 * waiting for a redemption), `voucher_not_yet_valid`, `voucher_wrong_merchant` (the merchant is not
 * one of the reward's program). Refusals are not stored: retrying them decides again.
 */
export async function useVoucher(
  deps: ServiceDeps,
  actor: RewardsActor,
  input: { code: string; merchantId: string },
  idempotency?: { scope: string; key: string },
): Promise<{ body: VoucherCheck; isReplay: boolean }> {
  await checkMerchant(deps.db, input.merchantId);
  const code = normalizeVoucherCode(input.code);
  const use = async (tx: Executor): Promise<VoucherCheck> => {
    const voucher = await repo.findVoucherByCode(tx, code, { lock: true });
    if (!voucher) throw notFoundOf('voucher');
    const now = deps.clock.now();
    const today = businessToday(deps, now);
    const reason = refusalOf(voucher, await repo.isMerchantOfProgram(tx, input.merchantId, voucher.programId), today);
    if (reason) throw rewardError(409, reason);
    await repo.markUsed(tx, voucher.id, { usedAt: now, merchantId: input.merchantId, label: actor.label });
    await recordAudit(tx, actor.audit, {
      action: 'voucher.use',
      entityType: VOUCHER_ENTITY,
      entityId: voucher.id,
      before: { status: voucher.status },
      after: { status: 'used', merchantId: input.merchantId },
    });
    const used = { ...voucher, status: 'used' as const, usedAt: now.toISOString() };
    return toCheck(used, refusalOf(used, true, today), today);
  };
  if (!idempotency) return { body: await deps.db.transaction(use), isReplay: false };
  const answer = await runIdempotent(
    deps.db,
    { ...idempotency, hash: requestHash({ op: 'use-voucher', code, merchantId: input.merchantId }) },
    async (tx) => ({ status: 200, body: await use(tx) }),
  );
  return { body: answer.body as VoucherCheck, isReplay: answer.isReplay };
}
