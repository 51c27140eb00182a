import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestContext, manualJobRunner, selectRows, type TestContext } from '../test/helper.ts';
import { auditLog, newsPosts, sessions, users } from './db/schema.ts';
import { enqueueJob } from './lib/job-runner.ts';
import { startBackgroundJobs } from './jobs.ts';

let ctx: TestContext;
const now = new Date();

beforeAll(async () => {
  ctx = await createTestContext({ clock: { now: () => now } });
});
afterAll(async () => ctx?.close());

const rows = <T>(query: ReturnType<typeof sql>) => selectRows<T>(ctx.app, query);

/**
 * Issue 29, "once-only work": every scheduled task runs once across processes. Each process has its
 * own job runner; two runners on one database stand for two processes.
 */
describe('recurring background work, once across processes', () => {
  it('runs a recurring job once per period whichever of two runners claims it, and keeps one row for it', async () => {
    let calls = 0;
    const runnerOf = () => manualJobRunner(ctx.app, { every: { 'test.every-minute': 60_000 }, handlers: { 'test.every-minute': async () => ({ call: (calls += 1) }) } });
    const one = runnerOf();
    const two = runnerOf();
    await Promise.all([one.tick(), two.tick()]);
    await Promise.all([one.tick(), two.tick()]);
    expect(calls).toBe(1);
    const [job] = await rows<{ status: string; attempts: number; due_in: number }>(
      sql`select status, attempts, extract(epoch from run_at - now())::float as due_in from jobs where kind = 'test.every-minute'`,
    );
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(job!.due_in).toBeGreaterThan(50);
    // Its period has passed: it runs again, once.
    await ctx.app.db.execute(sql`update jobs set run_at = now() - interval '1 second' where kind = 'test.every-minute'`);
    await Promise.all([one.tick(), two.tick()]);
    expect(calls).toBe(2);
    expect(await rows(sql`select id from jobs where kind = 'test.every-minute'`)).toHaveLength(1);
    await one.stop();
    await two.stop();
  });

  it('never gives a failing recurring job up: it waits at most its period and runs again', async () => {
    let calls = 0;
    const runner = manualJobRunner(ctx.app, {
      every: { 'test.failing': 30_000 },
      handlers: {
        'test.failing': async () => {
          calls += 1;
          throw new Error(`failure ${calls}`);
        },
      },
    });
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await ctx.app.db.execute(sql`update jobs set run_at = now() - interval '1 second' where kind = 'test.failing'`);
      await runner.tick();
    }
    const [job] = await rows<{ status: string; attempts: number; last_error: string; due_in: number }>(
      sql`select status, attempts, last_error, extract(epoch from run_at - now())::float as due_in from jobs where kind = 'test.failing'`,
    );
    expect(calls).toBe(7);
    expect(job).toMatchObject({ status: 'queued', attempts: 7, last_error: 'failure 7' });
    expect(job!.due_in).toBeLessThanOrEqual(30);
    await runner.stop();
  });

  it('publishes a due post and purges dead sign-ins from the jobs, once, with two processes ticking at the same moment', async () => {
    const [editor] = await ctx.app.db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    const [post] = await ctx.app.db
      .insert(newsPosts)
      .values({ title: 'Due', status: 'scheduled', publishAt: new Date(now.getTime() - 60_000), authorId: editor!.id })
      .returning({ id: newsPosts.id });
    // A sign-in that ended more than a day ago: the housekeeping deletes it.
    const ended = new Date(now.getTime() - 3 * 24 * 60 * 60_000);
    const [session] = await ctx.app.db
      .insert(sessions)
      .values({ userId: editor!.id, createdAt: ended, expiresAt: ended })
      .returning({ id: sessions.id });

    const one = startBackgroundJobs(ctx.app, { isAutomatic: false });
    const two = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await Promise.all([one.tick(), two.tick()]);
    await Promise.all([one.tick(), two.tick()]);

    const published = await ctx.app.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'news.publish'), eq(auditLog.entityId, String(post!.id))));
    expect(published).toHaveLength(1);
    expect(await ctx.app.db.select().from(sessions).where(eq(sessions.id, session!.id))).toHaveLength(0);
    // One row per recurring task, run and queued again for its next period.
    const recurring = await rows<{ kind: string; status: string; is_ahead: boolean }>(
      sql`select kind, status, (finished_at is not null and run_at > now()) as is_ahead from jobs where dedupe_key like 'every:%' and kind not like 'test.%' order by kind`,
    );
    expect(recurring).toEqual([
      { kind: 'identity.housekeeping', status: 'queued', is_ahead: true },
      { kind: 'news.publish-due', status: 'queued', is_ahead: true },
      { kind: 'rate-limit.cleanup', status: 'queued', is_ahead: true },
    ]);
    await one.stop();
    await two.stop();
  });
});

/** The runner itself (lib/job-runner.ts): what happens to a job that fails, dies or runs long. */
describe('the job runner: retries, take-over, leases', () => {
  it('retries a failing job later and takes over a job whose runner died (lease expired)', async () => {
    let calls = 0;
    const runner = manualJobRunner(ctx.app, {
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
    const runner = manualJobRunner(ctx.app, {
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
