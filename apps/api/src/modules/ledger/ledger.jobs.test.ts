import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { createEntry } from './ledger.service.ts';

describe('the daily expiry job', () => {
  let ctx: TestContext;
  let now = new Date('2026-01-10T09:00:00Z');

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false, clock: { now: () => now } });
  });
  afterAll(async () => ctx?.close());

  const rows = <T>(query: ReturnType<typeof sql>) => selectRows<T>(ctx.app, query);

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
});
