import { randomInt } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Language } from '@sf/contract/app-info';
import { normalizeVoucherCode, REWARD_BOUNDS, VOUCHER_ALPHABET, voucherCodeSchema, type ListVouchersQuery, type Voucher, type VoucherBatchResult } from '@sf/contract/rewards';
import type { Executor } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { fieldError } from '../../lib/errors.ts';
import * as repo from './rewards.repository.ts';
import { REWARD_ENTITY, VOUCHER_ENTITY } from './rewards.service.ts';
import { businessToday, notFoundOf, rewardError } from './rewards.common.ts';

/**
 * A reward's vouchers as staff manage them (split out of rewards.service.ts, issue 26, so that
 * "voucher" finds them): generation, CSV import, the list and voiding. Using one at a till is
 * voucher-use.service.ts; a redemption's voucher is rewards.service.ts `redeemReward`.
 */

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

export const importRowError = (row: number, code: string, language: Language, text: { it: string; en: string }) => ({
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
  // Each record with the file's line it ends on (csv-parse's `info.lines`, as the customer import's
  // reader keeps it): blank lines are skipped, but a row is reported by the line the file shows.
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 10_000, info: true }) as unknown as typeof records;
  } catch {
    throw fieldError('file');
  }
  if (records.length === 0) throw fieldError('file', 'required');
  const firstRecord = records[0]?.record ?? [];
  const header = firstRecord.map((cell) => cell.toLowerCase());
  const named = header.findIndex((cell) => cell === 'code' || cell === 'codice');
  const hasHeader = named >= 0 || !voucherCodeSchema.safeParse(firstRecord[0] ?? '').success;
  const column = Math.max(named, 0);
  const body = hasHeader ? records.slice(1) : records;
  if (body.length > REWARD_BOUNDS.importMax) throw fieldError('file');

  const errors: VoucherBatchResult['errors'] = [];
  const rewritten: VoucherBatchResult['rewritten'] = [];
  const seen = new Map<string, number>();
  body.forEach(({ record, info }) => {
    const row = info.lines;
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


/**
 * Erasure (decision record 021): the customer's issued, unused vouchers are voided — a code handed to
 * a person who is no longer on record leads nowhere, like their card — and a redemption's frees its
 * unit of stock; the points stay spent (the ledger is append-only and refuses an erased customer).
 * Each is audited like a void. In the erasure's transaction; answers how many were voided.
 */
export async function voidVouchersOfErasedCustomer(tx: Executor, caller: Caller, customerId: string, now: Date): Promise<number> {
  const voided = await repo.voidIssuedVouchersOf(tx, customerId, now);
  for (const voucher of voided) {
    await recordAudit(tx, caller.actor, {
      action: 'voucher.void',
      entityType: VOUCHER_ENTITY,
      entityId: voucher.id,
      before: { status: 'issued' },
      after: { status: 'void', reason: 'customer_erased' },
    });
  }
  return voided.length;
}

/** For the audit list: these vouchers' reward and code, in one query (the reward's name is the rewards' own). */
export function voucherCodes(executor: Executor, ids: number[]) {
  return repo.findVoucherCodes(executor, ids);
}
