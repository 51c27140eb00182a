import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { executorOn, poolOf } from '../../db/batch.ts';
import { freshDatabase, testDatabaseKind } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { addDays, localDate } from '../../lib/business-days.ts';
import { createEntry, type LedgerCaller, type LedgerDeps } from '../ledger/ledger.service.ts';
import { foldRollupStripes } from './dashboard.repository.ts';

/**
 * The rollups' stripes (migration 0016, decision 019): writers on different connections add to
 * different rows, so one holding its row does not hold up the other; every figure stays the sum over
 * the stripes; the fold merges past days into one row per key without changing a sum, and gives up
 * rather than keep a writer waiting. Real PostgreSQL only: PGlite has one backend, hence one stripe
 * (the figures test covers the sums there).
 */
describe.skipIf(testDatabaseKind === 'pglite')('dashboard rollup stripes (real PostgreSQL)', () => {
  const TZ = 'Europe/Rome';
  const caller: LedgerCaller = { id: null, label: 'stripes-test', audit: { id: null, email: 'stripes-test' } };
  let handle: DatabaseHandle;
  let drop = async () => undefined as void;
  let fx: LedgerFixture;
  const clients: pg.Client[] = [];
  const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
  const rows = async <T,>(db: Database, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  /** A connection of its own whose stripe is not among `taken` (backend ids modulo 16 may repeat). */
  async function connectionOutside(taken: Set<number>): Promise<{ client: pg.Client; stripe: number; deps: LedgerDeps }> {
    const url = poolOf(handle.db)!.options.connectionString!;
    for (let attempt = 0; attempt < 64; attempt += 1) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      const stripe = Number((await client.query<{ s: number }>('select dashboard_rollup_stripe() as s')).rows[0]!.s);
      if (!taken.has(stripe)) {
        // A plain client (not a pool): the ledger writes each request in its own transaction on it.
        const db = executorOn(client as unknown as pg.PoolClient);
        return { client, stripe, deps: { db, clock: { now: () => threeDaysAgo }, timeZone: TZ } };
      }
    }
    throw new Error('no connection on another stripe');
  }

  const purchase = (deps: LedgerDeps, customerId: string, amountCents: number) =>
    createEntry(deps, caller, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents }, randomUUID());

  /** Every rollup figure summed over its stripes, per key: what the dashboard reads. */
  const sums = () =>
    rows<Record<string, unknown>>(
      handle.db,
      sql`select * from (
            select 'entries' as t, day::text, program_id::text, merchant_id::text as k, bucket,
              sum(entries)::int as a, sum(points)::int as b, sum(stamps)::int as c, sum(amount_cents)::int as d
            from dashboard_rollups group by 1, 2, 3, 4, 5
            union all select 'customers', day::text, program_id::text, null, null, sum(customers)::int, 0, 0, 0
            from dashboard_customer_rollups group by 1, 2, 3
            union all select 'active', day::text, program_id::text, prev_day::text, null, sum(customers)::int, 0, 0, 0
            from dashboard_active_rollups group by 1, 2, 3, 4
            union all select 'tiers', null, program_id::text, tier, null, sum(members)::int, 0, 0, 0
            from dashboard_member_rollups group by 1, 2, 3, 4) s
          where a <> 0 or b <> 0 or c <> 0 or d <> 0
          order by 1, 2, 3, 4, 5`,
    );

  beforeAll(async () => {
    const fresh = await freshDatabase({ poolSize: 4 });
    handle = fresh.handle;
    drop = async () => {
      for (const client of clients) await client.end().catch(() => undefined);
      await handle.close();
      await fresh.drop();
    };
    fx = await createLedgerFixture(handle.db, { customers: 3 });
  });
  afterAll(async () => drop());

  it('lets a purchase commit while another connection holds its rollup row; the fold keeps every sum and gives up rather than wait', async () => {
    const a = await connectionOutside(new Set());
    const b = await connectionOutside(new Set([a.stripe]));
    const [first, second, third] = fx.customerIds as [string, string, string];
    await purchase(a.deps, first, 1500);
    await purchase(b.deps, second, 2500);
    const day = localDate(threeDaysAgo, TZ);
    const purchaseRow = sql`day = ${day} and program_id = ${fx.pointsProgramId} and merchant_id is null and bucket = 'earn:purchase'`;
    const stripes = await rows<{ stripe: number; entries: number; points: number }>(
      handle.db,
      sql`select stripe, entries::int, points::int from dashboard_rollups where ${purchaseRow} order by entries, stripe`,
    );
    expect(stripes.map((row) => row.stripe).sort()).toEqual([a.stripe, b.stripe].sort());
    expect(stripes.reduce((sum, row) => sum + row.points, 0)).toBe(15 + 25);

    // A holds its row, as a writer does from its commit's trigger to the end of its WAL flush.
    await a.client.query('begin');
    await a.client.query(`select 1 from dashboard_rollups where stripe = $1 and bucket = 'earn:purchase' for update`, [a.stripe]);
    const waited = Promise.race([
      purchase(b.deps, third, 3500).then(() => 'committed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3_000)),
    ]);
    expect(await waited).toBe('committed');
    // The fold needs A's row too: it gives up after its 50 ms lock timeout, and nothing of it stays.
    const before = await sums();
    const started = Date.now();
    await expect(foldRollupStripes(handle.db, addDays(localDate(new Date(), TZ), -1))).rejects.toMatchObject({ cause: { code: '55P03' } });
    expect(Date.now() - started).toBeLessThan(1_000);
    await a.client.query('commit');
    expect(await sums()).toEqual(before);

    // With nobody holding a row: one row per key in stripe 0, the same sums; a second fold has nothing to do.
    expect(await foldRollupStripes(handle.db, addDays(localDate(new Date(), TZ), -1))).toBeGreaterThan(0);
    const folded = await rows<{ stripe: number; entries: number; points: number }>(
      handle.db,
      sql`select stripe, entries::int, points::int from dashboard_rollups where ${purchaseRow}`,
    );
    expect(folded).toEqual([{ stripe: 0, entries: 3, points: 15 + 25 + 35 }]);
    const leftInStripes = await rows<{ n: number }>(
      handle.db,
      sql`select (select count(*) from dashboard_rollups where stripe <> 0 and day < ${localDate(new Date(), TZ)})
            + (select count(*) from dashboard_active_rollups where stripe <> 0 and day < ${localDate(new Date(), TZ)})
            + (select count(*) from dashboard_customer_rollups where stripe <> 0 and day < ${localDate(new Date(), TZ)}) as n`,
    );
    expect(Number(leftInStripes[0]!.n)).toBe(0);
    expect(await sums()).toEqual(before);
    expect(await foldRollupStripes(handle.db, addDays(localDate(new Date(), TZ), -1))).toBe(0);

    // And the sums are the ledger's: rebuilding from the source tables gives the same.
    await handle.db.execute(sql`select dashboard_rollups_rebuild(${TZ})`);
    expect(await sums()).toEqual(before);
  });
});
