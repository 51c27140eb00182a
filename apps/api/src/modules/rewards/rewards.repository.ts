import { eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { ListRewardsQuery, ListVouchersQuery, Reward, Voucher, VoucherStatus } from '@sf/contract/rewards';
import type { Executor } from '../../db/client.ts';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { customers, programs } from '../../db/schema.ts';
import { rewards, vouchers } from './rewards.schema.ts';

/** The rewards' SQL. Write functions run inside the caller's transaction. */

type Row = Record<string, unknown>;

async function rows<T = Row>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : (value instanceof Date ? value : new Date(String(value))).toISOString();

/** A `date` column as `YYYY-MM-DD` (pg answers a string, PGlite may answer a Date at UTC midnight). */
const day = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

export function uploadUrl(id: string): string {
  return `/api/public/uploads/${encodeURIComponent(id)}`;
}

export type RewardRow = typeof rewards.$inferSelect;
export type RewardValues = Omit<typeof rewards.$inferInsert, 'id'>;

/**
 * A voucher past its reward's window reads as expired (available or issued ones only). The window is
 * a range of business days, its last day included: `today` is the business date (`YYYY-MM-DD` in
 * BUSINESS_TIME_ZONE) of the moment asked about.
 */
function isExpiredSql(today: string): SQL {
  return sql`(${rewards.validUntil} is not null and ${rewards.validUntil} < ${today}::date)`;
}

function voucherCountsSql(today: string): SQL<{ available: number; issued: number; used: number; expired: number; void: number }> {
  const expired = isExpiredSql(today);
  return sql`(select jsonb_build_object(
      'available', count(*) filter (where v.status = 'available' and not ${expired}),
      'issued', count(*) filter (where v.status = 'issued' and not ${expired}),
      'used', count(*) filter (where v.status = 'used'),
      'expired', count(*) filter (where v.status in ('available', 'issued') and ${expired}),
      'void', count(*) filter (where v.status = 'void'))
    from ${vouchers} v where v.reward_id = ${rewards.id})`;
}

function rewardSelection(today: string) {
  return {
    reward: rewards,
    programName: programs.name,
    programType: programs.type,
    counts: voucherCountsSql(today),
  };
}

type RewardSelected = { reward: RewardRow; programName: string; programType: 'points' | 'stamps'; counts: unknown };

export function toReward(row: RewardSelected): Reward {
  const r = row.reward;
  const raw = (typeof row.counts === 'string' ? JSON.parse(row.counts) : row.counts) as Record<string, unknown> | null;
  const n = (key: string) => Number(raw?.[key] ?? 0);
  return {
    id: r.id,
    programId: r.programId,
    programName: row.programName,
    costUnit: row.programType,
    name: r.name,
    description: r.description,
    imageId: r.imageId,
    imageUrl: r.imageId ? uploadUrl(r.imageId) : null,
    cost: r.cost,
    stock: r.stock,
    validFrom: r.validFrom,
    validUntil: r.validUntil,
    limitPerCustomer: r.limitPerCustomer,
    status: r.status,
    vouchers: { available: n('available'), issued: n('issued'), used: n('used'), expired: n('expired'), void: n('void') },
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const rewardList: ListDefinition<ListRewardsQuery['sort']> = {
  sorts: {
    name: sql`lower(${rewards.name})`,
    cost: rewards.cost,
    stock: { expression: rewards.stock, nullsLast: true },
    status: rewards.status,
    validUntil: { expression: rewards.validUntil, nullsLast: true },
    createdAt: rewards.createdAt,
  },
  tieBreaker: rewards.id,
};

export type RewardFilter = Omit<ListRewardsQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function rewardConditions(filter: RewardFilter): SQL | undefined {
  return allOf(
    filter.q ? ilike(rewards.name, containsPattern(filter.q)) : undefined,
    filter.programId !== undefined && eq(rewards.programId, filter.programId),
    filter.status !== undefined && eq(rewards.status, filter.status),
  );
}

export function findRewards(executor: Executor, query: ListRewardsQuery, today: string) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    rewardList,
    (total) =>
      executor
        .select({ ...rewardSelection(today), _total: total })
        .from(rewards)
        .innerJoin(programs, eq(programs.id, rewards.programId))
        .$dynamic(),
    rewardConditions(query),
    { page, pageSize, sort, order },
  );
}

export async function findReward(executor: Executor, id: string, today: string): Promise<RewardSelected | undefined> {
  const [row] = await executor
    .select(rewardSelection(today))
    .from(rewards)
    .innerJoin(programs, eq(programs.id, rewards.programId))
    .where(eq(rewards.id, id));
  return row as RewardSelected | undefined;
}

/** The reward row alone, locked for the rest of the transaction (stock, version). */
export async function lockReward(executor: Executor, id: string): Promise<RewardRow | undefined> {
  const [row] = await executor.select().from(rewards).where(eq(rewards.id, id)).for('update');
  return row;
}

/** The reward exists; a key-share lock makes a generation or import wait for a PATCH, not for each other. */
export async function rewardExistsForShare(executor: Executor, id: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from rewards where id = ${id} for key share`);
  return row !== undefined;
}

export async function insertReward(executor: Executor, values: RewardValues): Promise<RewardRow> {
  const [row] = await executor.insert(rewards).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateRewardRow(executor: Executor, id: string, values: Partial<RewardValues>): Promise<RewardRow> {
  const [row] = await executor.update(rewards).set(values).where(eq(rewards.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function findProgramBrief(executor: Executor, id: string) {
  const [row] = await executor
    .select({ id: programs.id, type: programs.type, status: programs.status, bonuses: programs.bonuses })
    .from(programs)
    .where(eq(programs.id, id));
  return row;
}

export async function uploadExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from uploads where id = ${id}`);
  return row !== undefined;
}

export async function isMerchantOfProgram(executor: Executor, merchantId: string, programId: string): Promise<boolean> {
  const [row] = await rows(
    executor,
    sql`select 1 as ok from program_merchants where program_id = ${programId} and merchant_id = ${merchantId}`,
  );
  return row !== undefined;
}

export async function merchantExists(executor: Executor, merchantId: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from merchants where id = ${merchantId}`);
  return row !== undefined;
}

/** False for an unknown merchant too. */
export async function isMerchantActive(executor: Executor, merchantId: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from merchants where id = ${merchantId} and status = 'active'`);
  return row !== undefined;
}

// ---- vouchers -------------------------------------------------------------------------------------

function voucherStatusSql(today: string): SQL<VoucherStatus> {
  return sql<VoucherStatus>`case when ${vouchers.status} in ('available', 'issued') and ${isExpiredSql(today)} then 'expired' else ${vouchers.status} end`;
}

function voucherSelection(today: string) {
  return {
    voucher: vouchers,
    status: voucherStatusSql(today),
    // '' for an erased customer (not " "): the screen names them "Cliente cancellato".
    customerName: sql<string | null>`case when ${customers.id} is null then null else trim(${customers.firstName} || ' ' || ${customers.lastName}) end`,
  };
}

type VoucherSelected = { voucher: typeof vouchers.$inferSelect; status: VoucherStatus; customerName: string | null };

export function toVoucher(row: VoucherSelected): Voucher {
  const v = row.voucher;
  return {
    id: v.id,
    rewardId: v.rewardId,
    code: v.code,
    status: row.status,
    origin: v.origin,
    customerId: v.customerId,
    customerName: row.customerName,
    entryId: v.entryId,
    issuedAt: v.issuedAt ? v.issuedAt.toISOString() : null,
    usedAt: v.usedAt ? v.usedAt.toISOString() : null,
    usedMerchantId: v.usedMerchantId,
    voidedAt: v.voidedAt ? v.voidedAt.toISOString() : null,
    createdAt: v.createdAt.toISOString(),
  };
}

export function voucherList(today: string): ListDefinition<ListVouchersQuery['sort']> {
  return {
    sorts: {
      createdAt: vouchers.createdAt,
      code: vouchers.code,
      status: voucherStatusSql(today),
      issuedAt: { expression: vouchers.issuedAt, nullsLast: true },
      usedAt: { expression: vouchers.usedAt, nullsLast: true },
    },
    tieBreaker: vouchers.id,
  };
}

export type VoucherFilter = Omit<ListVouchersQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function voucherConditions(rewardId: string, filter: VoucherFilter, today: string): SQL | undefined {
  return allOf(
    eq(vouchers.rewardId, rewardId),
    filter.q ? ilike(vouchers.code, containsPattern(filter.q.replace(/[\s-]+/g, '').toUpperCase())) : undefined,
    filter.status !== undefined && sql`${voucherStatusSql(today)} = ${filter.status}`,
    filter.customerId !== undefined && eq(vouchers.customerId, filter.customerId),
  );
}

export function findVouchers(executor: Executor, rewardId: string, query: ListVouchersQuery, today: string) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    voucherList(today),
    (total) =>
      executor
        .select({ ...voucherSelection(today), _total: total })
        .from(vouchers)
        .innerJoin(rewards, eq(rewards.id, vouchers.rewardId))
        .leftJoin(customers, eq(customers.id, vouchers.customerId))
        .$dynamic(),
    voucherConditions(rewardId, query, today),
    { page, pageSize, sort, order },
  );
}

/** Inserts the codes that are free; answers the ones stored (a taken code is skipped, not an error). */
export async function insertCodes(
  executor: Executor,
  rewardId: string,
  codes: string[],
  origin: 'generated' | 'imported',
  now: Date,
): Promise<string[]> {
  if (codes.length === 0) return [];
  const inserted = await executor
    .insert(vouchers)
    .values(codes.map((code) => ({ rewardId, code, origin, status: 'available' as const, createdAt: now })))
    .onConflictDoNothing({ target: vouchers.code })
    .returning({ code: vouchers.code });
  return inserted.map((row) => row.code);
}

export async function existingCodes(executor: Executor, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const found = await rows<{ code: string }>(
    executor,
    sql`select code from vouchers where code in (${sql.join(
      codes.map((code) => sql`${code}`),
      sql`, `,
    )})`,
  );
  return new Set(found.map((row) => row.code));
}

/** The oldest code waiting for a redemption (the reward row is locked by the caller). */
export async function takeAvailableVoucher(executor: Executor, rewardId: string): Promise<{ id: number; code: string } | null> {
  const [row] = await rows(
    executor,
    sql`select id, code from vouchers where reward_id = ${rewardId} and status = 'available' order by id limit 1 for update skip locked`,
  );
  return row ? { id: Number(row['id']), code: String(row['code']) } : null;
}

export async function issueVoucher(
  executor: Executor,
  voucherId: number,
  values: { customerId: string; entryId: number; issuedAt: Date },
): Promise<void> {
  await executor
    .update(vouchers)
    .set({ status: 'issued', customerId: values.customerId, entryId: values.entryId, issuedAt: values.issuedAt })
    .where(eq(vouchers.id, voucherId));
}

/** A new code issued at once; null when the code was taken (the caller draws another). */
export async function insertIssuedVoucher(
  executor: Executor,
  values: { rewardId: string; code: string; customerId: string; entryId: number; issuedAt: Date },
): Promise<{ id: number; code: string } | null> {
  const [row] = await executor
    .insert(vouchers)
    .values({ ...values, origin: 'redemption', status: 'issued', createdAt: values.issuedAt })
    .onConflictDoNothing({ target: vouchers.code })
    .returning({ id: vouchers.id, code: vouchers.code });
  return row ?? null;
}

export async function countCustomerVouchers(executor: Executor, rewardId: string, customerId: string): Promise<number> {
  const [row] = await rows(
    executor,
    sql`select count(*)::int as n from vouchers where reward_id = ${rewardId} and customer_id = ${customerId} and status <> 'void'`,
  );
  return Number(row?.['n'] ?? 0);
}

/** Codes of a reward waiting for a redemption, and its stock left (null: unlimited). */
export async function stockAndWaiting(executor: Executor, rewardId: string): Promise<{ waiting: number; left: number } | null> {
  const [row] = await rows(
    executor,
    sql`select r.stock, (select count(*) from vouchers v where v.reward_id = r.id and v.status = 'available')::int as waiting
        from rewards r where r.id = ${rewardId}`,
  );
  if (!row || row['stock'] === null || row['stock'] === undefined) return null;
  return { waiting: Number(row['waiting']), left: Number(row['stock']) };
}

export async function decrementStock(executor: Executor, rewardId: string): Promise<void> {
  await executor.execute(sql`update rewards set stock = stock - 1 where id = ${rewardId} and stock is not null`);
}

/** A redemption's voucher voided (by staff, or by the reversal of the redemption): its unit of stock is
 * available again (stock = stock_total - held; unlimited stock stays unlimited). */
export async function incrementStock(executor: Executor, rewardId: string): Promise<void> {
  await executor.execute(sql`update rewards set stock = stock + 1 where id = ${rewardId} and stock is not null`);
}

/** The voucher a redemption's `redeem` entry issued, if any. */
export async function findVoucherOfEntry(executor: Executor, entryId: number): Promise<{ id: number; rewardId: string } | null> {
  const [row] = await rows(executor, sql`select id, reward_id from vouchers where entry_id = ${entryId} order by id limit 1`);
  return row ? { id: Number(row['id']), rewardId: String(row['reward_id']) } : null;
}

/** Vouchers the reward's redemptions hold (issued by a redemption, not void): the stock they took. */
export async function stockTaken(executor: Executor, rewardId: string): Promise<number> {
  const [row] = ((await executor.execute(
    sql`select count(*)::int as n from vouchers where reward_id = ${rewardId} and entry_id is not null and status <> 'void'`,
  )) as unknown as { rows: { n: number }[] }).rows;
  return Number(row?.n ?? 0);
}

export type VoucherForUse = {
  id: number;
  code: string;
  status: 'available' | 'issued' | 'used' | 'void';
  customerId: string | null;
  issuedAt: string | null;
  usedAt: string | null;
  rewardId: string;
  rewardName: string;
  programId: string;
  validFrom: string | null;
  validUntil: string | null;
};

/** A voucher with its reward's window; `lock` takes the voucher row for the rest of the transaction. */
export async function findVoucherByCode(executor: Executor, code: string, options: { lock?: boolean } = {}): Promise<VoucherForUse | null> {
  const [row] = await rows(
    executor,
    sql`select v.id, v.code, v.status, v.customer_id, v.issued_at, v.used_at, r.id as reward_id, r.name as reward_name,
          r.program_id, r.valid_from, r.valid_until
        from vouchers v join rewards r on r.id = v.reward_id where v.code = ${code}
        ${options.lock ? sql`for update of v` : sql``}`,
  );
  if (!row) return null;
  return {
    id: Number(row['id']),
    code: String(row['code']),
    status: row['status'] as VoucherForUse['status'],
    customerId: (row['customer_id'] as string | null) ?? null,
    issuedAt: iso(row['issued_at']),
    usedAt: iso(row['used_at']),
    rewardId: String(row['reward_id']),
    rewardName: String(row['reward_name']),
    programId: String(row['program_id']),
    validFrom: day(row['valid_from']),
    validUntil: day(row['valid_until']),
  };
}

export async function markUsed(executor: Executor, voucherId: number, values: { usedAt: Date; merchantId: string; label: string }) {
  await executor
    .update(vouchers)
    .set({ status: 'used', usedAt: values.usedAt, usedMerchantId: values.merchantId, usedByLabel: values.label })
    .where(eq(vouchers.id, voucherId));
}

export async function lockVoucher(executor: Executor, rewardId: string, voucherId: number) {
  const [row] = await executor
    .select()
    .from(vouchers)
    .where(sql`${vouchers.id} = ${voucherId} and ${vouchers.rewardId} = ${rewardId}`)
    .for('update');
  return row;
}

/**
 * An erased customer's issued (unused) vouchers become void; a redemption's frees its unit of stock,
 * as voidVoucher does. Answers the voided vouchers.
 */
export async function voidIssuedVouchersOf(executor: Executor, customerId: string, at: Date): Promise<{ id: number; rewardId: string }[]> {
  const voided = await rows(
    executor,
    sql`update vouchers set status = 'void', voided_at = ${at}
        where customer_id = ${customerId} and status = 'issued' returning id, reward_id, entry_id`,
  );
  const freed = new Map<string, number>();
  for (const row of voided) {
    if (row['entry_id'] === null) continue;
    const rewardId = String(row['reward_id']);
    freed.set(rewardId, (freed.get(rewardId) ?? 0) + 1);
  }
  for (const [rewardId, count] of freed) {
    await executor.execute(sql`update rewards set stock = stock + ${count} where id = ${rewardId} and stock is not null`);
  }
  return voided.map((row) => ({ id: Number(row['id']), rewardId: String(row['reward_id']) }));
}

export async function markVoid(executor: Executor, voucherId: number, at: Date) {
  await executor.update(vouchers).set({ status: 'void', voidedAt: at }).where(eq(vouchers.id, voucherId));
}

export async function findVoucherById(executor: Executor, voucherId: number, today: string) {
  const [row] = await executor
    .select(voucherSelection(today))
    .from(vouchers)
    .innerJoin(rewards, eq(rewards.id, vouchers.rewardId))
    .leftJoin(customers, eq(customers.id, vouchers.customerId))
    .where(eq(vouchers.id, voucherId));
  return row ? toVoucher(row as VoucherSelected) : null;
}

// ---- exports --------------------------------------------------------------------------------------

export function rewardExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    name: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(rewards.name) },
    program: { header: { it: 'Programma', en: 'Program' }, value: csvCell.text(programs.name) },
    unit: { header: { it: 'Unità', en: 'Unit' }, value: csvCell.label(programs.type, VALUE_LABELS.programType, language) },
    cost: { header: { it: 'Costo', en: 'Cost' }, value: csvCell.integer(rewards.cost) },
    stock: { header: { it: 'Disponibilità', en: 'Stock' }, value: csvCell.integer(rewards.stock) },
    limit: { header: { it: 'Limite per cliente', en: 'Limit per customer' }, value: csvCell.integer(rewards.limitPerCustomer) },
    validFrom: { header: { it: 'Valido dal', en: 'Valid from' }, value: csvCell.date(rewards.validFrom) },
    validUntil: { header: { it: 'Valido fino al', en: 'Valid until' }, value: csvCell.date(rewards.validUntil) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(rewards.status, VALUE_LABELS.rewardStatus, language) },
    createdAt: { header: { it: 'Creato il', en: 'Created at' }, value: csvCell.dateTime(rewards.createdAt, timeZone) },
  };
}

export function rewardExportQuery(executor: Executor, columns: CsvColumns, filter: RewardFilter & Pick<ListRewardsQuery, 'sort' | 'order'>) {
  return executor
    .select(csvSelection(columns))
    .from(rewards)
    .innerJoin(programs, eq(programs.id, rewards.programId))
    .where(rewardConditions(filter))
    .orderBy(...orderFor(rewardList.sorts, filter.sort, filter.order, rewardList.tieBreaker))
    .$dynamic();
}

export function voucherExportColumns(language: Language, timeZone: string, today: string): CsvColumns {
  return {
    code: { header: { it: 'Codice', en: 'Code' }, value: csvCell.text(vouchers.code) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(voucherStatusSql(today), VALUE_LABELS.voucherStatus, language) },
    origin: { header: { it: 'Origine', en: 'Origin' }, value: csvCell.label(vouchers.origin, VALUE_LABELS.voucherOrigin, language) },
    customer: {
      header: { it: 'Cliente', en: 'Customer' },
      // Not a blank cell for an erased customer (their voucher was voided by the erasure): the screen's word.
      value: csvCell.text(
        sql`case when ${customers.status} = 'erased' then ${language === 'it' ? 'Cliente cancellato' : 'Erased customer'} else trim(${customers.firstName} || ' ' || ${customers.lastName}) end`,
      ),
    },
    card: { header: { it: 'Tessera', en: 'Card' }, value: csvCell.text(customers.cardNumber) },
    issuedAt: { header: { it: 'Assegnato il', en: 'Issued at' }, value: csvCell.dateTime(vouchers.issuedAt, timeZone) },
    usedAt: { header: { it: 'Usato il', en: 'Used at' }, value: csvCell.dateTime(vouchers.usedAt, timeZone) },
    createdAt: { header: { it: 'Creato il', en: 'Created at' }, value: csvCell.dateTime(vouchers.createdAt, timeZone) },
  };
}

export function voucherExportQuery(
  executor: Executor,
  rewardId: string,
  columns: CsvColumns,
  filter: VoucherFilter & Pick<ListVouchersQuery, 'sort' | 'order'>,
  today: string,
) {
  const list = voucherList(today);
  return executor
    .select(csvSelection(columns))
    .from(vouchers)
    .innerJoin(rewards, eq(rewards.id, vouchers.rewardId))
    .leftJoin(customers, eq(customers.id, vouchers.customerId))
    .where(voucherConditions(rewardId, filter, today))
    .orderBy(...orderFor(list.sorts, filter.sort, filter.order, list.tieBreaker))
    .$dynamic();
}

/** The names of these rewards (one query). */
export async function rewardNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: rewards.id, name: rewards.name }).from(rewards).where(inArray(rewards.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** For the audit list: these vouchers' reward and code, by id (as text, the audit's). */
export async function findVoucherCodes(executor: Executor, ids: number[]): Promise<Map<string, { rewardId: string; code: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: vouchers.id, rewardId: vouchers.rewardId, code: vouchers.code }).from(vouchers).where(inArray(vouchers.id, ids));
  return new Map(rows.map(({ id, ...voucher }) => [String(id), voucher]));
}
