import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * The ledger's proof (`npm run ledger:verify`): every stored balance and stamps count equals the sum
 * of its entries, every entry's running balance follows from the one before, the FIFO lots hold
 * exactly the balance, no entry is reversed twice and no (source, idempotency key) appears twice.
 * Returns one line per problem; [] means clean.
 */
export async function verifyLedger(db: Executor, options: { limit?: number } = {}): Promise<string[]> {
  const limit = options.limit ?? 20;
  const query = async (statement: ReturnType<typeof sql>) =>
    ((await db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const problems: string[] = [];

  for (const row of await query(sql`
    select m.id, m.balance, m.stamps, coalesce(s.points, 0) as points, coalesce(s.stamps, 0) as entry_stamps
    from memberships m
    left join (select membership_id, sum(points)::bigint as points, sum(stamps)::bigint as stamps
               from ledger_entries group by membership_id) s on s.membership_id = m.id
    where m.balance <> coalesce(s.points, 0) or m.stamps <> coalesce(s.stamps, 0)
    limit ${limit}`)) {
    problems.push(
      `membership ${row['id']}: stored balance ${row['balance']} / stamps ${row['stamps']}, entries sum to ${row['points']} / ${row['entry_stamps']}`,
    );
  }
  for (const row of await query(sql`
    select membership_id, id from (
      select membership_id, id, balance_after, stamps_after,
        sum(points) over w as running_points, sum(stamps) over w as running_stamps
      from ledger_entries window w as (partition by membership_id order by id)) t
    where balance_after <> running_points or stamps_after <> running_stamps
    limit ${limit}`)) {
    problems.push(`entry ${row['id']} (membership ${row['membership_id']}): running balance does not follow from the entries before it`);
  }
  for (const row of await query(sql`
    select m.id, m.balance, coalesce(l.remaining, 0) as remaining from memberships m
    left join (select membership_id, sum(remaining)::bigint as remaining from ledger_lots group by membership_id) l
      on l.membership_id = m.id
    where m.balance <> coalesce(l.remaining, 0)
    limit ${limit}`)) {
    problems.push(`membership ${row['id']}: balance ${row['balance']} but its FIFO lots hold ${row['remaining']}`);
  }
  for (const row of await query(sql`
    select reverses_id, count(*)::int as n from ledger_entries where reverses_id is not null
    group by reverses_id having count(*) > 1 limit ${limit}`)) {
    problems.push(`entry ${row['reverses_id']} is reversed ${row['n']} times`);
  }
  for (const row of await query(sql`
    select source, idempotency_key, count(*)::int as n from ledger_entries where idempotency_key is not null
    group by source, idempotency_key having count(*) > 1 limit ${limit}`)) {
    problems.push(`idempotency key ${row['idempotency_key']} (${row['source']}) appears ${row['n']} times`);
  }
  // The members' day sums (what a write's rules read, migration 0015) equal the entries they sum.
  for (const row of await query(sql`
    with sums as (
      select membership_id, (created_at at time zone 'UTC')::date as day,
        coalesce(sum(points) filter (where kind = 'earn' or (kind = 'reversal' and source not in ('manual', 'system'))), 0) as earned,
        coalesce(sum(stamps) filter (where kind = 'earn' and source = 'purchase'), 0) as stamps
      from ledger_entries group by 1, 2)
    select coalesce(s.membership_id, d.membership_id) as membership_id, coalesce(s.day, d.day)::text as day
    from (select * from sums where earned <> 0 or stamps <> 0) s
    full join (select * from ledger_member_days where earned_points <> 0 or purchase_stamps <> 0) d
      on d.membership_id = s.membership_id and d.day = s.day
    where s.earned is distinct from d.earned_points or s.stamps is distinct from d.purchase_stamps
    limit ${limit}`)) {
    problems.push(`membership ${row['membership_id']}: its day sums for ${row['day']} differ from its entries`);
  }
  for (const row of await query(sql`select id, balance, stamps from memberships where balance < 0 or stamps < 0 limit ${limit}`)) {
    problems.push(`membership ${row['id']} is negative: ${row['balance']} points, ${row['stamps']} stamps`);
  }
  return problems;
}

/** The command's body: prints the outcome and returns the exit code (0 clean, 1 problems found). */
export async function runLedgerVerify(db: Executor, print: (line: string) => void): Promise<number> {
  const problems = await verifyLedger(db);
  const [counts] = ((await db.execute(
    sql`select (select count(*) from memberships)::int as memberships, (select count(*) from ledger_entries)::int as entries`,
  )) as unknown as { rows: { memberships: number; entries: number }[] }).rows;
  if (problems.length === 0) {
    print(`ledger:verify OK: ${counts?.memberships ?? 0} memberships, ${counts?.entries ?? 0} entries, balances equal their entries`);
    return 0;
  }
  print(`ledger:verify FAILED (${problems.length} problem(s) shown):`);
  for (const problem of problems) print(`  - ${problem}`);
  return 1;
}
