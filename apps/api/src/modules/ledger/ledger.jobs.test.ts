import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { createJobRunner, enqueueJob } from '../../lib/job-runner.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { createEntry } from './ledger.service.ts';

describe('the background job runner and the daily expiry job', () => {
  let ctx: TestContext;
  let now = new Date('2026-01-10T09:00:00Z');

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false, clock: { now: () => now } });
  });
  afterAll(async () => ctx?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;

  it('queues one expiry job per business day, runs it once across two runners, and writes off due lots', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1, expiry: { policy: 'afterDays', days: 5 } });
    await createEntry(
      { db: ctx.app.db, clock: ctx.app.clock, timeZone: 'Europe/Rome' },
      { id: null, label: 'test', audit: { id: null, email: 'test' } },
      { customerId: fx.customerIds[0]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 4200 },
      randomUUID(),
    );
    now = new Date('2026-01-16T09:00:00Z');
    const one = startBackgroundJobs(ctx.app, { isAutomatic: false });
    const two = startBackgroundJobs(ctx.app, { isAutomatic: false });
    // Other modules queue their own jobs too (bonuses): this test watches the expiry job.
    const [a, b] = await Promise.all([one.tick(), two.tick()]);
    // One expiry job and the other modules' daily jobs (the retention purge), each run once.
    const [daily] = await rows<{ n: number }>(sql`select count(*)::int as n from jobs`);
    expect(a + b).toBe(daily?.n);
    expect(await one.tick()).toBe(0);
    const jobs = await rows<{ dedupe_key: string; status: string; result: unknown }>(sql`select dedupe_key, status, result from jobs where kind = 'ledger.expire'`);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ dedupe_key: 'ledger.expire:2026-01-16', status: 'done' });
    const expired = await rows<{ points: number }>(sql`select points from ledger_entries where kind = 'expire'`);
    expect(expired.map((row) => row.points)).toEqual([-42]);
    await one.stop();
    await two.stop();
  });

  it('retries a failing job later and takes over a job whose runner died (lease expired)', async () => {
    let calls = 0;
    const runner = createJobRunner({
      db: ctx.app.db,
      log: ctx.app.log,
      intervalMs: 1000,
      isAutomatic: false,
      handlers: {
        flaky: async () => {
          calls += 1;
          if (calls === 1) throw new Error('first attempt fails');
          return { calls };
        },
      },
    });
    await enqueueJob(ctx.app.db, { kind: 'flaky', dedupeKey: 'flaky:1' });
    await runner.tick();
    const [failed] = await rows<{ status: string; attempts: number; last_error: string }>(sql`select status, attempts, last_error from jobs where dedupe_key = 'flaky:1'`);
    expect(failed).toMatchObject({ status: 'queued', attempts: 1, last_error: 'first attempt fails' });
    // Due again (as if its back-off had passed), and a "running" job whose lease ran out.
    await ctx.app.db.execute(sql`update jobs set run_at = now() - interval '1 second' where dedupe_key = 'flaky:1'`);
    await enqueueJob(ctx.app.db, { kind: 'flaky', dedupeKey: 'flaky:2' });
    await ctx.app.db.execute(sql`update jobs set status = 'running', locked_until = now() - interval '1 second' where dedupe_key = 'flaky:2'`);
    expect(await runner.tick()).toBe(2);
    const done = await rows<{ status: string }>(sql`select status from jobs where kind = 'flaky' order by id`);
    expect(done.map((row) => row.status)).toEqual(['done', 'done']);
    await runner.stop();
  });

  it('gives a long job kind its own lease, so that no other process takes it over while it runs', async () => {
    let lease = 0;
    const runner = createJobRunner({
      db: ctx.app.db,
      log: ctx.app.log,
      intervalMs: 1000,
      isAutomatic: false,
      leaseSeconds: { 'slow-check': 7200 },
      handlers: {
        'slow-check': async () => {
          const [row] = await rows<{ seconds: number }>(
            sql`select extract(epoch from locked_until - now())::int as seconds from jobs where dedupe_key = 'slow-check:1'`,
          );
          lease = Number(row?.seconds);
          return null;
        },
      },
    });
    await enqueueJob(ctx.app.db, { kind: 'slow-check', dedupeKey: 'slow-check:1' });
    expect(await runner.tick()).toBe(1);
    expect(lease).toBeGreaterThan(7000);
    await runner.stop();
  });
});
