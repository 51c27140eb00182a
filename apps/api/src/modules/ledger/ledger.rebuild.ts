import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';

/**
 * `npm run ledger:rebuild` (decision record 030): recomputes every figure that is derived from its
 * sources — members' tiers, consents' current state, reward stock, the members' day sums, the
 * dashboard's rollups — in ONE transaction, with the definitions `ledger:verify` checks against
 * (migration 0023). Idempotent: on consistent data it changes no tier, consent or stock, and writes the
 * rollups back as they were. The ledger itself (entries, balances, lots) is never touched.
 *
 * Safe while the API runs: it first takes the locks the rollups' own rebuild takes, in the order the
 * ledger's writers take theirs (a member's row before its entries), so that no writer can be half-way
 * through a write it counts. Writers then wait until it commits (seconds on the demo data; decision
 * 030 gives the time on 10M entries). It waits at most LOCK_WAIT for each lock — shorter than
 * PostgreSQL's deadlock check — so if it ever meets a writer waiting for it, it is the rebuild that
 * gives up (and tries again), never the writer.
 */
export type RebuildReport = { tiers: number; consents: number; rewardStock: number; seconds: number; attempts: number };

const LOCK_WAIT = '500ms';
const ATTEMPTS = 20;

async function count(executor: Executor, statement: ReturnType<typeof sql>): Promise<number> {
  const result = (await executor.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
  return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
}

async function rebuildOnce(db: Database, timeZone: string): Promise<Omit<RebuildReport, 'seconds' | 'attempts'>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_WAIT}'`));
    await tx.execute(sql`set local work_mem = '256MB'`);
    // Members first (a writer locks its member's row before it writes entries), then what they read.
    await tx.execute(sql`lock table memberships in exclusive mode`);
    await tx.execute(sql`lock table ledger_entries, customer_consents, vouchers in share mode`);
    await tx.execute(sql`lock table customers, rewards in exclusive mode`);
    const tiers = await count(tx, sql`select ledger_retier(${timeZone}) as n`);
    // The tier changes' rollup triggers (deferred) fire now, before the rollups are recomputed below.
    await tx.execute(sql`set constraints all immediate`);
    const consents = await count(
      tx,
      sql`with latest as (
            select distinct on (customer_id, purpose) customer_id, purpose, granted
            from customer_consents order by customer_id, purpose, at desc, id desc),
          computed as (
            select c.id,
              coalesce(bool_or(l.granted) filter (where l.purpose = 'service'), false) as service,
              coalesce(bool_or(l.granted) filter (where l.purpose = 'marketing'), false) as marketing,
              coalesce(bool_or(l.granted) filter (where l.purpose = 'profiling'), false) as profiling
            from customers c left join latest l on l.customer_id = c.id group by c.id),
          changed as (
            update customers c set service_consent = x.service, marketing_consent = x.marketing, profiling_consent = x.profiling
            from computed x
            where x.id = c.id and (c.service_consent <> x.service or c.marketing_consent <> x.marketing or c.profiling_consent <> x.profiling)
            returning 1)
          select count(*) as n from changed`,
    );
    const rewardStock = await count(
      tx,
      sql`with taken as (
            select reward_id, count(*) as n from vouchers where entry_id is not null and status <> 'void' group by 1),
          changed as (
            update rewards r set stock = r.stock_total - coalesce(t.n, 0)
            from rewards x left join taken t on t.reward_id = x.id
            where x.id = r.id and r.stock_total is not null and r.stock is distinct from r.stock_total - coalesce(t.n, 0)
              and r.stock_total - coalesce(t.n, 0) >= 0
            returning 1)
          select count(*) as n from changed`,
    );
    await tx.execute(sql`select ledger_member_days_rebuild()`);
    await tx.execute(sql`select dashboard_rollups_rebuild(${timeZone})`);
    return { tiers, consents, rewardStock };
  });
}

const isLockTimeout = (error: unknown) => {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '55P03' || code === '40P01';
};

export async function rebuildDerivedFigures(db: Database, options: { timeZone: string; log?: (line: string) => void }): Promise<RebuildReport> {
  const started = performance.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const report = await rebuildOnce(db, options.timeZone);
      return { ...report, seconds: (performance.now() - started) / 1000, attempts: attempt };
    } catch (error) {
      if (!isLockTimeout(error) || attempt >= ATTEMPTS) throw error;
      options.log?.(`ledger:rebuild: writers busy, trying again (${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
