import { type CreateReward, type ListRewardsQuery, type RedemptionResult, type Reward, type UpdateReward } from '@sf/contract/rewards';
import type { Executor, Transaction } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, fieldError, validationFailed } from '../../lib/errors.ts';
import { applyToLockedMember, lockMember, type LedgerCaller } from '../ledger/ledger.service.ts';
import { requestHash, runIdempotent } from '../../lib/idempotency.ts';
import * as repo from './rewards.repository.ts';
import { queueServiceEmail } from '../service-emails/service-emails.service.ts';
import { businessToday, notFoundOf, rewardError } from './rewards.common.ts';
import { newVoucherCode } from './vouchers.service.ts';

/**
 * Who acts on rewards and vouchers: a staff member (`{ id: user id, label: e-mail, audit }`) or an
 * integration key (`{ id: null, label: 'api-key:<name>', audit: { id: null, email: 'api-key:<name>' } }`).
 * `label` is written as the ledger entry's "created by" and the voucher's "used by".
 */
export type RewardsActor = LedgerCaller;

export const REWARD_ENTITY = 'reward';
export const VOUCHER_ENTITY = 'voucher';

/** The idempotency scope of staff redemptions; the integration API passes its own (e.g. per key). */
export const ADMIN_REDEMPTION_SCOPE = 'admin-redemption';

// ---- rewards --------------------------------------------------------------------------------------

export async function listRewards(deps: ServiceDeps, query: ListRewardsQuery) {
  const { rows, total } = await repo.findRewards(deps.db, query, businessToday(deps));
  return { items: rows.map((row) => repo.toReward(row as never)), total, page: query.page, pageSize: query.pageSize };
}

export async function getReward(deps: ServiceDeps, id: string, executor: Executor = deps.db): Promise<Reward> {
  const row = await repo.findReward(executor, id, businessToday(deps));
  if (!row) throw notFoundOf('reward');
  return repo.toReward(row);
}

async function checkImage(executor: Executor, imageId: string | null | undefined) {
  if (imageId && !(await repo.uploadExists(executor, imageId))) throw fieldError('imageId');
}


export async function createReward(deps: ServiceDeps, caller: Caller, input: CreateReward): Promise<Reward> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const program = await repo.findProgramBrief(tx, input.programId);
    if (!program) throw fieldError('programId', 'notFound');
    await checkImage(tx, input.imageId);
    const row = await repo.insertReward(tx, {
      programId: input.programId,
      name: input.name,
      description: input.description,
      imageId: input.imageId,
      cost: input.cost,
      stock: input.stock,
      validFrom: input.validFrom,
      validUntil: input.validUntil,
      limitPerCustomer: input.limitPerCustomer,
      status: input.status,
      createdAt: now,
      updatedAt: now,
    });
    const reward = await getReward(deps, row.id, tx);
    await recordAudit(tx, caller.actor, { action: 'create', entityType: REWARD_ENTITY, entityId: row.id, after: reward });
    return reward;
  });
}

export async function updateReward(deps: ServiceDeps, caller: Caller, id: string, input: UpdateReward): Promise<Reward> {
  const { version, ...fields } = input;
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockReward(tx, id);
    if (!current) throw notFoundOf('reward');
    if (current.version !== version) throw new AppError(409, 'version_conflict');
    const before = await getReward(deps, id, tx);
    const validFrom = fields.validFrom !== undefined ? fields.validFrom : current.validFrom;
    const validUntil = fields.validUntil !== undefined ? fields.validUntil : current.validUntil;
    // The window holds for the reward as it will be (one day, from = until, is a window).
    if (validFrom && validUntil && validFrom > validUntil) throw fieldError('validUntil');
    await checkImage(tx, fields.imageId);
    const values: Partial<repo.RewardValues> = { version: current.version + 1, updatedAt: deps.clock.now() };
    for (const key of ['name', 'description', 'imageId', 'cost', 'stock', 'limitPerCustomer', 'status'] as const) {
      if (fields[key] !== undefined) (values as Record<string, unknown>)[key] = fields[key];
    }
    // Staff set the redemptions LEFT; what they made available in all is that plus what redemptions
    // already hold (counted under the reward's lock, as redemptions take it): ledger:verify checks
    // stock = stockTotal - vouchers of redemptions not void (migration 0023).
    if (fields.stock !== undefined) values.stockTotal = fields.stock === null ? null : fields.stock + (await repo.stockTaken(tx, id));
    if (fields.validFrom !== undefined) values.validFrom = validFrom;
    if (fields.validUntil !== undefined) values.validUntil = validUntil;
    await repo.updateRewardRow(tx, id, values);
    const after = await getReward(deps, id, tx);
    await recordAudit(tx, caller.actor, { action: 'update', entityType: REWARD_ENTITY, entityId: id, before, after });
    return after;
  });
}

// ---- redemption ------------------------------------------------------------------------------------

/** Open today: from the start of its first business day through the end of its last (`YYYY-MM-DD` compare). */
function isInWindow(reward: { validFrom: string | null; validUntil: string | null }, today: string): boolean {
  return (!reward.validFrom || reward.validFrom <= today) && (!reward.validUntil || today <= reward.validUntil);
}

/**
 * Redeems a reward for a customer: ONE transaction takes the reward's cost from the membership (a
 * `redeem` ledger entry, source `reward`, FIFO lots, through the ledger's own checks) and issues a
 * voucher (the oldest `available` code of the reward, else a newly drawn one), and takes one from
 * the stock.
 *
 * Idempotent like every ledger write: `idempotencyKey` (with `scope`, default ADMIN_REDEMPTION_SCOPE;
 * the integration API passes one per key) makes a retry answer the first answer again
 * (`isReplay: true`) without a second entry or voucher; the same key with another customer or reward
 * throws 422 `idempotency_key_reused`; while the twin is still running, 409 `idempotency_key_in_flight`.
 *
 * Concurrency: the membership row, then the reward row, are locked (in that order) before anything
 * is counted, so the stock never goes below zero (also a CHECK) and `limitPerCustomer` holds.
 *
 * `merchantId` is where it happens (docs/product.md D: each entry has "the merchant where it
 * happened"): an integration key's merchant, or the one staff name; none for the customers' app.
 * It must be active and take part in the reward's program (else 400 on `merchantId`), and it is
 * written on the `redeem` entry, so Movimenti, the CSV and the dashboard count it at that merchant.
 *
 * Throws (AppError, its text in the caller's language): 404 `not_found` (reward); 400 `validation`
 * (customerId or merchantId unknown); 409 `reward_not_available` (reward not active, or outside its window, or its
 * program not active), `conflict` (customer not active), `out_of_stock`, `reward_limit_reached`,
 * `insufficient_balance`.
 */
export async function redeemReward(
  deps: ServiceDeps,
  actor: RewardsActor,
  input: { customerId: string; rewardId: string; merchantId?: string | null | undefined },
  idempotencyKey: string,
  options: { scope?: string } = {},
): Promise<{ status: number; body: RedemptionResult; isReplay: boolean }> {
  const scope = options.scope ?? ADMIN_REDEMPTION_SCOPE;
  const merchantId = input.merchantId ?? undefined;
  const answer = await runIdempotent(
    deps.db,
    // Without a merchant the hash is the one written before merchants were recorded: old keys still replay.
    { scope, key: idempotencyKey, hash: requestHash({ op: 'redeem', customerId: input.customerId, rewardId: input.rewardId, merchantId }) },
    async (tx: Transaction) => {
      const now = deps.clock.now();
      const today = businessToday(deps, now);
      const first = await repo.findReward(tx, input.rewardId, today);
      if (!first) throw notFoundOf('reward');
      if (first.reward.status !== 'active' || !isInWindow(first.reward, today)) throw rewardError(409, 'reward_not_available');
      // A suspended or archived merchant keeps its history but takes no new activity (as in the ledger).
      if (merchantId !== undefined && !(await repo.isMerchantActive(tx, merchantId))) {
        throw validationFailed([{ field: 'merchantId', text: 'merchant_not_active' }]);
      }
      let locked;
      try {
        // With a merchant, the ledger's lock also checks that it takes part in the program (400 on merchantId).
        locked = await lockMember(tx, deps, { customerId: input.customerId, programId: first.reward.programId, merchantId });
      } catch (error) {
        // The ledger calls a closed program a conflict; for a redemption it is a reward not available now.
        if (error instanceof AppError && error.code === 'conflict' && (await repo.findProgramBrief(tx, first.reward.programId))?.status !== 'active') {
          throw rewardError(409, 'reward_not_available');
        }
        throw error;
      }
      const reward = await repo.lockReward(tx, input.rewardId);
      if (!reward || reward.status !== 'active' || !isInWindow(reward, today)) throw rewardError(409, 'reward_not_available');
      if (reward.stock !== null && reward.stock <= 0) throw rewardError(409, 'out_of_stock');
      if (reward.limitPerCustomer !== null) {
        const had = await repo.countCustomerVouchers(tx, reward.id, input.customerId);
        if (had >= reward.limitPerCustomer) throw rewardError(409, 'reward_limit_reached');
      }
      const isStamps = locked.program.type === 'stamps';
      const { entry } = await applyToLockedMember(tx, deps, actor, locked, {
        kind: 'redeem',
        source: 'reward',
        points: isStamps ? 0 : -reward.cost,
        stamps: isStamps ? -reward.cost : 0,
        reason: reward.name.slice(0, 500),
        merchantId: merchantId ?? null,
        idempotencyKey: `${scope}:${idempotencyKey}`,
      });
      if (reward.stock !== null) await repo.decrementStock(tx, reward.id);
      let voucher = await repo.takeAvailableVoucher(tx, reward.id);
      if (voucher) {
        await repo.issueVoucher(tx, voucher.id, { customerId: input.customerId, entryId: entry.id, issuedAt: now });
      } else {
        for (let attempt = 0; !voucher; attempt += 1) {
          if (attempt >= 20) throw new Error('voucher code generation kept colliding');
          voucher = await repo.insertIssuedVoucher(tx, {
            rewardId: reward.id,
            code: newVoucherCode(),
            customerId: input.customerId,
            entryId: entry.id,
            issuedAt: now,
          });
        }
      }
      await recordAudit(tx, actor.audit, {
        action: 'reward.redeem',
        entityType: VOUCHER_ENTITY,
        entityId: voucher.id,
        after: { rewardId: reward.id, customerId: input.customerId, entryId: entry.id, code: voucher.code },
        // The entry's and the voucher's time: the demo's redemptions, dated in the past, are not today's changes.
        at: now,
      });
      // "Il tuo buono è pronto" (when the program has it on), queued with the voucher.
      await queueServiceEmail(tx, {
        customerId: input.customerId,
        programId: reward.programId,
        kind: 'voucher',
        dedupeKey: `voucher:${voucher.id}`,
        facts: { codice_buono: voucher.code, premio: reward.name, validita_buono: reward.validUntil },
        now,
      });
      const body: RedemptionResult = {
        entry,
        voucher: { id: voucher.id, code: voucher.code, validUntil: reward.validUntil },
      };
      return { status: 201, body };
    },
  );
  return { status: answer.status, body: answer.body as RedemptionResult, isReplay: answer.isReplay };
}

/**
 * The rewards' half of reversing a redemption (its `redeem` entry, source `reward`), run by the
 * ledger's reverseEntry in ITS transaction, after it has locked the membership: the voucher the
 * redemption issued is voided and the reward's stock given back (when it has one), so the reversal,
 * the voucher and the stock commit together or not at all. A voucher already used at a till cannot
 * be taken back: 409 `redemption_voucher_used`, and nothing is reversed.
 *
 * Lock order as in redeemReward: membership (the caller's), then the reward row, then the voucher.
 * A voucher already voided by staff (which returned no stock, decision record 015) stays void and
 * the stock still comes back now.
 */
export async function releaseRedemption(
  tx: Transaction,
  deps: Pick<ServiceDeps, 'clock'>,
  actor: RewardsActor,
  entry: { id: number },
): Promise<{ voucherId: number; rewardId: string } | null> {
  const issued = await repo.findVoucherOfEntry(tx, entry.id);
  if (!issued) return null;
  await repo.lockReward(tx, issued.rewardId);
  const voucher = await repo.lockVoucher(tx, issued.rewardId, issued.id);
  if (!voucher) return null;
  if (voucher.status === 'used') throw rewardError(409, 'redemption_voucher_used');
  const now = deps.clock.now();
  if (voucher.status !== 'void') await repo.markVoid(tx, voucher.id, now);
  await repo.incrementStock(tx, issued.rewardId);
  await recordAudit(tx, actor.audit, {
    action: 'voucher.void',
    entityType: VOUCHER_ENTITY,
    entityId: voucher.id,
    before: { status: voucher.status },
    after: { status: 'void', reversedEntryId: entry.id, stockReturned: true },
  });
  return { voucherId: voucher.id, rewardId: issued.rewardId };
}


/** For the audit list: these rewards' names in one query. */
export function rewardNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  return repo.rewardNamesByIds(executor, ids);
}
