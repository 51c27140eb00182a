import { sql, type SQL } from 'drizzle-orm';
import { isRebuildable, LEDGER_REBUILD_COMMAND, type IntegrityFigure } from '@sf/contract/integrity';
import type { Database, Executor } from '../../db/client.ts';
import { DEFAULT_BUSINESS_TIME_ZONE } from '../../lib/business-days.ts';

/**
 * The proof of every stored figure (`npm run ledger:verify`, the nightly check, the tests after bulk
 * or concurrent writes; decision record 030). Each check compares what is stored with what its
 * sources say, computed here (the dashboard's and the tiers' computations are the SQL functions of
 * migration 0023, the same ones the rebuild writes), and names the first differences: which figure,
 * which row (day, program, member…), stored vs computed.
 *
 * All checks read ONE snapshot (a repeatable-read, read-only transaction): on a live database a write
 * committing between two checks cannot look like a difference. Each check is one set-based query that
 * returns only the differing rows, so memory does not grow with the data.
 */
export type IntegrityProblem = { figure: IntegrityFigure; text: string };
export type CheckTiming = { figure: IntegrityFigure; ms: number };
export type VerifyResult = { problems: IntegrityProblem[]; timings: CheckTiming[]; counts: { memberships: number; entries: number } };

type Row = Record<string, unknown>;
/** A sixteenth of the ids (by their first hex digit): [lo, hi), hi null for the last. */
type Slice = { lo: string; hi: string | null };
type Check = {
  figure: IntegrityFigure;
  describe: (row: Row) => string;
} & (
  | { query: (limit: number, zone: string) => SQL }
  /** Run per slice of the members' ids: each slice's sort or hash fits in memory (ten million entries do not). */
  | { sliced: (limit: number, zone: string, slice: Slice) => SQL }
  | { run: (tx: Executor, limit: number, zone: string) => Promise<Row[]> }
);

const SLICES: Slice[] = Array.from({ length: 16 }, (_, index) => ({
  lo: `${index.toString(16)}0000000-0000-0000-0000-000000000000`,
  hi: index === 15 ? null : `${(index + 1).toString(16)}0000000-0000-0000-0000-000000000000`,
}));
const inSlice = (column: SQL, slice: Slice) =>
  slice.hi === null ? sql`${column} >= ${slice.lo}::uuid` : sql`${column} >= ${slice.lo}::uuid and ${column} < ${slice.hi}::uuid`;

const rowsOf = async (executor: Executor, statement: SQL) => ((await executor.execute(statement)) as unknown as { rows: Row[] }).rows;

/**
 * The activity days (distinct active customers): computed slice by slice of the customers (sixteen
 * sorts in memory instead of one over every entry) and summed here, then compared with the stored rows.
 */
async function activeCustomersDifferences(tx: Executor, limit: number, zone: string): Promise<Row[]> {
  const key = (row: Row) => `${v(row['program_id'])}|${v(row['day'])}|${v(row['prev_day'])}`;
  const computed = new Map<string, { row: Row; n: number }>();
  for (const slice of SLICES) {
    for (const row of await rowsOf(tx, sql`select day::text as day, prev_day::text as prev_day, program_id, customers
        from dashboard_active_rollups_computed(${zone}, ${slice.lo}::uuid, ${slice.hi}::uuid)`)) {
      const found = computed.get(key(row));
      if (found) found.n += Number(row['customers']);
      else computed.set(key(row), { row, n: Number(row['customers']) });
    }
  }
  const differences: Row[] = [];
  for (const row of await rowsOf(tx, sql`select day::text as day, prev_day::text as prev_day, program_id, sum(customers) as customers
      from dashboard_active_rollups group by 1, 2, 3 having sum(customers) <> 0`)) {
    const expected = computed.get(key(row));
    computed.delete(key(row));
    if (Number(row['customers']) !== (expected?.n ?? 0)) differences.push({ ...row, stored_customers: Number(row['customers']), computed_customers: expected?.n ?? 0 });
  }
  for (const { row, n } of computed.values()) if (n !== 0) differences.push({ ...row, stored_customers: 0, computed_customers: n });
  differences.sort((a, b) => key(a).localeCompare(key(b)));
  return differences.slice(0, limit);
}

const v = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

/**
 * Stored rows (summed over their stripes, decision 019) vs computed rows: both sides stacked and grouped
 * by their key (GROUP BY, unlike a join, matches NULL keys: "no merchant", "no tier"), differing keys
 * only. Zero rows are dropped from the stored side by the caller (a counter that went back to 0).
 */
function compareSets(stored: SQL, computed: SQL, keys: string[], values: string[], limit: number): SQL {
  const keyList = sql.raw(keys.join(', '));
  const sides = (side: 'stored' | 'computed') =>
    sql.raw(values.map((k) => (side === 'stored' ? `${k}::numeric as s_${k}, 0::numeric as c_${k}` : `0::numeric as s_${k}, ${k}::numeric as c_${k}`)).join(', '));
  const sums = sql.raw(values.map((k) => `sum(s_${k}) as stored_${k}, sum(c_${k}) as computed_${k}`).join(', '));
  const differs = sql.raw(values.map((k) => `sum(s_${k}) <> sum(c_${k})`).join(' or '));
  const order = sql.raw(keys.map((_, index) => String(index + 1)).join(', '));
  return sql`select ${keyList}, ${sums} from (
      select ${keyList}, ${sides('stored')} from (${stored}) s
      union all
      select ${keyList}, ${sides('computed')} from (${computed}) c) both_sides
    group by ${keyList} having ${differs} order by ${order} limit ${limit}`;
}

const pair = (row: Row, values: string[]) =>
  `stored ${values.map((k) => `${k} ${v(row[`stored_${k}`])}`).join(', ')}; computed ${values.map((k) => `${k} ${v(row[`computed_${k}`])}`).join(', ')}`;

const CHECKS: Check[] = [
  {
    figure: 'balances',
    query: (limit) => sql`
      select m.id, m.balance, m.stamps, coalesce(s.points, 0) as points, coalesce(s.stamps, 0) as entry_stamps
      from memberships m
      left join (select membership_id, sum(points)::bigint as points, sum(stamps)::bigint as stamps
                 from ledger_entries group by membership_id) s on s.membership_id = m.id
      where m.balance <> coalesce(s.points, 0) or m.stamps <> coalesce(s.stamps, 0) or m.balance < 0 or m.stamps < 0
      limit ${limit}`,
    describe: (row) =>
      `membership ${v(row['id'])}: stored balance ${v(row['balance'])} / stamps ${v(row['stamps'])}, entries sum to ${v(row['points'])} / ${v(row['entry_stamps'])}`,
  },
  {
    figure: 'runningBalances',
    sliced: (limit, _zone, slice) => sql`
      select membership_id, id, balance_after, running_points from (
        select membership_id, id, balance_after, stamps_after,
          sum(points) over w as running_points, sum(stamps) over w as running_stamps
        from ledger_entries where ${inSlice(sql`membership_id`, slice)} window w as (partition by membership_id order by id)) t
      where balance_after <> running_points or stamps_after <> running_stamps
      limit ${limit}`,
    describe: (row) =>
      `entry ${v(row['id'])} (membership ${v(row['membership_id'])}): stored balance after ${v(row['balance_after'])}, running sum ${v(row['running_points'])}`,
  },
  {
    figure: 'lots',
    query: (limit) => sql`
      select m.id, m.balance, coalesce(l.remaining, 0) as remaining from memberships m
      left join (select membership_id, sum(remaining)::bigint as remaining from ledger_lots group by membership_id) l
        on l.membership_id = m.id
      where m.balance <> coalesce(l.remaining, 0)
      limit ${limit}`,
    describe: (row) => `membership ${v(row['id'])}: balance ${v(row['balance'])} but its FIFO lots hold ${v(row['remaining'])}`,
  },
  {
    figure: 'reversals',
    query: (limit) => sql`
      select reverses_id, count(*)::int as n from ledger_entries where reverses_id is not null
      group by reverses_id having count(*) > 1 limit ${limit}`,
    describe: (row) => `entry ${v(row['reverses_id'])} is reversed ${v(row['n'])} times`,
  },
  {
    figure: 'idempotencyKeys',
    query: (limit) => sql`
      select source, idempotency_key, count(*)::int as n from ledger_entries where idempotency_key is not null
      group by source, idempotency_key having count(*) > 1 limit ${limit}`,
    describe: (row) => `idempotency key ${v(row['idempotency_key'])} (${v(row['source'])}) appears ${v(row['n'])} times`,
  },
  {
    figure: 'memberDays',
    sliced: (limit, _zone, slice) =>
      compareSets(
        sql`select membership_id, day, earned_points, purchase_stamps from ledger_member_days
            where (earned_points <> 0 or purchase_stamps <> 0) and ${inSlice(sql`membership_id`, slice)}`,
        sql`select * from ledger_member_days_computed(${slice.lo}::uuid, ${slice.hi}::uuid)`,
        ['membership_id', 'day'],
        ['earned_points', 'purchase_stamps'],
        limit,
      ),
    describe: (row) =>
      `membership ${v(row['membership_id'])}: its day sums for ${v(row['day'])} (UTC) differ from its entries: ${pair(row, ['earned_points', 'purchase_stamps'])}`,
  },
  {
    figure: 'rollupTimeZone',
    query: (_limit, zone) => sql`select time_zone from dashboard_rollup_settings where time_zone <> ${zone}`,
    describe: (row) => `the dashboard's days were cut in ${v(row['time_zone'])}, not in the business time zone`,
  },
  {
    figure: 'dashboardRollups',
    query: (limit, zone) =>
      compareSets(
        sql`select day, program_id, merchant_id, bucket, sum(entries) as entries, sum(points) as points, sum(stamps) as stamps,
              sum(amount_cents) as amount_cents
            from dashboard_rollups group by 1, 2, 3, 4
            having sum(entries) <> 0 or sum(points) <> 0 or sum(stamps) <> 0 or sum(amount_cents) <> 0`,
        sql`select * from dashboard_rollups_computed(${zone})`,
        ['day', 'program_id', 'merchant_id', 'bucket'],
        ['entries', 'points', 'stamps', 'amount_cents'],
        limit,
      ),
    describe: (row) =>
      `dashboard day ${v(row['day'])}, program ${v(row['program_id'])}, merchant ${v(row['merchant_id'])}, ${v(row['bucket'])}: ${pair(row, ['entries', 'points', 'stamps', 'amount_cents'])}`,
  },
  {
    figure: 'customerRollups',
    query: (limit, zone) =>
      compareSets(
        sql`select day, program_id, sum(customers) as customers from dashboard_customer_rollups group by 1, 2 having sum(customers) <> 0`,
        sql`select * from dashboard_customer_rollups_computed(${zone})`,
        ['day', 'program_id'],
        ['customers'],
        limit,
      ),
    describe: (row) =>
      `dashboard ${row['program_id'] === null ? 'new customers' : `new members of program ${v(row['program_id'])}`} on ${v(row['day'])}: ${pair(row, ['customers'])}`,
  },
  {
    figure: 'tierMix',
    query: (limit) =>
      compareSets(
        sql`select program_id, tier, sum(members) as members from dashboard_member_rollups group by 1, 2 having sum(members) <> 0`,
        sql`select * from dashboard_member_rollups_computed()`,
        ['program_id', 'tier'],
        ['members'],
        limit,
      ),
    describe: (row) => `dashboard tier mix, program ${v(row['program_id'])}, tier ${v(row['tier'])}: ${pair(row, ['members'])}`,
  },
  {
    figure: 'activeCustomers',
    run: activeCustomersDifferences,
    describe: (row) =>
      `dashboard activity ${row['program_id'] === null ? 'of customers' : `in program ${v(row['program_id'])}`} on ${v(row['day'])} after ${v(row['prev_day'])}: ${pair(row, ['customers'])}`,
  },
  {
    figure: 'tiers',
    query: (limit, zone) => sql`
      select m.id, m.tier as stored, x.tier as computed
      from ledger_expected_tiers(${zone}) x join memberships m on m.id = x.membership_id
      where m.tier is distinct from x.tier
      order by m.id limit ${limit}`,
    describe: (row) => `membership ${v(row['id'])}: stored tier ${v(row['stored'])}, its program's rule gives ${v(row['computed'])}`,
  },
  {
    figure: 'rewardStock',
    query: (limit) => sql`
      select r.id, r.name, r.stock, r.stock_total, coalesce(t.taken, 0) as taken
      from rewards r
      left join (select reward_id, count(*) as taken from vouchers where entry_id is not null and status <> 'void' group by 1) t
        on t.reward_id = r.id
      where r.stock is distinct from r.stock_total - coalesce(t.taken, 0)
      order by r.id limit ${limit}`,
    describe: (row) =>
      `reward ${v(row['id'])} (${v(row['name'])}): stored stock ${v(row['stock'])}, made available ${v(row['stock_total'])} minus ${v(row['taken'])} vouchers of redemptions`,
  },
  {
    figure: 'consents',
    query: (limit) => sql`
      with latest as (
        select distinct on (customer_id, purpose) customer_id, purpose, granted
        from customer_consents order by customer_id, purpose, at desc, id desc),
      computed as (
        select customer_id,
          coalesce(bool_or(granted) filter (where purpose = 'service'), false) as service,
          coalesce(bool_or(granted) filter (where purpose = 'marketing'), false) as marketing,
          coalesce(bool_or(granted) filter (where purpose = 'profiling'), false) as profiling
        from latest group by 1)
      select c.id, c.service_consent, c.marketing_consent, c.profiling_consent,
        coalesce(x.service, false) as service, coalesce(x.marketing, false) as marketing, coalesce(x.profiling, false) as profiling
      from customers c left join computed x on x.customer_id = c.id
      where c.service_consent <> coalesce(x.service, false) or c.marketing_consent <> coalesce(x.marketing, false)
        or c.profiling_consent <> coalesce(x.profiling, false)
      order by c.id limit ${limit}`,
    describe: (row) =>
      `customer ${v(row['id'])}: stored consents service/marketing/profiling ${v(row['service_consent'])}/${v(row['marketing_consent'])}/${v(row['profiling_consent'])}, ` +
      `latest records ${v(row['service'])}/${v(row['marketing'])}/${v(row['profiling'])}`,
  },
];

/**
 * Reads one snapshot for `work` (its own transaction: never inside a caller's). The sorts and hashes of a
 * large ledger get more memory than a request's.
 */
async function inSnapshot<T>(db: Database, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    await tx.execute(sql`set local work_mem = '256MB'`);
    return work(tx);
  });
}

/**
 * Runs every check in one snapshot; `limit` differences per kind of figure at most. `onCheck` hears
 * each check's time as it ends (the command prints them: the 10M-entry figures are in decision 032).
 */
export async function verifyDerivedFigures(
  db: Database,
  options: { limit?: number; timeZone?: string; onCheck?: (timing: CheckTiming, problems: number) => void | Promise<void> } = {},
): Promise<VerifyResult> {
  const limit = options.limit ?? 20;
  const zone = options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE;
  return inSnapshot(db, async (tx) => {
    const problems: IntegrityProblem[] = [];
    const timings: CheckTiming[] = [];
    for (const check of CHECKS) {
      const started = performance.now();
      let rows: Row[] = [];
      if ('query' in check) rows = await rowsOf(tx, check.query(limit, zone));
      else if ('run' in check) rows = await check.run(tx, limit, zone);
      else {
        for (const slice of SLICES) {
          if (rows.length >= limit) break;
          rows = [...rows, ...(await rowsOf(tx, check.sliced(limit - rows.length, zone, slice)))];
        }
      }
      const timing = { figure: check.figure, ms: performance.now() - started };
      timings.push(timing);
      for (const row of rows) problems.push({ figure: check.figure, text: check.describe(row) });
      await options.onCheck?.(timing, rows.length);
    }
    const [counts] = ((await tx.execute(
      sql`select (select count(*) from memberships)::int as memberships, (select count(*) from ledger_entries)::int as entries`,
    )) as unknown as { rows: { memberships: number; entries: number }[] }).rows;
    return { problems, timings, counts: { memberships: Number(counts?.memberships ?? 0), entries: Number(counts?.entries ?? 0) } };
  });
}

/** The problems as lines (`figure: text`); [] means every stored figure equals its sources. */
export async function verifyLedger(db: Database, options: { limit?: number; timeZone?: string } = {}): Promise<string[]> {
  const { problems } = await verifyDerivedFigures(db, options);
  return problems.map((problem) => `${problem.figure}: ${problem.text}`);
}

/** The command's body: prints the outcome and returns the exit code (0 clean, 1 problems found). */
export async function runLedgerVerify(
  db: Database,
  print: (line: string) => void,
  options: { timeZone?: string; isTimed?: boolean } = {},
): Promise<number> {
  const started = performance.now();
  const result = await verifyDerivedFigures(db, {
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.isTimed ? { onCheck: (timing, found) => print(`  ${timing.figure.padEnd(18)} ${(timing.ms / 1000).toFixed(1).padStart(7)} s  ${found === 0 ? 'ok' : `${found} difference(s)`}`) } : {}),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { memberships, entries } = result.counts;
  if (result.problems.length === 0) {
    print(`ledger:verify OK: ${memberships} memberships, ${entries} entries; balances, lots, day sums, dashboard rollups, tiers, reward stock and consents equal their sources (${seconds} s)`);
    return 0;
  }
  const figures = [...new Set(result.problems.map((problem) => problem.figure))];
  print(`ledger:verify FAILED (${result.problems.length} difference(s) shown, in ${figures.join(', ')}; ${seconds} s):`);
  for (const problem of result.problems) print(`  - ${problem.figure}: ${problem.text}`);
  const rebuildable = figures.filter(isRebuildable);
  if (rebuildable.length > 0) print(`${rebuildable.join(', ')}: derived from their sources, recomputed by \`${LEDGER_REBUILD_COMMAND}\`.`);
  const others = figures.filter((figure) => !isRebuildable(figure));
  if (others.length > 0) print(`${others.join(', ')}: the ledger's own guarantees; nothing rebuilds them: investigate before any write.`);
  return 1;
}
