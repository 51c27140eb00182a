import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Dashboard } from '@sf/contract/dashboard';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { checkIntegrity, VERIFY_JOB } from './ledger-integrity.service.ts';
import { rebuildDerivedFigures } from './ledger.rebuild.ts';
import { createEntry } from './ledger.service.ts';

/**
 * The nightly check in production (issue 25): the job runs the verifier once per business day; what it
 * finds wrong is in the audit log and on the admins' dashboard ("Integrità dei dati": which figure,
 * since when, how to rebuild it) until a check finds it right again.
 */
const TZ = 'Europe/Rome';
type Row = Record<string, unknown>;

describe('the nightly integrity check', () => {
  let ctx: TestContext;
  let fx: LedgerFixture;
  // Three days ago in real time: the next 04:00 (business time) has passed for the database.
  const clock = { now: new Date(Date.now() - 3 * 86_400_000) };
  const rows = async (query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const runJobs = async () => {
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
  };
  const dashboard = async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: await ctx.tokenFor('admin@demo.test') });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Dashboard;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ clock: { now: () => clock.now } });
    fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    await createEntry(
      { db: ctx.app.db, clock: { now: () => clock.now }, timeZone: TZ },
      { id: null, label: 'test', audit: { id: null, email: 'test' } },
      { customerId: fx.customerIds[0]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 2500, merchantId: fx.merchantId },
      randomUUID(),
    );
  });
  afterAll(async () => ctx?.close());

  it('runs once a day, and on right figures leaves no finding and no audit record', async () => {
    await runJobs();
    await runJobs();
    const jobs = await rows(sql`select dedupe_key, status, result from jobs where kind = ${VERIFY_JOB}`);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'done', result: { failing: [], problems: 0 } });
    expect((await dashboard()).integrity).toEqual([]);
    expect(await rows(sql`select 1 from audit_log where action like 'ledger.integrity.%'`)).toEqual([]);
  });

  it('records a stored figure changed by hand in the audit log and on the dashboard, with the day it was first seen', async () => {
    await ctx.app.db.execute(sql`update dashboard_rollups set points = points + 100 where bucket = 'earn:purchase'`);
    const firstNight = new Date(clock.now);
    clock.now = new Date(clock.now.getTime() + 86_400_000);
    await runJobs();
    const [audit] = await rows(sql`select actor_email, entity_type, after from audit_log where action = 'ledger.integrity.mismatch'`);
    expect(audit).toMatchObject({ actor_email: 'system', entity_type: 'ledger', after: { dashboardRollups: { problems: 1 } } });
    expect(JSON.stringify(audit!['after'])).toMatch(/earn:purchase: stored entries 1, points 125, stamps 0, amount_cents 2500; computed entries 1, points 25/);
    const seen = (await dashboard()).integrity;
    expect(seen).toEqual([
      {
        figure: 'dashboardRollups',
        firstSeenAt: clock.now.toISOString(),
        lastSeenAt: clock.now.toISOString(),
        problems: 1,
        isRebuildable: true,
        examples: [expect.stringContaining('earn:purchase')],
      },
    ]);
    expect(new Date(seen[0]!.firstSeenAt).getTime()).toBeGreaterThan(firstNight.getTime());

    // The next night it is still wrong: still "since" the first night it was seen.
    const since = clock.now.toISOString();
    clock.now = new Date(clock.now.getTime() + 86_400_000);
    await runJobs();
    expect((await dashboard()).integrity).toMatchObject([{ figure: 'dashboardRollups', firstSeenAt: since, lastSeenAt: clock.now.toISOString() }]);
  });

  it('clears the notice once ledger:rebuild has put the figures right, and says so in the audit log', async () => {
    await rebuildDerivedFigures(ctx.app.db, { timeZone: TZ });
    const outcome = await checkIntegrity(ctx.app.db, { timeZone: TZ, now: clock.now });
    expect(outcome.failing).toEqual([]);
    expect((await dashboard()).integrity).toEqual([]);
    const restored = await rows(sql`select after from audit_log where action = 'ledger.integrity.restored'`);
    expect(restored).toEqual([{ after: { figures: ['dashboardRollups'] } }]);
  });
});
