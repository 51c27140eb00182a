import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadEnv } from '../apps/api/src/config/env.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { databaseRateLimitStore } from '../apps/api/src/lib/rate-limit-store.ts';
import { writeGroupsOf } from '../apps/api/src/modules/ledger/ledger.service.ts';
import { createApiKey } from '../apps/api/src/modules/integration/api-keys.service.ts';
import { createLedgerFixture } from '../apps/api/test/ledger-fixtures.ts';
import { freshBenchDatabase, loadAverage, numberArgument, percentile } from './support.ts';

/**
 * `npm run bench:integration` — prints figures, asserts nothing (speed is measured here, never in
 * tests). On a real PostgreSQL: integration purchases (POST /api/integration/v1/purchases with a
 * bearer key, each with its own Idempotency-Key) from 20 concurrent tills, each till its own key,
 * spread over the members; prints purchases per second and the p50/p99 latency.
 *
 * The integration rate limit is counted on every request (its limit set out of reach): in each
 * process's memory (the plugin's own store, "before") and in PostgreSQL (lib/rate-limit-store.ts, what
 * the app runs, "after"), in alternating rounds on the same database, so that the two are compared under
 * the same conditions (rounds in the order A B B A, each after two unmeasured seconds, the first after a
 * purchase on every card).
 * `--seconds N` per round (default 15), `--rounds N` pairs (default 2), `--tills N` (default 20),
 * `--customers N` (default 2,000).
 */
const TILLS = numberArgument('tills', 20);
const SECONDS = numberArgument('seconds', 15);
const ROUNDS = numberArgument('rounds', 2);
const CUSTOMERS = numberArgument('customers', 2000);

/**
 * The tills' loop, run in a worker thread (plain JavaScript: a worker evaluates it as is), so that the
 * API's thread does only the API's work; `node:http` with kept-alive sockets, as bench:loyalty does.
 */
const TILL_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const http = require('node:http');
const { base, keys, cards, programId, seconds, offset, limit } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: keys.length });
const target = new URL(base + '/api/integration/v1/purchases');
let ok = 0;
let next = offset;
const errors = {};
const latencies = [];
const deadline = Date.now() + seconds * 1000;
function post(key, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(target, {
      method: 'POST',
      agent,
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(response.statusCode));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
async function till(key) {
  while (Date.now() < deadline && next - offset < limit) {
    const card = cards[next++ % cards.length];
    const started = performance.now();
    const status = await post(key, JSON.stringify({ cardNumber: card, amountCents: 1250, programId })).catch((error) => 'network ' + error.code);
    if (status === 201) {
      ok += 1;
      latencies.push(performance.now() - started);
    } else errors[status] = (errors[status] || 0) + 1;
  }
}
Promise.all(keys.map(till)).then(() => {
  agent.destroy();
  parentPort.postMessage({ ok, errors, latencies });
});
`;

const { url, database, stop } = await freshBenchDatabase(TILLS);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-integration-'));
try {
  console.log(`loading ${CUSTOMERS.toLocaleString('en')} members…`);
  const fx = await createLedgerFixture(database.db, { customers: CUSTOMERS });
  const cards = ((await database.db.execute(sql`select card_number from customers order by card_number`)) as unknown as { rows: { card_number: string }[] }).rows.map(
    (row) => row.card_number,
  );
  if (cards.length === 0) throw new Error('no cards loaded');

  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    APP_URL: 'https://bench.example',
    SMTP_URL: 'smtp://127.0.0.1:1',
    CSRF_SECRET: 'b'.repeat(40),
    API_KEY_PEPPER: 'p'.repeat(40),
    INTEGRATION_RATE_LIMIT: '1000000',
  });
  const deps = { db: database.db, clock: systemClock, timeZone: env.BUSINESS_TIME_ZONE, pepper: env.API_KEY_PEPPER! };
  const caller = { actor: { id: null, email: 'bench' }, userId: null as unknown as string, language: 'it' as const };
  const keys: string[] = [];
  for (let i = 0; i < TILLS; i += 1) {
    const created = await createApiKey(deps, caller, { name: `Cassa ${i + 1}`, kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    keys.push(created.secret);
  }

  type Round = {
    store: 'memory' | 'database';
    perSecond: number;
    p50: number;
    p99: number;
    serverMs: number;
    postgresMs: number;
    perTransaction: number;
    errors: Record<string, number>;
  };
  // Purchases per transaction (decision 027: purchases that queue for a connection share one).
  const groups = writeGroupsOf({ db: database.db, clock: systemClock, timeZone: env.BUSINESS_TIME_ZONE });
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS * 2; round += 1) {
    // A B B A …: a drift of the machine's load over the run weighs on both stores alike.
    const store = [0, 3].includes(round % 4) ? 'memory' : 'database';
    const app = await buildApp({ env, database, runScheduler: false, rateLimitStore: store });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const tills = (seconds: number, offset: number, limit = Number.MAX_SAFE_INTEGER) => {
      const worker = new Worker(TILL_CLIENTS, { eval: true, workerData: { base, keys, cards, programId: fx.pointsProgramId, seconds, offset, limit } });
      return new Promise<{ ok: number; errors: Record<string, number>; latencies: number[] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    };
    // Before the first round, one purchase per card: a member's first purchase also makes its
    // membership (the long way, alone), which would weigh on the first round only.
    if (round === 0) await tills(600, 0, cards.length);
    // Two seconds unmeasured: the pool's connections opened, the new app's code compiled.
    await tills(2, round * 7919);
    // CPU per purchase, apart from the machine's load: the API's thread (the tills run in a worker),
    // and the PostgreSQL backends of the bench database.
    const postgresBefore = await backendCpuMs();
    const serverBefore = process.threadCpuUsage();
    const groupsBefore = { ...(groups?.stats ?? { groups: 0, requests: 0 }) };
    const start = Date.now();
    const { ok, errors, latencies } = await tills(SECONDS, round * 7919 + 3989);
    const seconds = (Date.now() - start) / 1000;
    const serverCpu = process.threadCpuUsage(serverBefore);
    const postgresMs = cpuBetween(postgresBefore, await backendCpuMs()) / Math.max(1, ok);
    const grouped = groups ? groups.stats.requests - groupsBefore.requests : 0;
    const perTransaction = groups ? grouped / Math.max(1, groups.stats.groups - groupsBefore.groups) : 1;
    await app.close();
    const result: Round = {
      store,
      perSecond: ok / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      serverMs: (serverCpu.user + serverCpu.system) / 1000 / Math.max(1, ok),
      postgresMs,
      perTransaction,
      errors,
    };
    rounds.push(result);
    console.log(
      `round ${round + 1}, rate-limit counters in ${store === 'memory' ? 'process memory (before)' : 'PostgreSQL (after)   '}: ` +
        `${result.perSecond.toFixed(0)} purchases/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
        `CPU per purchase: API ${result.serverMs.toFixed(3)} ms, PostgreSQL ${result.postgresMs.toFixed(3)} ms, ` +
        `${result.perTransaction.toFixed(2)} purchases per transaction, errors ${JSON.stringify(errors)}`,
    );
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const summary = (store: Round['store']) => {
    const list = rounds.filter((round) => round.store === store);
    const of = (pick: (round: Round) => number) => median(list.map(pick));
    return {
      perSecond: of((r) => r.perSecond),
      p50: of((r) => r.p50),
      p99: of((r) => r.p99),
      serverMs: of((r) => r.serverMs),
      postgresMs: of((r) => r.postgresMs),
      perTransaction: of((r) => r.perTransaction),
    };
  };
  const before = summary('memory');
  const after = summary('database');
  const line = (figures: ReturnType<typeof summary>) =>
    `${figures.perSecond.toFixed(0)} purchases/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, ` +
    `CPU per purchase: API ${figures.serverMs.toFixed(3)} ms, PostgreSQL ${figures.postgresMs.toFixed(3)} ms, ${figures.perTransaction.toFixed(2)} per transaction`;
  console.log(
    `\nintegration purchases, ${TILLS} concurrent tills (one key each), ${ROUNDS} × ${SECONDS} s per store, ${cards.length.toLocaleString('en')} cards, real PostgreSQL (medians):\n` +
      `  before (counters in memory):     ${line(before)}\n` +
      `  after (counters in PostgreSQL):  ${line(after)}\n` +
      `  difference: ${(((after.perSecond - before.perSecond) / before.perSecond) * 100).toFixed(1)} % purchases/s, ` +
      `API CPU ${((after.serverMs - before.serverMs) * 1000).toFixed(0)} µs and PostgreSQL CPU ${((after.postgresMs - before.postgresMs) * 1000).toFixed(0)} µs per purchase\n` +
      `  (${os.cpus().length} cores, ${loadAverage()}: a shared machine reads lower; the CPU per purchase is what the load disturbs least)`,
  );

  // The store alone, apart from the purchases (whose CPU per purchase moves with how many share a
  // transaction, decision 027): 20 keys counted as fast as one round trip each allows.
  {
    const Store = databaseRateLimitStore(database.db);
    const store = new Store({}).child({ routeInfo: { method: 'POST', url: '/bench' } } as never);
    const incr = (key: string) =>
      new Promise<void>((resolve, reject) => store.incr(key, (error) => (error ? reject(error) : resolve()), 60_000, 1_000_000));
    let count = 0;
    const postgresBefore = await backendCpuMs();
    const threadBefore = process.threadCpuUsage();
    const started = Date.now();
    await Promise.all(
      keys.map(async (_key, index) => {
        while (Date.now() - started < 5_000) {
          await incr(`api-key:${index}`);
          count += 1;
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const thread = process.threadCpuUsage(threadBefore);
    const postgresMs = cpuBetween(postgresBefore, await backendCpuMs());
    console.log(
      `  the store alone: ${(count / seconds).toFixed(0)} counted requests/s from ${keys.length} keys; per count: ` +
        `${(((thread.user + thread.system) / 1000 / count) * 1000).toFixed(0)} µs of the API's thread, ${((postgresMs / count) * 1000).toFixed(0)} µs of PostgreSQL CPU, one round trip`,
    );
  }

  /** CPU milliseconds used so far by each backend of the bench database (from /proc). */
  async function backendCpuMs(): Promise<Map<number, number>> {
    const rows = ((await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { rows: { pid: number }[] }).rows;
    const used = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // A backend that ended between the two reads.
      }
    }
    return used;
  }
  /** Only the backends alive at both reads count (a pool may close an idle one in between). */
  function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
    let total = 0;
    for (const [pid, used] of after) if (before.has(pid)) total += used - before.get(pid)!;
    return total;
  }
} finally {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}
