import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import { CSRF_COOKIE_HOST, CSRF_HEADER } from '@sf/contract/app-info';
import { buildApp } from '../apps/api/src/app.ts';
import { loadEnv } from '../apps/api/src/config/env.ts';
import { DEMO_PASSWORD } from '../apps/api/src/db/seed.ts';
import { verifyLedger } from '../apps/api/src/modules/ledger/ledger.verify.ts';
import { writeGroupsOf } from '../apps/api/src/modules/ledger/ledger.service.ts';
import { addDays, localDate, startOfLocalDay } from '../apps/api/src/lib/business-days.ts';
import { benchDatabase, loadAverage, ms, numberArgument, percentile, timed } from './support.ts';
import { isValidCardNumber } from '@sf/contract/customers';
import { searchWords } from '../apps/api/src/db/list.ts';
import { CUSTOMER_COUNT_CAP, SORT_AFTER_SCAN_MAX_ROWS } from '../apps/api/src/modules/customers/customers.repository.ts';

/**
 * `npm run bench:loyalty` — prints figures, asserts nothing (speed is measured here, never in tests).
 * Starts a real PostgreSQL, loads the large data set, then measures through the real app:
 *  - p50/p95 of the customers list queries and of Movimenti (one customer's; everyone's with names and
 *    cards; a dashboard figure's list), next to the same question asked as raw SQL (the ratio shows
 *    what the app layer costs);
 *  - purchases per second with 20 concurrent clients over HTTP, spread over 10,000 members and on
 *    one hot member, with the error count.
 * Default scale: 100,000 customers / 1,000,000 entries (minutes on a shared 2-core machine);
 * `--full` is the issue's 1,000,000 / 10,000,000; `--customers N --entries M` anything else.
 */
const isFull = process.argv.includes('--full');
const CUSTOMERS = numberArgument('customers', isFull ? 1_000_000 : 100_000);
const ENTRIES = numberArgument('entries', isFull ? 10_000_000 : 1_000_000);
const SAMPLES = numberArgument('samples', 40);
const WRITE_SECONDS = numberArgument('seconds', 10);
const CONCURRENCY = 20;

/**
 * The purchase clients' loop, run in a worker thread (plain JavaScript: a worker evaluates it as is).
 * `node:http` with kept-alive sockets, not `fetch`: the clients stand for tills on other machines, and
 * undici's fetch cost ~0.75 ms of CPU per request here — on the same two cores as the server.
 */
const PURCHASE_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const http = require('node:http');
const { base, headers, programId, customers, seconds, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(base + '/api/admin/ledger');
let ok = 0;
let next = 0;
const errors = {};
const deadline = Date.now() + seconds * 1000;
function post(body) {
  return new Promise((resolve, reject) => {
    const request = http.request(target, {
      method: 'POST',
      agent,
      headers: { ...headers, 'idempotency-key': randomUUID(), 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(response.statusCode));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
async function client() {
  while (Date.now() < deadline) {
    const customerId = customers[next++ % customers.length];
    const status = await post(JSON.stringify({ customerId, programId, kind: 'purchase', amountCents: 1250 }))
      .catch((error) => 'network ' + error.code);
    if (status === 201) ok += 1;
    else errors[status] = (errors[status] || 0) + 1;
  }
}
const cpuBefore = process.threadCpuUsage();
Promise.all(Array.from({ length: concurrency }, client)).then(() => {
  const cpu = process.threadCpuUsage(cpuBefore);
  agent.destroy();
  parentPort.postMessage({ ok, errors, clientCpuMs: (cpu.user + cpu.system) / 1000 });
});
`;
const { url, database, stop } = await benchDatabase({ customers: CUSTOMERS, entries: ENTRIES, poolSize: CONCURRENCY });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-loyalty-'));
try {
  // Production settings, as staff get them; mail goes nowhere (no bench step sends any).
  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ALLOW: '127.0.0.1,::1',
    DATABASE_URL: url,
    CSRF_SECRET: 'b'.repeat(40),
    SMTP_URL: 'smtp://127.0.0.1:9',
    APP_URL: 'https://bench.invalid',
  });
  const app = await buildApp({ env, database, runScheduler: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  // Signed in the way the web app is: a real session (the guard checks it), and the forgery-protection
  // token that the sign-in binds to it (the __Host- cookie: APP_URL is https, as production requires).
  const probe = await fetch(`${base}/api/healthz`);
  const anonymousCsrf = new RegExp(`${CSRF_COOKIE_HOST}=([^;]+)`).exec(probe.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const signIn = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE_HOST}=${anonymousCsrf}`, [CSRF_HEADER]: anonymousCsrf },
    body: JSON.stringify({ email: 'admin@demo.test', password: DEMO_PASSWORD }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const { idToken: token } = (await signIn.json()) as { idToken: string };
  const csrf = new RegExp(`${CSRF_COOKIE_HOST}=([^;]+)`).exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? anonymousCsrf;
  const headers = { 'x-auth-token': token, cookie: `${CSRF_COOKIE_HOST}=${csrf}`, [CSRF_HEADER]: csrf, 'content-type': 'application/json' };

  const raw = new pg.Pool({ connectionString: url, max: 2 });
  // If a step fails, the server is stopped under this pool's idle clients: the step's own error is
  // the one to see, not theirs (57P01).
  raw.on('error', () => undefined);
  const ids = await raw.query<{ points: string; customer: string; card: string; email: string }>(
    `select (select id from programs where type = 'points' limit 1) as points,
            (select customer_id from memberships m join programs p on p.id = m.program_id and p.type = 'points' order by m.customer_id limit 1 offset 777) as customer,
            (select card_number from customers order by id limit 1 offset 4242) as card,
            (select email from customers where email is not null order by id limit 1 offset 999) as email`,
  );
  const { points: programId, customer: customerId, card, email } = ids.rows[0]!;

  // The business days of "this year" (the dashboard's periods are cut in BUSINESS_TIME_ZONE).
  const today = localDate(new Date(), env.BUSINESS_TIME_ZONE);
  const yearStart = startOfLocalDay(`${today.slice(0, 4)}-01-01`, env.BUSINESS_TIME_ZONE);
  const todayEnd = startOfLocalDay(addDays(today, 1), env.BUSINESS_TIME_ZONE);
  const get = async (url: string) => {
    const response = await fetch(`${base}${url}`, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  // The raw SQL is the question a DBA would ask by hand, on the same indexes (the stored name keys of
  // migration 0010; a deep page's ids from the index alone, then their rows).
  const lists: { name: string; url: string; sql: string; params: unknown[] }[] = [
    { name: 'customers: first page by name', url: '/api/admin/customers?sort=name&order=asc', sql: 'select * from customers order by last_name_key, first_name_key, id limit 25', params: [] },
    { name: 'customers: deep page (page 2000)', url: '/api/admin/customers?sort=name&order=asc&page=2000', sql: 'select c.* from (select id from customers order by last_name_key, first_name_key, id limit 25 offset 49975) page join customers c using (id) order by c.last_name_key, c.first_name_key, c.id', params: [] },
    { name: 'customers: search by card number', url: `/api/admin/customers?q=${card}`, sql: 'select * from customers where card_number = $1 limit 25', params: [card] },
    { name: 'customers: search by surname prefix', url: '/api/admin/customers?q=Ro', sql: `select * from customers where last_name_key >= 'ro' and last_name_key < 'rp' and last_name_key like 'ro%' order by last_name_key, first_name_key, id limit 25`, params: [] },
    // A name typed as the list shows it, surname first: each word on its own (late in the alphabet, where
    // walking the name index to find 25 matches cost seconds).
    {
      name: 'customers: search by name (list order)',
      url: `/api/admin/customers?q=${encodeURIComponent('Valentini Federica')}`,
      sql: `select * from customers where search_text like '%valentini%' and search_text like '%federica%' order by last_name_key || '', first_name_key || '', id limit 25`,
      params: [],
    },
    { name: 'customers: search by e-mail', url: `/api/admin/customers?q=${encodeURIComponent(email)}`, sql: 'select * from customers where lower(email) = lower($1) limit 25', params: [email] },
    {
      name: 'customers: filter by program and tier',
      url: `/api/admin/customers?programId=${programId}&tier=Oro`,
      sql: `select c.* from customers c where exists (select 1 from memberships m where m.customer_id = c.id and m.program_id = $1 and m.tier = 'Oro') order by last_name_key, first_name_key, id limit 25`,
      params: [programId],
    },
    {
      name: 'ledger: one customer',
      url: `/api/admin/ledger?customerId=${customerId}`,
      sql: 'select * from ledger_entries where customer_id = $1 order by created_at desc, id desc limit 25',
      params: [customerId],
    },
    // Movimenti as staff open it: every entry, newest first, with whose it is (name, card) and the
    // count (capped) with its sums; and as a dashboard figure opens it (a year of one program's
    // purchases: beyond the count cap, its total and sums from the dashboard's rollups).
    {
      name: 'ledger: first page, names and cards',
      url: '/api/admin/ledger',
      sql: `select e.*, c.first_name, c.last_name, c.card_number from ledger_entries e join customers c on c.id = e.customer_id
            order by e.created_at desc, e.id desc limit 25`,
      params: [],
    },
    {
      name: "ledger: a figure's list (year, purchases)",
      url: `/api/admin/ledger?kind=earn&source=purchase&programId=${programId}&from=${encodeURIComponent(yearStart.toISOString())}&to=${encodeURIComponent(new Date(todayEnd.getTime() - 1).toISOString())}`,
      sql: `select e.*, c.first_name, c.last_name, c.card_number from ledger_entries e join customers c on c.id = e.customer_id
            where e.kind = 'earn' and e.source = 'purchase' and e.program_id = $1 and e.created_at >= $2 and e.created_at < $3
            order by e.created_at desc, e.id desc limit 25`,
      params: [programId, yearStart, todayEnd],
    },
  ];
  console.log(`\nlist queries (server p50/p95 over HTTP on loopback; raw SQL p50/p95 on the same database; goal p95 < 50 ms; ${loadAverage()})`);
  for (const list of lists) {
    const api = await timed(() => get(list.url), SAMPLES);
    const direct = await timed(() => raw.query(list.sql, list.params), SAMPLES);
    console.log(
      `  ${list.name.padEnd(40)} app p50 ${ms(percentile(api, 50)).padStart(9)} p95 ${ms(percentile(api, 95)).padStart(9)}` +
        `  | raw SQL p50 ${ms(percentile(direct, 50)).padStart(9)} p95 ${ms(percentile(direct, 95)).padStart(9)}` +
        `  | ratio p95 ${(percentile(api, 95) / Math.max(percentile(direct, 95), 0.01)).toFixed(1)}×`,
    );
  }

  // The searches a person makes in Clienti (and its picker), each before and after the choice of plan
  // for word searches (decision 014), in one run, alternating sample by sample: the page's ids and the
  // capped count as the app sends them, side by side on two connections. "before": one word walked the
  // name index, several sorted their matches; "after": the planner's estimate of the matches decides
  // (EXPLAIN first), sorting up to SORT_AFTER_SCAN_MAX_ROWS. Then the app itself (after) over HTTP.
  const rare = await raw.query<{ n: string }>(`select count(*) as n from customers where last_name = 'Zanichelli'`);
  for (let i = Number(rare.rows[0]!.n); i < 3; i += 1) {
    const created = await fetch(`${base}/api/admin/customers`, { method: 'POST', headers, body: JSON.stringify({ firstName: ['Ada', 'Ugo', 'Ida'][i], lastName: 'Zanichelli' }) });
    if (created.status !== 201) throw new Error(`customer: ${created.status} ${await created.text()}`);
  }
  const phone = (await raw.query<{ phone: string }>('select phone from customers where phone is not null order by id limit 1 offset 4242')).rows[0]!.phone;
  const searches: { name: string; q: string }[] = [
    { name: 'a common surname', q: 'Rossi' },
    { name: 'a rare surname', q: 'Zanichelli' },
    { name: 'late in the alphabet', q: 'valentini' },
    { name: 'a first name', q: 'Federica' },
    { name: 'two letters and a word', q: 'De Luca' },
    { name: 'a card number', q: card },
    { name: 'an e-mail fragment', q: email.split('@')[0]!.slice(0, 11) },
    { name: 'a phone fragment', q: phone.slice(-7) },
  ];
  const page = new pg.Pool({ connectionString: url, max: 2 });
  page.on('error', () => undefined);
  const byName = (sorted: boolean) => (sorted ? `(last_name_key || '') nulls last, (first_name_key || '') nulls last, id` : 'last_name_key nulls last, first_name_key nulls last, id');
  console.log(`\nword searches: raw SQL before/after the plan choice, alternating (page + capped count in parallel; after includes its EXPLAIN), then the app; goal p95 < 50 ms; ${loadAverage()}`);
  for (const search of searches) {
    // As the app reads a search (customers.repository.ts searchCondition): a phone typed with spaces, compacted.
    const words = searchWords(/^[+\d\s./-]+$/.test(search.q) ? search.q.replace(/[\s./-]/g, '') : search.q);
    const isWordSearch = search.q.length >= 3 && !isValidCardNumber(words.join('')) && !/@/.test(search.q);
    const where = isWordSearch ? words.map((_, index) => `search_text like $${index + 1}`).join(' and ') : 'card_number = $1';
    const params = isWordSearch ? words.map((word) => `%${word.replace(/[\\%_]/g, '\\$&')}%`) : [search.q];
    const run = async (sorted: boolean) =>
      Promise.all([
        page.query(`select id from customers where ${where} order by ${byName(sorted)} limit 25`, params),
        page.query(`select count(*) from (select id from customers where ${where} limit ${CUSTOMER_COUNT_CAP + 1}) capped`, params),
      ]);
    const before = () => run(isWordSearch && words.length > 1);
    const after = async () => {
      if (!isWordSearch) return run(false);
      const plan = await page.query(`explain (format json) select 1 from customers where ${where}`, params);
      const estimate = (plan.rows[0]['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }])[0].Plan['Plan Rows'];
      return run(estimate <= SORT_AFTER_SCAN_MAX_ROWS);
    };
    const pairs = { before: [] as number[], after: [] as number[] };
    for (let i = 0; i < 3; i += 1) {
      await before();
      await after();
    }
    for (let i = 0; i < SAMPLES; i += 1) {
      for (const [name, step] of (i % 2 === 0 ? [['before', before], ['after', after]] : [['after', after], ['before', before]]) as ['before' | 'after', () => Promise<unknown>][]) {
        const start = process.hrtime.bigint();
        await step();
        pairs[name].push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    const api = await timed(() => get(`/api/admin/customers?q=${encodeURIComponent(search.q)}`), SAMPLES);
    const matches = (await raw.query<{ n: string }>(`select count(*) as n from customers where ${where}`, params)).rows[0]!.n;
    console.log(
      `  ${`${search.name} (${search.q})`.padEnd(44)} ${String(matches).padStart(7)} matches | before p50 ${ms(percentile(pairs.before, 50)).padStart(9)} p95 ${ms(percentile(pairs.before, 95)).padStart(9)}` +
        ` | after p50 ${ms(percentile(pairs.after, 50)).padStart(9)} p95 ${ms(percentile(pairs.after, 95)).padStart(9)} | app p50 ${ms(percentile(api, 50)).padStart(9)} p95 ${ms(percentile(api, 95)).padStart(9)}`,
    );
  }
  await page.end();

  const members = await raw.query<{ customer_id: string }>(
    `select customer_id from memberships where program_id = $1 order by customer_id limit 10000`,
    [programId],
  );
  const spread = members.rows.map((row) => row.customer_id);
  /**
   * 20 clients sending purchases for WRITE_SECONDS, from a worker thread: a user's requests come from
   * elsewhere, so the HTTP clients must not take turns with the server on its event loop (in one
   * thread they did, and the clients' own CPU was a third of the figure). Each request has its own
   * idempotency key, as a till's retry-safe request would.
   */
  async function purchases(customers: string[]) {
    const groups = writeGroupsOf({ db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE });
    const groupsBefore = { ...(groups?.stats ?? { groups: 0, requests: 0 }) };
    const accountChecksBefore = app.identity.accountCheckStats?.requests ?? 0;
    const walBefore = await walNow();
    const cpuBefore = await cpuNow();
    const serverBefore = process.threadCpuUsage();
    const loopBefore = performance.eventLoopUtilization();
    const start = Date.now();
    const worker = new Worker(PURCHASE_CLIENTS, {
      eval: true,
      workerData: { base, headers, programId, customers, seconds: WRITE_SECONDS, concurrency: CONCURRENCY },
    });
    const { ok, errors, clientCpuMs } = await new Promise<{ ok: number; errors: Record<string, number>; clientCpuMs: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const seconds = (Date.now() - start) / 1000;
    const serverLoop = performance.eventLoopUtilization(loopBefore).utilization;
    const serverCpu = process.threadCpuUsage(serverBefore);
    const cpuAfter = await cpuNow();
    const walAfter = await walNow();
    // CPU per purchase, apart from the machine's load: the Node process (the API, and the worker's
    // HTTP clients) and the PostgreSQL backends serving the bench database.
    const used = cpuBetween(cpuBefore, cpuAfter);
    const nodeMs = used.node / Math.max(1, ok);
    const postgresMs = used.postgres / Math.max(1, ok);
    const serverMs = (serverCpu.user + serverCpu.system) / 1000 / Math.max(1, ok);
    const clientMs = clientCpuMs / Math.max(1, ok);
    const grouped = groups ? groups.stats.requests - groupsBefore.requests : 0;
    const perGroup = groups ? grouped / Math.max(1, groups.stats.groups - groupsBefore.groups) : 1;
    // The guard's reads of the account and its session (none for a purchase: decision 028 reads it in the write).
    const accountChecks = ((app.identity.accountCheckStats?.requests ?? 0) - accountChecksBefore) / Math.max(1, ok);
    const wal = walPerPurchase(walBefore, walAfter, ok);
    return { perSecond: ok / seconds, ok, errors: Object.values(errors).reduce((a, b) => a + b, 0), detail: errors, nodeMs, postgresMs, serverLoop, serverMs, clientMs, perGroup, accountChecks, wal };
  }
  /**
   * The server's WAL so far (all databases: the bench's is the only one written): its bytes, and how
   * many whole pages it carried, which PostgreSQL writes for a page's first change after a checkpoint.
   */
  type WalSnapshot = { bytes: number; fullPages: number };
  const walPerPurchase = (before: WalSnapshot, after: WalSnapshot, ok: number) => ({
    kib: (after.bytes - before.bytes) / 1024 / Math.max(1, ok),
    fullPages: (after.fullPages - before.fullPages) / Math.max(1, ok),
  });
  async function checkpointsNow(): Promise<{ timed: number; requested: number; maxWalSize: string }> {
    const { rows } = await raw.query<{ timed: number; requested: number; max_wal_size: string }>(
      `select num_timed::float8 as timed, num_requested::float8 as requested, current_setting('max_wal_size') as max_wal_size from pg_stat_checkpointer`,
    );
    return { timed: rows[0]!.timed, requested: rows[0]!.requested, maxWalSize: rows[0]!.max_wal_size };
  }
  /** Autovacuum so far: runs finished on the bench's tables, and workers busy now (they share our cores). */
  async function autovacuumNow(): Promise<{ runs: number; busy: number }> {
    const { rows } = await raw.query<{ runs: number; busy: number }>(
      `select (select sum(autovacuum_count + autoanalyze_count)::float8 from pg_stat_user_tables) as runs,
              (select count(*)::float8 from pg_stat_activity where backend_type = 'autovacuum worker') as busy`,
    );
    return { runs: rows[0]!.runs, busy: rows[0]!.busy };
  }
  async function walNow(): Promise<WalSnapshot> {
    const { rows } = await raw.query<{ bytes: number; full_pages: number }>('select wal_bytes::float8 as bytes, wal_fpi::float8 as full_pages from pg_stat_wal');
    return { bytes: rows[0]!.bytes, fullPages: rows[0]!.full_pages };
  }
  /**
   * CPU milliseconds used so far by this process and by the database's backends (from /proc), per
   * backend: a difference counts only the backends alive at both reads (a pool may close an idle one
   * in between, and its CPU would otherwise be subtracted).
   */
  type CpuSnapshot = { node: number; backends: Map<number, number> };
  async function cpuNow(applicationName?: string): Promise<CpuSnapshot> {
    const usage = process.cpuUsage();
    const rows = await raw.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and ($1::text is null or application_name = $1)`,
      [applicationName ?? null],
    );
    const backends = new Map<number, number>();
    for (const { pid } of rows.rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        backends.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // A backend that ended between the two reads.
      }
    }
    return { node: (usage.user + usage.system) / 1000, backends };
  }
  function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { node: number; postgres: number } {
    let postgres = 0;
    for (const [pid, used] of after.backends) postgres += used - (before.backends.get(pid) ?? 0);
    return { node: after.node - before.node, postgres };
  }
  const cpu = (result: {
    nodeMs: number;
    postgresMs: number;
    serverLoop?: number;
    serverMs?: number;
    clientMs?: number;
    perGroup?: number;
    accountChecks?: number;
    wal?: { kib: number; fullPages: number };
  }) =>
    `CPU per purchase: Node ${result.nodeMs.toFixed(2)} ms` +
    (result.serverMs === undefined ? '' : ` (server thread ${result.serverMs.toFixed(2)}, client thread ${result.clientMs!.toFixed(2)})`) +
    `, PostgreSQL ${result.postgresMs.toFixed(2)} ms` +
    (result.serverLoop === undefined ? '' : `; server's event loop busy ${(result.serverLoop * 100).toFixed(0)} %`) +
    (result.perGroup === undefined ? '' : `; ${result.perGroup.toFixed(1)} purchases per transaction`) +
    (result.accountChecks === undefined ? '' : `; ${result.accountChecks.toFixed(2)} sign-in check queries per purchase`) +
    (result.wal === undefined ? '' : `; WAL ${result.wal.kib.toFixed(1)} KiB per purchase (${result.wal.fullPages.toFixed(2)} full pages)`);
  const single = await timed(async () => {
    const response = await fetch(`${base}/api/admin/ledger`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ customerId: spread[0], programId, kind: 'purchase', amountCents: 1250 }),
    });
    if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }, 20);
  console.log(`\none purchase at a time: p50 ${ms(percentile(single, 50))} p95 ${ms(percentile(single, 95))}`);
  const server = await raw.query<{ fsync: string; commit: string; buffers: string }>(
    `select current_setting('fsync') as fsync, current_setting('synchronous_commit') as commit, current_setting('shared_buffers') as buffers`,
  );
  const { fsync, commit, buffers } = server.rows[0]!;
  console.log(`\npurchases (POST /api/admin/ledger over HTTP, ${CONCURRENCY} concurrent clients, ${WRITE_SECONDS} s each; goal ≥ 1,000/s spread, ≥ 200/s hot, 0 errors; ${loadAverage()})`);
  console.log(`  PostgreSQL: fsync ${fsync}, synchronous_commit ${commit}, shared_buffers ${buffers}`);
  let n = 0;
  // From a checkpoint, so that every run starts from the same state (not in the middle of one the
  // load started). After a checkpoint, each page's first change writes the whole page to the WAL
  // (full_page_writes): the first seconds over 10,000 members touch thousands of pages for the first
  // time, the next ones mostly pages already written since. Both windows are printed; the anchor,
  // which runs later, meets the pages as the second window does.
  await raw.query('checkpoint');
  const checkpointsBefore = await checkpointsNow();
  const autovacuumBefore = await autovacuumNow();
  const coldResult = await purchases(spread);
  console.log(`  spread over ${spread.length.toLocaleString('en')} members, first ${WRITE_SECONDS} s after a checkpoint: ${coldResult.perSecond.toFixed(0)}/s (${coldResult.ok} ok, ${coldResult.errors} errors ${JSON.stringify(coldResult.detail)}); ${cpu(coldResult)}`);
  const spreadResult = await purchases(spread);
  console.log(`  spread over ${spread.length.toLocaleString('en')} members, the next ${WRITE_SECONDS} s: ${spreadResult.perSecond.toFixed(0)}/s (${spreadResult.ok} ok, ${spreadResult.errors} errors ${JSON.stringify(spreadResult.detail)}); ${cpu(spreadResult)}`);
  const hotResult = await purchases([customerId]);
  console.log(`  one hot member:                ${hotResult.perSecond.toFixed(0)}/s (${hotResult.ok} ok, ${hotResult.errors} errors ${JSON.stringify(hotResult.detail)}); ${cpu(hotResult)}`);
  const checkpointsAfter = await checkpointsNow();
  console.log(
    `  checkpoints during these writes: ${checkpointsAfter.timed - checkpointsBefore.timed} on time, ` +
      `${checkpointsAfter.requested - checkpointsBefore.requested} requested because the WAL reached max_wal_size (${checkpointsAfter.maxWalSize})`,
  );
  const autovacuumAfter = await autovacuumNow();
  console.log(
    `  autovacuum during these writes: ${autovacuumAfter.runs - autovacuumBefore.runs} runs finished; workers busy at the start ${autovacuumBefore.busy}, at the end ${autovacuumAfter.busy}`,
  );

  // The anchor for the write figures, in the same run: the same purchase written by 20 clients
  // straight to PostgreSQL, with no app in between — the database's own ceiling on this machine for
  // this schema (the same rows: entry, FIFO lot, membership, audit record, idempotency record, and the
  // dashboard rollups' trigger, in one transaction per purchase).
  // One pool for both runs: its backends live through both, so their CPU is read before and after.
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY, application_name: 'bench-raw-writers' });
  // pg-pool's end() resolves before its closed clients' sockets are gone: the server's shutdown may
  // still end one of them (57P01), which must not crash the bench after its figures are printed.
  pool.on('error', () => undefined);
  async function rawPurchases(pick: () => string) {
    let ok = 0;
    let errors = 0;
    const deadline = Date.now() + WRITE_SECONDS * 1000;
    const client = async () => {
      const connection = await pool.connect();
      try {
        while (Date.now() < deadline) {
          const key = randomUUID();
          try {
            await connection.query('begin');
            const locked = await connection.query<{ id: string; balance: number }>(
              'select id, balance from memberships where customer_id = $1 and program_id = $2 for update',
              [pick(), programId],
            );
            const membership = locked.rows[0]!;
            await connection.query(
              `with entry as (
                 insert into ledger_entries (membership_id, customer_id, program_id, kind, source, points, amount_cents,
                   balance_after, stamps_after, expires_on, idempotency_key, created_by_label)
                 select m.id, m.customer_id, m.program_id, 'earn', 'purchase', 12, 1250, m.balance + 12, m.stamps,
                   current_date + 365, $2, 'bench'
                 from memberships m where m.id = $1
                 returning id, membership_id),
               lot as (insert into ledger_lots (entry_id, membership_id, points, remaining, expires_on)
                 select id, membership_id, 12, 12, current_date + 365 from entry),
               updated as (update memberships set balance = balance + 12, last_activity_at = now(), version = version + 1
                 where id = $1),
               audited as (insert into audit_log (action, entity_type, entity_id, after)
                 select 'ledger.earn', 'ledger_entry', entry.id::text, '{"points":12}'::jsonb from entry)
               select id from entry`,
              [membership.id, key],
            );
            await connection.query(
              `insert into idempotency_records (scope, key, request_hash, response_status, response_body)
               values ('bench-raw', $1, 'x', 201, '{}'::jsonb)`,
              [key],
            );
            await connection.query('commit');
            ok += 1;
          } catch {
            errors += 1;
            await connection.query('rollback').catch(() => undefined);
          }
        }
      } finally {
        connection.release();
      }
    };
    const start = Date.now();
    const walBefore = await walNow();
    const cpuBefore = await cpuNow('bench-raw-writers');
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const seconds = (Date.now() - start) / 1000;
    const cpuAfter = await cpuNow('bench-raw-writers');
    const walAfter = await walNow();
    return {
      perSecond: ok / seconds,
      ok,
      errors,
      nodeMs: cpuBetween(cpuBefore, cpuAfter).node / Math.max(1, ok),
      postgresMs: cpuBetween(cpuBefore, cpuAfter).postgres / Math.max(1, ok),
      wal: walPerPurchase(walBefore, walAfter, ok),
    };
  }
  console.log(`\nthe anchor: the same purchase as raw SQL from ${CONCURRENCY} clients, no app (5 round trips, one commit per purchase; ${loadAverage()})`);
  const rawSpread = await rawPurchases(() => spread[n++ % spread.length]!);
  console.log(`  spread: ${rawSpread.perSecond.toFixed(0)}/s (${rawSpread.errors} errors); ${cpu(rawSpread)} → app/raw ${(spreadResult.perSecond / rawSpread.perSecond * 100).toFixed(0)} %`);
  const rawHot = await rawPurchases(() => customerId);
  console.log(`  one hot member: ${rawHot.perSecond.toFixed(0)}/s (${rawHot.errors} errors); ${cpu(rawHot)} → app/raw ${(hotResult.perSecond / rawHot.perSecond * 100).toFixed(0)} %`);
  await pool.end();

  if (process.argv.includes('--verify')) {
    const started = Date.now();
    const problems = await verifyLedger(database.db);
    console.log(`\nledger:verify after the run: ${problems.length === 0 ? 'OK' : problems.join('; ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  await raw.end();
  await app.close();
} finally {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}
