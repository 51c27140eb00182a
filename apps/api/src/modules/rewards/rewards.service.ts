import { randomInt } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Language } from '@sf/contract/app-info';
import {
  normalizeVoucherCode,
  REWARD_BOUNDS,
  VOUCHER_ALPHABET,
  voucherCodeSchema,
  type CreateReward,
  type ListRewardsQuery,
  type ListVouchersQuery,
  type RedemptionResult,
  type Reward,
  type RewardErrorCode,
  type UpdateReward,
  type Voucher,
  type VoucherBatchResult,
  type VoucherCheck,
  type VoucherStatus,
} from '@sf/contract/rewards';
import type { Executor, Transaction } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { applyToLockedMember, lockMember, type LedgerCaller } from '../ledger/ledger.service.ts';
import { requestHash, runIdempotent } from '../../lib/idempotency.ts';
import { localDate } from '../../lib/business-days.ts';
import * as repo from './rewards.repository.ts';

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

const rewardError = (status: number, code: RewardErrorCode) => new AppError(status, code);

const notFoundOf = (entity: string) => notFound(entity);

// ---- rewards --------------------------------------------------------------------------------------

/** Today as a business date (`YYYY-MM-DD` in BUSINESS_TIME_ZONE): what a reward's window is read against. */
const businessToday = (deps: ServiceDeps, now: Date = deps.clock.now()) => localDate(now, deps.timeZone);

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

// ---- vouchers: generation, import, list, void ------------------------------------------------------

/** One code of REWARD_BOUNDS.generatedCodeLength characters, each drawn uniformly (crypto.randomInt). */
export function newVoucherCode(): string {
  let code = '';
  for (let i = 0; i < REWARD_BOUNDS.generatedCodeLength; i += 1) code += VOUCHER_ALPHABET[randomInt(VOUCHER_ALPHABET.length)];
  return code;
}

/**
 * `POST /api/admin/rewards/:id/vouchers` `{ count }`: `count` new codes, all different from every
 * stored code (a draw that collides is skipped by the unique index and drawn again).
 */
export async function generateVouchers(deps: ServiceDeps, caller: Caller, rewardId: string, count: number): Promise<VoucherBatchResult> {
  return deps.db.transaction(async (tx) => {
    if (!(await repo.rewardExistsForShare(tx, rewardId))) throw notFoundOf('reward');
    const now = deps.clock.now();
    let created = 0;
    for (let round = 0; created < count; round += 1) {
      // 50 random bits per code: a round with a collision is already a rarity; 20 in a row is a bug.
      if (round >= 20) throw new Error('voucher code generation kept colliding');
      const wanted = new Set<string>();
      while (wanted.size < count - created) wanted.add(newVoucherCode());
      created += (await repo.insertCodes(tx, rewardId, [...wanted], 'generated', now)).length;
    }
    await recordAudit(tx, caller.actor, { action: 'vouchers.generate', entityType: REWARD_ENTITY, entityId: rewardId, after: { count } });
    return { dryRun: false, created, errors: [], rewritten: [], rewrittenCount: 0, stock: await repo.stockAndWaiting(tx, rewardId) };
  });
}

const importRowError = (row: number, code: string, language: Language, text: { it: string; en: string }) => ({
  row,
  code,
  message: text[language],
});

/**
 * `POST /api/admin/rewards/:id/vouchers` with a CSV file: one code per row, in the column headed
 * `code`/`codice` (or the first column). Italian Excel (`;`, BOM) and comma-separated UTF-8 both
 * read. `dryRun` reports the same row errors and stores nothing. Rows with an error are skipped; the
 * others are stored in one transaction.
 */
export async function importVouchers(
  deps: ServiceDeps,
  caller: Caller,
  rewardId: string,
  file: Buffer,
  options: { dryRun: boolean },
): Promise<VoucherBatchResult> {
  const language = caller.language;
  if (file.length > REWARD_BOUNDS.importBytesMax) throw fieldError('file');
  const text = file.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 10_000 }) as string[][];
  } catch {
    throw fieldError('file');
  }
  if (records.length === 0) throw fieldError('file', 'required');
  const header = (records[0] ?? []).map((cell) => cell.toLowerCase());
  const named = header.findIndex((cell) => cell === 'code' || cell === 'codice');
  const hasHeader = named >= 0 || !voucherCodeSchema.safeParse(records[0]?.[0] ?? '').success;
  const column = Math.max(named, 0);
  const body = hasHeader ? records.slice(1) : records;
  if (body.length > REWARD_BOUNDS.importMax) throw fieldError('file');

  const errors: VoucherBatchResult['errors'] = [];
  const rewritten: VoucherBatchResult['rewritten'] = [];
  const seen = new Map<string, number>();
  body.forEach((record, index) => {
    const row = index + (hasHeader ? 2 : 1);
    const raw = record[column] ?? '';
    if (!voucherCodeSchema.safeParse(raw).success) {
      errors.push(importRowError(row, 'invalid', language, { it: `Codice non valido: "${raw.slice(0, 50)}"`, en: `Invalid code: "${raw.slice(0, 50)}"` }));
      return;
    }
    const code = normalizeVoucherCode(raw);
    if (code !== raw) rewritten.push({ row, from: raw, to: code });
    const first = seen.get(code);
    if (first !== undefined) {
      errors.push(importRowError(row, 'duplicate', language, { it: `Codice ripetuto (riga ${first})`, en: `Repeated code (row ${first})` }));
      return;
    }
    seen.set(code, row);
  });

  return deps.db.transaction(async (tx) => {
    if (!(await repo.rewardExistsForShare(tx, rewardId))) throw notFoundOf('reward');
    const codes = [...seen.keys()];
    const taken = new Set<string>();
    for (let i = 0; i < codes.length; i += 1000) {
      for (const code of await repo.existingCodes(tx, codes.slice(i, i + 1000))) taken.add(code);
    }
    for (const code of taken) {
      errors.push(importRowError(seen.get(code)!, 'exists', language, { it: 'Codice già presente', en: 'Code already exists' }));
    }
    errors.sort((a, b) => a.row - b.row);
    const fresh = codes.filter((code) => !taken.has(code));
    const report = { errors, rewritten: rewritten.slice(0, 50), rewrittenCount: rewritten.length };
    if (options.dryRun) {
      const stock = await repo.stockAndWaiting(tx, rewardId);
      return { dryRun: true, created: fresh.length, ...report, stock: stock && { ...stock, waiting: stock.waiting + fresh.length } };
    }
    let created = 0;
    for (let i = 0; i < fresh.length; i += 1000) {
      created += (await repo.insertCodes(tx, rewardId, fresh.slice(i, i + 1000), 'imported', deps.clock.now())).length;
    }
    await recordAudit(tx, caller.actor, {
      action: 'vouchers.import',
      entityType: REWARD_ENTITY,
      entityId: rewardId,
      after: { created, refused: errors.length },
    });
    return { dryRun: false, created, ...report, stock: await repo.stockAndWaiting(tx, rewardId) };
  });
}

export async function listVouchers(deps: ServiceDeps, rewardId: string, query: ListVouchersQuery) {
  if (!(await repo.findReward(deps.db, rewardId, businessToday(deps)))) throw notFoundOf('reward');
  const { rows, total } = await repo.findVouchers(deps.db, rewardId, query, businessToday(deps));
  return { items: rows.map((row) => repo.toVoucher(row as never)), total, page: query.page, pageSize: query.pageSize };
}

/**
 * Voids an available or issued voucher (a used one stays used). Voiding an issued voucher does not
 * give the points back: that is the reversal of its `redeem` entry in Movimenti (decision record 015).
 */
export async function voidVoucher(deps: ServiceDeps, caller: Caller, rewardId: string, voucherId: number): Promise<Voucher> {
  return deps.db.transaction(async (tx) => {
    const voucher = await repo.lockVoucher(tx, rewardId, voucherId);
    if (!voucher) throw notFoundOf('voucher');
    if (voucher.status === 'used') throw rewardError(409, 'voucher_used');
    if (voucher.status !== 'void') {
      await repo.markVoid(tx, voucherId, deps.clock.now());
      // A redemption's voucher voided frees its unit of stock (the points come back only by reversing
      // the redemption's entry, decision 015).
      if (voucher.status === 'issued' && voucher.entryId !== null) await repo.incrementStock(tx, rewardId);
      await recordAudit(tx, caller.actor, {
        action: 'voucher.void',
        entityType: VOUCHER_ENTITY,
        entityId: voucherId,
        before: { status: voucher.status },
        after: { status: 'void' },
      });
    }
    return (await repo.findVoucherById(tx, voucherId, businessToday(deps)))!;
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
 * Throws (AppError, its text in the caller's language): 404 `not_found` (reward); 400 `validation`
 * (customerId unknown); 409 `reward_not_available` (reward not active, or outside its window, or its
 * program not active), `conflict` (customer not active), `out_of_stock`, `reward_limit_reached`,
 * `insufficient_balance`.
 */
export async function redeemReward(
  deps: ServiceDeps,
  actor: RewardsActor,
  input: { customerId: string; rewardId: string },
  idempotencyKey: string,
  options: { scope?: string } = {},
): Promise<{ status: number; body: RedemptionResult; isReplay: boolean }> {
  const scope = options.scope ?? ADMIN_REDEMPTION_SCOPE;
  const answer = await runIdempotent(
    deps.db,
    { scope, key: idempotencyKey, hash: requestHash({ op: 'redeem', customerId: input.customerId, rewardId: input.rewardId }) },
    async (tx: Transaction) => {
      const now = deps.clock.now();
      const today = businessToday(deps, now);
      const first = await repo.findReward(tx, input.rewardId, today);
      if (!first) throw notFoundOf('reward');
      if (first.reward.status !== 'active' || !isInWindow(first.reward, today)) throw rewardError(409, 'reward_not_available');
      let locked;
      try {
        locked = await lockMember(tx, deps, { customerId: input.customerId, programId: first.reward.programId });
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
        merchantId: null,
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

// ---- a voucher at the till -------------------------------------------------------------------------

/** `today`: the business date of the moment asked about; the window's last day is still valid. */
function effectiveStatus(voucher: repo.VoucherForUse, today: string): VoucherStatus {
  if ((voucher.status === 'available' || voucher.status === 'issued') && voucher.validUntil && voucher.validUntil < today) return 'expired';
  return voucher.status;
}

/** Why `use` would fail now (most final first), or null. */
function refusalOf(voucher: repo.VoucherForUse, isMerchantOfProgram: boolean, today: string): RewardErrorCode | null {
  if (voucher.status === 'used') return 'voucher_used';
  if (voucher.status === 'void') return 'voucher_void';
  if (voucher.validUntil && voucher.validUntil < today) return 'voucher_expired';
  if (voucher.status !== 'issued') return 'voucher_not_issued';
  if (voucher.validFrom && voucher.validFrom > today) return 'voucher_not_yet_valid';
  if (!isMerchantOfProgram) return 'voucher_wrong_merchant';
  return null;
}

function toCheck(voucher: repo.VoucherForUse, reason: RewardErrorCode | null, today: string): VoucherCheck {
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

async function checkMerchant(executor: Executor, merchantId: string) {
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

/**
 * Marks an issued voucher used at a merchant, once: the voucher row is locked, so of many parallel
 * uses exactly one succeeds. Answers the voucher as checked after the use (status `used`).
 * Throws 404 `not_found` (unknown code), 400 `validation` (unknown merchantId); 409 `voucher_used`,
 * `voucher_void`, `voucher_expired` (past the reward's window), `voucher_not_issued` (a code still
 * waiting for a redemption), `voucher_not_yet_valid`, `voucher_wrong_merchant` (the merchant is not
 * one of the reward's program). Not idempotent by key: a retry of a use that succeeded gets 409
 * `voucher_used` (and checkVoucher tells where and when).
 */
export async function useVoucher(deps: ServiceDeps, actor: RewardsActor, input: { code: string; merchantId: string }): Promise<VoucherCheck> {
  await checkMerchant(deps.db, input.merchantId);
  return deps.db.transaction(async (tx) => {
    const voucher = await repo.findVoucherByCode(tx, normalizeVoucherCode(input.code), { lock: true });
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
    return toCheck({ ...voucher, status: 'used', usedAt: now.toISOString() }, null, today);
  });
}
