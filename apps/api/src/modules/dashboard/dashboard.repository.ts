import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';

/** The dashboard's SQL over the rollups (migrations 0007 and 0016, decision record 019); every read sums stripes. */

type Row = Record<string, unknown>;

async function rows<T = Row>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const num = (value: unknown): number => Number(value ?? 0);
const day = (value: unknown): string => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

export type PeriodFilter = {
  /** Business days, inclusive. */
  from: string;
  to: string;
  /** The instants the period starts and ends (exclusive) in the business time zone. */
  start: Date;
  end: Date;
  programId: string | null;
  merchantId: string | null;
};

const filterOf = (filter: PeriodFilter, options: { merchant: boolean } = { merchant: true }): SQL =>
  sql.join(
    [
      sql`true`,
      ...(filter.programId ? [sql`program_id = ${filter.programId}`] : []),
      ...(options.merchant && filter.merchantId ? [sql`merchant_id = ${filter.merchantId}`] : []),
    ],
    sql` and `,
  );

/** The zone the rollups' days were cut in; rebuilds them in `timeZone` when it differs. */
export async function ensureRollupTimeZone(executor: Executor, timeZone: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select time_zone from dashboard_rollup_settings`);
  if (row?.['time_zone'] === timeZone) return false;
  await executor.execute(sql`select dashboard_rollups_rebuild(${timeZone})`);
  return true;
}

export type BucketDay = { day: string; bucket: string; entries: number; points: number; stamps: number };

/** Sums per day and bucket (kind:source) in the period. */
export async function bucketsByDay(executor: Executor, filter: PeriodFilter): Promise<BucketDay[]> {
  const result = await rows(
    executor,
    sql`select day, bucket, sum(entries) as entries, sum(points) as points, sum(stamps) as stamps
        from dashboard_rollups
        where day between ${filter.from} and ${filter.to} and ${filterOf(filter)}
        group by day, bucket`,
  );
  return result.map((r) => ({ day: day(r['day']), bucket: String(r['bucket']), entries: num(r['entries']), points: num(r['points']), stamps: num(r['stamps']) }));
}

/** Which rollup buckets (`kind:source`) a ledger list's kind/source filter covers. */
export type BucketFilter = { kind?: string | undefined; source?: string | undefined };

function bucketCondition(filter: BucketFilter): SQL {
  const source = filter.source ?? '%';
  if (!filter.kind) return sql`bucket like ${`%:${source}`}`;
  // A reversal's bucket names the kind it reverses: reversal_earn:purchase.
  if (filter.kind === 'reversal') return sql`bucket like ${`reversal_%:${source}`}`;
  return sql`bucket like ${`${filter.kind}:${source}`}`;
}

/** Entries, points and stamps of the rollups over whole days (the ledger list's totals beyond its count cap). */
export async function bucketTotals(
  executor: Executor,
  filter: { from: string | null; to: string | null; programId: string | null; merchantId: string | null } & BucketFilter,
): Promise<{ entries: number; points: number; stamps: number }> {
  const [row] = await rows(
    executor,
    sql`select coalesce(sum(entries), 0) as entries, coalesce(sum(points), 0) as points, coalesce(sum(stamps), 0) as stamps
        from dashboard_rollups
        where ${bucketCondition(filter)}
          ${filter.from ? sql`and day >= ${filter.from}` : sql``}
          ${filter.to ? sql`and day <= ${filter.to}` : sql``}
          ${filter.programId ? sql`and program_id = ${filter.programId}` : sql``}
          ${filter.merchantId ? sql`and merchant_id = ${filter.merchantId}` : sql``}`,
  );
  return { entries: num(row?.['entries']), points: num(row?.['points']), stamps: num(row?.['stamps']) };
}

/** Customers (program: its members) registered between two business days (either may be open). */
export async function joinedTotal(executor: Executor, filter: { from: string | null; to: string | null; programId: string | null }): Promise<number> {
  const [row] = await rows(
    executor,
    sql`select coalesce(sum(customers), 0) as n from dashboard_customer_rollups
        where ${filter.programId ? sql`program_id = ${filter.programId}` : sql`program_id is null`}
          ${filter.from ? sql`and day >= ${filter.from}` : sql``} ${filter.to ? sql`and day <= ${filter.to}` : sql``}`,
  );
  return num(row?.['n']);
}

/** Distinct customers (program: members) active between two business days (migration 0023). */
export async function activeTotal(executor: Executor, filter: { from: string; to: string; programId: string | null }): Promise<number> {
  const [row] = await rows(
    executor,
    sql`select coalesce(sum(customers), 0) as n from dashboard_active_rollups
        where ${filter.programId ? sql`program_id = ${filter.programId}` : sql`program_id is null`}
          and day between ${filter.from} and ${filter.to} and (prev_day is null or prev_day < ${filter.from})`,
  );
  return num(row?.['n']);
}

/** Every entry's points up to the end of the period (program filter only: balances have no merchant). */
export async function outstandingAt(executor: Executor, filter: PeriodFilter): Promise<number> {
  const [row] = await rows(
    executor,
    sql`select coalesce(sum(points), 0) as points from dashboard_rollups where day <= ${filter.to} and ${filterOf(filter, { merchant: false })}`,
  );
  return num(row?.['points']);
}

const ISSUED = sql`(bucket like 'earn:%')`;
/** Purchases registered (a later reversal does not unregister one; it takes its points back). */
const PURCHASE_COUNT = sql`(case when bucket = 'earn:purchase' then entries else 0 end)`;

export async function topMerchants(executor: Executor, filter: PeriodFilter, limit = 5) {
  const result = await rows(
    executor,
    sql`select r.merchant_id, coalesce(m.sign_name, m.legal_name) as name, r.points_issued, r.purchases
        from (select merchant_id, coalesce(sum(points) filter (where ${ISSUED}), 0) as points_issued, sum(${PURCHASE_COUNT}) as purchases
              from dashboard_rollups
              where day between ${filter.from} and ${filter.to} and merchant_id is not null and ${filterOf(filter)}
              group by merchant_id
              order by 2 desc, 3 desc, merchant_id
              limit ${limit}) r
        join merchants m on m.id = r.merchant_id
        order by r.points_issued desc, r.purchases desc, r.merchant_id`,
  );
  return result.map((r) => ({ merchantId: String(r['merchant_id']), name: String(r['name']), pointsIssued: num(r['points_issued']), purchases: num(r['purchases']) }));
}

/**
 * The distinct customers with a movement of their own (`dashboard_counts_as_activity`) at the merchant in
 * the period, read live from the ledger's merchant index: the activity rollups have no merchant, and one
 * per merchant would add a row per member's first movement of a day at each merchant to every write.
 * Its cost grows with the merchant's entries in the period, not with the ledger.
 */
function activeAtMerchant(filter: PeriodFilter): SQL {
  return sql`(select count(distinct e.customer_id) from ledger_entries e
    where e.merchant_id = ${filter.merchantId} and e.created_at >= ${filter.start} and e.created_at < ${filter.end}
      and dashboard_counts_as_activity(e.kind, e.source)
      ${filter.programId ? sql`and e.program_id = ${filter.programId}` : sql``})`;
}

/**
 * Customers (program: its members) by the day they joined, up to the period's end and within it; the
 * distinct customers (program: members) with at least one movement of their own in the period (the
 * activity days whose previous activity day is before the period, migration 0023; with a merchant, at
 * that merchant); active merchants.
 */
export async function customerFigures(executor: Executor, filter: PeriodFilter) {
  const program = filter.programId ? sql`program_id = ${filter.programId}` : sql`program_id is null`;
  const [row] = await rows(
    executor,
    sql`select
          (select coalesce(sum(customers), 0) from dashboard_customer_rollups where ${program} and day <= ${filter.to}) as total,
          (select coalesce(sum(customers), 0) from dashboard_customer_rollups where ${program} and day between ${filter.from} and ${filter.to}) as new,
          ${filter.merchantId ? activeAtMerchant(filter) : sql`(select coalesce(sum(customers), 0) from dashboard_active_rollups
            where ${program} and day between ${filter.from} and ${filter.to} and (prev_day is null or prev_day < ${filter.from}))`} as active,
          (select count(*) from merchants m where m.status = 'active'
            ${filter.programId ? sql`and exists (select 1 from program_merchants pm where pm.merchant_id = m.id and pm.program_id = ${filter.programId})` : sql``}
            ${filter.merchantId ? sql`and m.id = ${filter.merchantId}` : sql``}) as active_merchants`,
  );
  return {
    customersTotal: num(row?.['total']),
    customersNew: num(row?.['new']),
    customersActive: num(row?.['active']),
    activeMerchants: num(row?.['active_merchants']),
  };
}

export async function tierMix(executor: Executor, filter: PeriodFilter) {
  const result = await rows(
    executor,
    sql`select tier, sum(members) as members from dashboard_member_rollups
        ${filter.programId ? sql`where program_id = ${filter.programId}` : sql``}
        group by tier having sum(members) <> 0 order by tier nulls first`,
  );
  return result.map((r) => ({ tier: r['tier'] === null ? null : String(r['tier']), members: num(r['members']) }));
}

/**
 * Rewards by vouchers issued in the period (issue 9's tables); with a merchant, the vouchers whose
 * redemption was made there (its ledger entry's merchant).
 */
export async function topRewards(executor: Executor, filter: PeriodFilter, limit = 5) {
  const result = await rows(
    executor,
    sql`select r.id, r.name, p.name as program_name, count(*) as vouchers
        from vouchers v join rewards r on r.id = v.reward_id join programs p on p.id = r.program_id
        where v.issued_at >= ${filter.start} and v.issued_at < ${filter.end} and v.status <> 'void'
          ${filter.programId ? sql`and r.program_id = ${filter.programId}` : sql``}
          ${filter.merchantId ? sql`and exists (select 1 from ledger_entries e where e.id = v.entry_id and e.merchant_id = ${filter.merchantId})` : sql``}
        group by r.id, r.name, p.name
        order by 4 desc, r.name, r.id
        limit ${limit}`,
  );
  return result.map((r) => ({ rewardId: String(r['id']), name: String(r['name']), programName: String(r['program_name']), vouchers: num(r['vouchers']) }));
}

/** Social-action proofs waiting for a decision now. */
export async function pendingApprovals(executor: Executor, filter: PeriodFilter): Promise<number> {
  const [row] = await rows(
    executor,
    sql`select count(*) as n from social_proofs where status = 'pending'
        ${filter.programId ? sql`and program_id = ${filter.programId}` : sql``}
        ${filter.merchantId ? sql`and merchant_id = ${filter.merchantId}` : sql``}`,
  );
  return num(row?.['n']);
}

/** Open privacy requests due before `until` (overdue included), soonest first. */
export async function privacyDeadlines(executor: Executor, until: Date, limit = 5) {
  const [count] = await rows(
    executor,
    sql`select count(*) as n from privacy_requests where status in ('open', 'in_progress') and due_at < ${until}`,
  );
  const items = await rows(
    executor,
    sql`select id, kind, due_at from privacy_requests where status in ('open', 'in_progress') and due_at < ${until}
        order by due_at, id limit ${limit}`,
  );
  return {
    count: num(count?.['n']),
    items: items.map((r) => ({ id: String(r['id']), kind: String(r['kind']), dueAt: r['due_at'] instanceof Date ? r['due_at'] : new Date(String(r['due_at'])) })),
  };
}

/**
 * Merges the rollups' stripes of the days before `before` into one row per key (migration 0016), and
 * says how many rows it wrote. It waits at most 50 ms for a row a writer holds, then gives up (and
 * is run again later): shorter than PostgreSQL's deadlock check (1 s), so if the two ever wait for
 * each other it is the fold that fails, never the writer's ledger transaction.
 */
export async function foldRollupStripes(db: Database, before: string): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '50ms'`);
    const [row] = await rows(tx, sql`select dashboard_rollups_fold(${before}::date) as folded`);
    return num(row?.['folded']);
  });
}
