import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadEnv } from '../apps/api/src/config/env.ts';
import { createSession } from '../apps/api/src/identity/sessions.ts';
import { addDays, localDate } from '../apps/api/src/lib/business-days.ts';
import * as repo from '../apps/api/src/modules/dashboard/dashboard.repository.ts';
import { periodOf } from '../apps/api/src/modules/dashboard/dashboard.service.ts';
import { benchDatabase, loadAverage, ms, numberArgument, percentile, timed } from './support.ts';

/**
 * `npm run bench:dashboard` — prints figures, asserts nothing (speed is measured here, never in
 * tests). Starts a real PostgreSQL, loads the large data set (db:seed:large: set-based, then the
 * dashboard rollups rebuilt), and measures p50/p95 of `GET /api/admin/dashboard` over real HTTP for
 * a few periods and filters (goal p95 < 100 ms, docs/product.md E).
 * Default scale: the 1,000,000 customers / 10,000,000 entries (many minutes on a shared
 * 2-core machine); `--customers N --entries M` for a smaller run.
 */
const CUSTOMERS = numberArgument('customers', 1_000_000);
const ENTRIES = numberArgument('entries', 10_000_000);
const SAMPLES = numberArgument('samples', 40);

const { url, database, stop } = await benchDatabase({ customers: CUSTOMERS, entries: ENTRIES, poolSize: 10 });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-dashboard-'));
try {
  const env = loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_ALLOW: '127.0.0.1,::1', DATABASE_URL: url, CSRF_SECRET: 'b'.repeat(40), SMTP_URL: 'smtp://127.0.0.1:2525', APP_URL: 'https://bench.example.test' });
  const app = await buildApp({ env, database, runScheduler: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const [account] = ((await database.db.execute(sql`select id, email, display_name, role from users where email = 'admin@demo.test'`)) as unknown as {
    rows: { id: string; email: string; display_name: string; role: 'admin' | 'editor' | 'member' | null }[];
  }).rows;
  // A real session behind the token: the guard requires it to be live.
  const { sessionId } = await createSession(database.db, account!.id, new Date());
  const token = await app.tokenSigner.sign({ sub: account!.id, email: account!.email, name: account!.display_name, role: account!.role, sid: sessionId });
  const headers = { 'x-auth-token': token };

  const raw = new pg.Pool({ connectionString: url, max: 2 });
  const ids = await raw.query<{ points: string; merchant: string; rollups: string; entries: string }>(
    `select (select id from programs where type = 'points' and name = 'Circuito Bench') as points,
            (select id from merchants where sign_name = 'Negozio 7') as merchant,
            (select count(*) from dashboard_rollups) as rollups, (select count(*) from ledger_entries) as entries`,
  );
  const { points: programId, merchant: merchantId, rollups, entries } = ids.rows[0]!;
  console.log(`dashboard_rollups: ${Number(rollups).toLocaleString('en')} rows for ${Number(entries).toLocaleString('en')} entries`);

  const today = localDate(new Date(), env.BUSINESS_TIME_ZONE);
  const cases: { name: string; query: string }[] = [
    { name: 'default (last 30 days)', query: '' },
    { name: 'today', query: `?from=${today}&to=${today}` },
    { name: 'last 7 days, one program', query: `?from=${addDays(today, -6)}&to=${today}&programId=${programId}` },
    { name: 'this year', query: `?from=${today.slice(0, 4)}-01-01&to=${today}` },
    { name: 'last 30 days, one merchant', query: `?merchantId=${merchantId}` },
    { name: '18 months, program + merchant', query: `?from=${addDays(today, -540)}&to=${today}&programId=${programId}&merchantId=${merchantId}` },
    { name: '18 months, everything', query: `?from=${addDays(today, -540)}&to=${today}` },
  ];
  const dashboard = async (query: string) => {
    const response = await fetch(`${base}/api/admin/dashboard${query}`, { headers });
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  // Every case once first: the first case measured should not be the one that warms the caches.
  for (const c of cases) await dashboard(c.query);
  console.log(`\nGET /api/admin/dashboard (p50/p95 over HTTP on loopback; goal p95 < 100 ms; ${loadAverage()})`);
  for (const c of cases) {
    const times = await timed(() => dashboard(c.query), SAMPLES);
    console.log(`  ${c.name.padEnd(34)} p50 ${ms(percentile(times, 50)).padStart(9)}  p95 ${ms(percentile(times, 95)).padStart(9)}`);
  }
  // Where the time goes: each query of the dashboard alone, for the widest case.
  const deps = { db: database.db, clock: { now: () => new Date() }, timeZone: env.BUSINESS_TIME_ZONE };
  const period = periodOf(deps, { from: addDays(today, -540), to: today });
  console.log(`\neach dashboard query alone, 18 months, no filter (p50/p95; ${loadAverage()})`);
  const parts: [string, () => Promise<unknown>][] = [
    ['rollup sums by day and bucket', () => repo.bucketsByDay(database.db, period)],
    ['outstanding points', () => repo.outstandingAt(database.db, period)],
    ['top merchants', () => repo.topMerchants(database.db, period)],
    ['customers, active, merchants', () => repo.customerFigures(database.db, period)],
    ['tier mix', () => repo.tierMix(database.db, period)],
    ['top rewards', () => repo.topRewards(database.db, period)],
    ['pending approvals', () => repo.pendingApprovals(database.db, period)],
    ['privacy deadlines', () => repo.privacyDeadlines(database.db, new Date())],
  ];
  for (const [name, run] of parts) {
    const times = await timed(run, Math.min(SAMPLES, 20));
    console.log(`  ${name.padEnd(34)} p50 ${ms(percentile(times, 50)).padStart(9)}  p95 ${ms(percentile(times, 95)).padStart(9)}`);
  }
  await raw.end();
  await app.close();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}
