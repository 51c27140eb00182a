import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { createLedgerFixture, type LedgerFixture } from '../ledger-fixtures.ts';
import { CLUSTER_DATABASE, startCluster, type Cluster } from './cluster.ts';
import { percentile, sleep, startReaders, startTills, type TillStats } from './load.ts';
import { waitForReplay } from './postgres-cluster.ts';

/**
 * Issue 29's fault drills 1–5, on one cluster (cluster.ts: PostgreSQL primary + streaming replica, two
 * API processes, HAProxy with deploy/haproxy.cfg), one after the other: each drill leaves the cluster
 * whole for the next, and each checks its own outcome. Drill 6 needs none of it and runs beside them
 * (start-up.test.ts). Every drill prints its figures (requests, failures,
 * retries, time to recover). `npm run test:cluster`.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PASSWORD = 'Demo-Password-2026';
const TILLS = 20;
const READ_PATHS = [
  '/api/admin/customers?pageSize=25',
  '/api/admin/ledger?pageSize=25',
  '/api/admin/dashboard',
  '/api/admin/merchants?pageSize=25',
  '/api/admin/audit?pageSize=25',
];

/** A browser-like client: keeps every cookie it is given and echoes the forgery-protection token. */
function cookieClient(baseUrl: string) {
  const jar = new Map<string, string>();
  const request = async (method: string, url: string, options: { body?: unknown; token?: string; to?: string } = {}) => {
    const csrf = jar.get(CSRF_COOKIE);
    const response = await fetch(`${options.to ?? baseUrl}${url}`, {
      method,
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(csrf ? { [CSRF_HEADER]: csrf } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { 'x-auth-token': options.token } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair!.indexOf('=');
      jar.set(pair!.slice(0, separator), pair!.slice(separator + 1));
    }
    return response;
  };
  return { jar, request };
}

function runLedgerVerify(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'ledger:verify'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function tillFigures(name: string, stats: TillStats, seconds: number, extra = ''): void {
  const failures = Object.values(stats.failures).reduce((sum, n) => sum + n, 0);
  console.log(
    `[drill] ${name}: ${stats.requests} requests in ${seconds.toFixed(1)} s, ${stats.acknowledged.length} purchases acknowledged ` +
      `(${(stats.acknowledged.length / seconds).toFixed(0)}/s, p50 ${percentile(stats.latenciesMs, 50)} ms, p99 ${percentile(stats.latenciesMs, 99)} ms), ` +
      `${failures} failed answers ${JSON.stringify(stats.failures)}, ${stats.retries} retries, ${stats.replayed} replayed` +
      (stats.networkErrors.length > 0 ? ` (cut: ${stats.networkErrors.join('; ')})` : '') +
      (stats.firstFailureAt === null ? '' : `, failures from ${(stats.firstFailureAt / 1000).toFixed(1)} s to ${((stats.lastFailureAt ?? 0) / 1000).toFixed(1)} s`) +
      extra,
  );
}

describe('cluster drills (issue 29)', () => {
  let cluster: Cluster;
  let database: DatabaseHandle;
  let fixture: LedgerFixture;
  let cards: string[];
  let keys: string[];
  let adminToken: string;
  const acknowledgedSoFar: string[] = [];

  const query = async <T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  /** Each purchase the tills were acknowledged (in this drill and the ones before) is in the ledger once, and nothing else is. */
  const expectEachPurchaseOnce = async () => {
    const rows = await query<{ key: string; n: number }>(
      cluster.databaseUrl,
      `select split_part(idempotency_key, ':', 3) as key, count(*)::int as n from ledger_entries where idempotency_key like 'int:%' group by 1`,
    );
    expect(rows.filter((row) => row.n !== 1)).toEqual([]);
    const inLedger = new Set(rows.map((row) => row.key));
    expect(acknowledgedSoFar.filter((key) => !inLedger.has(key))).toEqual([]);
    expect(inLedger.size).toBe(acknowledgedSoFar.length);
  };

  /** Tills through the balancer; what they were acknowledged is counted whatever the drill's outcome. */
  const tills = () => {
    const load = startTills({ baseUrl: cluster.baseUrl, keys, cards, programId: fixture.pointsProgramId });
    const stop = load.stop;
    load.stop = async () => {
      const stats = await stop();
      acknowledgedSoFar.push(...stats.acknowledged);
      return stats;
    };
    return load;
  };
  /** The balancer's own log (errors and retried requests only), for a drill that failed. */
  const balancerLog = () => `\nHAProxy:\n${cluster.haproxy.output().slice(-3000)}`;
  const readyz = async (baseUrl: string) => (await fetch(`${baseUrl}/api/readyz`)).json() as Promise<{ status: string; replica?: { state: string } }>;
  const replicaReads = async () =>
    Number(
      (
        await query<{ n: string }>(cluster.postgres.replica.url(), `select tup_returned + tup_fetched as n from pg_stat_database where datname = $1`, [
          CLUSTER_DATABASE,
        ])
      )[0]?.n ?? 0,
    );

  beforeAll(async () => {
    const started = Date.now();
    cluster = await startCluster({ env: { DEMO_LOYALTY: 'false', AUTH_RATE_LIMIT: '30', INTEGRATION_RATE_LIMIT: '100000', REPLICA_MAX_LAG_MS: '3000' } });
    database = await openDatabase({ url: cluster.databaseUrl, poolSize: 2 });
    fixture = await createLedgerFixture(database.db, { customers: 300 });
    cards = (await query<{ card_number: string }>(cluster.databaseUrl, 'select card_number from customers')).map((row) => row.card_number);

    const admin = cookieClient(cluster.baseUrl);
    await admin.request('GET', '/api/healthz');
    const signIn = await admin.request('POST', '/api/auth/login', { body: { email: 'admin@demo.test', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    adminToken = ((await signIn.json()) as { idToken: string }).idToken;
    keys = [];
    for (let i = 0; i < TILLS; i += 1) {
      const created = await admin.request('POST', '/api/admin/api-keys', {
        token: adminToken,
        body: { name: `Cassa ${i + 1}`, kind: 'merchant', merchantId: fixture.merchantId, scopes: ['purchases:write'] },
      });
      expect(created.status).toBe(201);
      keys.push(((await created.json()) as { secret: string }).secret);
    }
    console.log(`[drill] cluster up and loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.close();
  }, 60_000);

  it('1. an API process killed (SIGKILL) at 10 s and restarted at 20 s under 30 s of purchases: each written exactly once, ledger:verify passes', async () => {
    const load = tills();
    await sleep(10_000);
    const killedAt = Date.now();
    await cluster.apis[0]!.kill();
    await cluster.haproxy.waitForStates({ api1: 'DOWN' });
    const markedDownMs = Date.now() - killedAt;
    await sleep(Math.max(0, killedAt + 10_000 - Date.now()));
    const restartedAt = Date.now();
    await cluster.apis[0]!.start();
    await cluster.haproxy.waitForStates({ api1: 'UP' });
    const backMs = Date.now() - restartedAt;
    await sleep(Math.max(0, load.startedAt + 30_000 - Date.now()));
    const stats = await load.stop();
    tillFigures('1 SIGKILL', stats, (Date.now() - load.startedAt) / 1000, `; api1 marked down ${markedDownMs} ms after the kill, back in rotation ${backMs} ms after its restart`);

    expect(stats.givenUp).toEqual([]);
    await expectEachPurchaseOnce();
    const verified = await runLedgerVerify(cluster.databaseUrl);
    expect(verified.code, verified.output).toBe(0);
  }, 180_000);

  it('2. a rolling restart (SIGTERM, wait until it serves again, then the other) under the same load: no request fails', async () => {
    const load = tills();
    await sleep(3_000);
    const timings: string[] = [];
    const exits: (number | null)[] = [];
    const outputs: string[] = [];
    for (const [index, api] of cluster.apis.entries()) {
      const name = `api${index + 1}`;
      const began = Date.now();
      exits.push(await api.stop());
      outputs.push(api.output().slice(-2000));
      const stoppedAfter = Date.now() - began;
      await api.start();
      await cluster.haproxy.waitForStates({ [name]: 'UP' });
      timings.push(`${name} ${((Date.now() - began) / 1000).toFixed(1)} s (exit ${exits.at(-1)} after ${(stoppedAfter / 1000).toFixed(1)} s)`);
    }
    await sleep(2_000);
    const stats = await load.stop();
    tillFigures('2 rolling restart', stats, (Date.now() - load.startedAt) / 1000, `; restart to back in rotation: ${timings.join(', ')}`);

    expect(stats.failures, `${stats.networkErrors.join('; ')}${balancerLog()}\n${outputs.join('\n')}`).toEqual({});
    expect(stats.retries).toBe(0);
    // Each drained and closed by itself (1: its close took too long and was forced).
    expect(exits, outputs.join('\n')).toEqual([0, 0]);
    await expectEachPurchaseOnce();
  }, 180_000);

  it('3. the replica stopped under load: no read fails, reads go to the primary; restarted: reads return to it', async () => {
    const writes = tills();
    const reads = startReaders({ baseUrl: cluster.baseUrl, token: adminToken, readers: 4, paths: READ_PATHS });
    await sleep(3_000);
    const onReplicaBefore = await replicaReads();
    await sleep(1_000);
    // Rows the lists read there (the lag poll reads none).
    expect((await replicaReads()) - onReplicaBefore).toBeGreaterThan(1000);

    const stoppedAt = Date.now();
    await cluster.postgres.replica.stop('fast');
    const okAtStop = reads.stats.ok;
    await sleep(4_000);
    const servedWhileDown = reads.stats.ok - okAtStop;
    const degraded = await Promise.all(cluster.apis.map((api) => readyz(api.baseUrl)));
    expect(degraded.map((answer) => [answer.status, answer.replica?.state])).toEqual([
      ['degraded', 'down'],
      ['degraded', 'down'],
    ]);

    const restartedAt = Date.now();
    await cluster.postgres.replica.start();
    let returnedMs = -1;
    while (Date.now() - restartedAt < 20_000) {
      const states = await Promise.all(cluster.apis.map((api) => readyz(api.baseUrl)));
      if (states.every((state) => state.status === 'ready')) {
        returnedMs = Date.now() - restartedAt;
        break;
      }
      await sleep(100);
    }
    expect(returnedMs).toBeGreaterThanOrEqual(0);
    const onReplicaAfter = await replicaReads();
    await sleep(2_000);
    const readsOnReplicaAgain = (await replicaReads()) - onReplicaAfter;
    const readStats = await reads.stop();
    const writeStats = await writes.stop();
    console.log(
      `[drill] 3 replica stopped: ${readStats.requests} reads (p50 ${percentile(readStats.latenciesMs, 50)} ms, p99 ${percentile(readStats.latenciesMs, 99)} ms), ` +
        `failures ${JSON.stringify(readStats.failures)}; ${servedWhileDown} reads served by the primary in the 4 s the replica was down ` +
        `(stopped ${((restartedAt - stoppedAt) / 1000).toFixed(1)} s); back in use ${returnedMs} ms after its restart, then ${readsOnReplicaAgain} rows read on it in 2 s`,
    );
    tillFigures('3 replica stopped (writes)', writeStats, (Date.now() - writes.startedAt) / 1000);

    expect(readStats.failures, balancerLog()).toEqual({});
    expect(servedWhileDown).toBeGreaterThan(0);
    expect(readsOnReplicaAgain).toBeGreaterThan(1000);
    expect(writeStats.failures).toEqual({});
    await expectEachPurchaseOnce();
  }, 180_000);

  it('3b. read-your-writes: after a change its author reads it at once, while the replica is behind; a replica lagging past REPLICA_MAX_LAG_MS is skipped', async () => {
    await waitForReplay(cluster.postgres);
    const author = cookieClient(cluster.baseUrl);
    await author.request('GET', '/api/healthz');
    const signIn = await author.request('POST', '/api/auth/login', { body: { email: 'admin@demo.test', password: PASSWORD } });
    const token = ((await signIn.json()) as { idToken: string }).idToken;
    const merchant = (await (await author.request('GET', `/api/admin/merchants/${fixture.merchantId}`, { token })).json()) as { version: number };
    const signName = async (client: ReturnType<typeof cookieClient>) => {
      const page = (await (await client.request('GET', '/api/admin/merchants?pageSize=100', { token })).json()) as { items: { id: string; signName: string }[] };
      return page.items.find((item) => item.id === fixture.merchantId)?.signName;
    };
    const other = cookieClient(cluster.baseUrl);

    // The replica stops applying the primary's changes (it is behind from now on).
    await query(cluster.postgres.replica.url(), 'select pg_wal_replay_pause()');
    try {
      const changed = await author.request('PATCH', `/api/admin/merchants/${fixture.merchantId}`, { token, body: { signName: 'Bar Nuovo', version: merchant.version } });
      expect(changed.status).toBe(200);
      expect(author.jar.has('sf_read_after')).toBe(true);
      // Through either process: the author's list reads the primary, another reader the replica.
      expect(await signName(author)).toBe('Bar Nuovo');
      expect(await signName(author)).toBe('Bar Nuovo');
      expect(await signName(other)).toBe('Bar Centrale');
      // The exports too (a COPY on the replica); an audited one records its audit entry on the primary.
      const exported = async (client: ReturnType<typeof cookieClient>, url: string) => {
        const response = await client.request('GET', url, { token });
        expect(response.status).toBe(200);
        return response.text();
      };
      expect(await exported(author, '/api/admin/merchants/export.csv')).toContain('Bar Nuovo');
      expect(await exported(other, '/api/admin/merchants/export.csv')).toContain('Bar Centrale');
      const audited = async () =>
        Number((await query<{ n: string }>(cluster.databaseUrl, `select count(*) as n from audit_log where action = 'export'`))[0]?.n);
      const exportsBefore = await audited();
      expect(await exported(other, '/api/admin/customers/export.csv')).toContain('Rossi');
      expect(await audited()).toBe(exportsBefore + 1);
      // Past REPLICA_MAX_LAG_MS (3 s here) the replica is skipped: everyone reads the primary.
      await sleep(4_500);
      expect((await readyz(cluster.baseUrl)).replica?.state).toBe('lagging');
      expect(await signName(other)).toBe('Bar Nuovo');
    } finally {
      await query(cluster.postgres.replica.url(), 'select pg_wal_replay_resume()');
    }
    const resumed = Date.now();
    while ((await readyz(cluster.apis[0]!.baseUrl)).status !== 'ready' || (await readyz(cluster.apis[1]!.baseUrl)).status !== 'ready') {
      expect(Date.now() - resumed).toBeLessThan(10_000);
      await sleep(100);
    }
    expect(await signName(other)).toBe('Bar Nuovo');
  }, 60_000);

  it('4. the primary restarted (as a crash) under load: writes answer 503 with Retry-After while it is down, nothing acknowledged is lost, service resumes by itself', async () => {
    const load = tills();
    await sleep(5_000);
    const stoppedAt = Date.now();
    await cluster.postgres.primary.stop('immediate');
    await sleep(5_000);
    const restartedAt = Date.now();
    await cluster.postgres.primary.start();
    const acknowledgedAtRestart = load.stats.acknowledged.length;
    // Measured apart: the balancer's view of the service, and the tills' (which wait Retry-After).
    const [inRotationMs, resumedMs] = await Promise.all([
      cluster.haproxy.waitForStates({ api1: 'UP', api2: 'UP' }, 60_000).then(() => Date.now() - restartedAt),
      (async () => {
        while (load.stats.acknowledged.length === acknowledgedAtRestart) {
          expect(Date.now() - restartedAt).toBeLessThan(60_000);
          await sleep(50);
        }
        return Date.now() - restartedAt;
      })(),
    ]);
    await sleep(3_000);
    const stats = await load.stop();
    tillFigures(
      '4 primary restarted',
      stats,
      (Date.now() - load.startedAt) / 1000,
      `; primary down ${((restartedAt - stoppedAt) / 1000).toFixed(1)} s; after its restart both processes back in rotation in ${inRotationMs} ms, ` +
        `the first purchase acknowledged in ${resumedMs} ms (the tills wait Retry-After: 5 s); ${stats.unavailableWithRetryAfter} answers 503 with Retry-After`,
    );

    const failures = Object.entries(stats.failures);
    expect(failures.length).toBeGreaterThan(0);
    // Every failed answer was a 503 that said when to come back.
    expect(failures.map(([status]) => status)).toEqual(['503']);
    expect(stats.unavailableWithRetryAfter).toBe(stats.failures['503']);
    expect(stats.givenUp).toEqual([]);
    await expectEachPurchaseOnce();
    const verified = await runLedgerVerify(cluster.databaseUrl);
    expect(verified.code, verified.output).toBe(0);
  }, 180_000);

  it('5. with two processes and AUTH_RATE_LIMIT=30, the 31st attempt in a minute from one address is 429, whichever process gets it', async () => {
    const client = cookieClient(cluster.baseUrl);
    await client.request('GET', '/api/healthz');
    const attempt = (to?: string) =>
      client.request('POST', '/api/auth/forgot-password', { body: { email: 'nobody@demo.test' }, ...(to ? { to } : {}) });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await attempt()).status);
    const limited = await Promise.all([attempt(), attempt(cluster.apis[0]!.baseUrl), attempt(cluster.apis[1]!.baseUrl)]);
    console.log(`[drill] 5 shared rate limit: attempts 1–30 answered ${[...new Set(statuses)].join(', ')}; the 31st through HAProxy and directly to each process: ${limited.map((r) => r.status).join(', ')}`);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(limited.map((response) => response.status)).toEqual([429, 429, 429]);
  });
});
