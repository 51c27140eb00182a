/**
 * `npm run bench [-- --db=postgres] [-- --duration=8 --connections=10 --posts=3000] [-- --cpu-prof=DIR]`
 *
 * Loads ~3000 news posts into a throw-away database, starts the REAL server as a child process and
 * measures three routes from loopback with autocannon: the bare health check, the token lookup
 * (ID-token verification + one account read) and an authenticated news page. Fails loudly on any
 * non-2xx answer, so a broken route cannot pass for a fast one.
 */
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../apps/api/src/db/client.ts';
import { seedDemoData, DEMO_PASSWORD } from '../apps/api/src/db/seed.ts';
import { newsPosts, users } from '../apps/api/src/db/schema.ts';
import { openClient, startServer, type ServerProcess } from '../apps/api/test/server-process.ts';
import { startPostgresServer, type PostgresServer } from '../apps/api/test/postgres-server.ts';

type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

// autocannon ships no type declarations; its programmatic API is this one call.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    posts: { type: 'string', default: '3000' },
    // Writes the server's V8 CPU profile (.cpuprofile, open in Chrome DevTools) to this directory.
    'cpu-prof': { type: 'string' },
    // Only the routes whose name contains this text (e.g. `user-by-token`), to profile one of them.
    only: { type: 'string' },
  },
});
// `npm run bench -- --db=postgres` from the root reaches this script as npm's own config variable.
const kind = (values.db === 'postgres' || process.env['npm_config_db'] === 'postgres') ? 'postgres' : 'pglite';
// The same for the other options given through `npm run bench -- --name=value`.
const profileDir = values['cpu-prof'] ?? process.env['npm_config_cpu_prof'];
const onlyRoute = values.only ?? process.env['npm_config_only'];
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const postCount = Number(values.posts);

/** A real PostgreSQL server started for this run, the same way the API tests start theirs. */
async function startPostgres(): Promise<{ url: string; server: PostgresServer }> {
  const server = await startPostgresServer();
  const admin = new pg.Client({ connectionString: `${server.adminUrl}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE sf_bench');
  await admin.end();
  return { url: `${server.adminUrl}/sf_bench`, server };
}

async function loadData(database: DatabaseHandle) {
  await database.migrate();
  await seedDemoData(database.db);
  const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.test'));
  if (!admin) throw new Error('the seed made no admin');
  const now = Date.now();
  const statuses = ['draft', 'scheduled', 'published', 'archived'] as const;
  for (let start = 0; start < postCount; start += 500) {
    const rows = Array.from({ length: Math.min(500, postCount - start) }, (_, offset) => {
      const index = start + offset;
      const status = statuses[index % statuses.length] ?? 'draft';
      return {
        title: `Notizia di prova numero ${index}`,
        summary: `Sommario della notizia ${index}: offerte, premi e novità del circuito.`,
        body: `<p>Testo della notizia ${index}. ${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>`,
        status,
        publishAt: status === 'draft' ? null : new Date(now + (status === 'scheduled' ? 1 : -1) * (index + 1) * 60_000),
        pinned: index % 97 === 0,
        authorId: admin.id,
        createdAt: new Date(now - index * 3_600_000),
        updatedAt: new Date(now - index * 1_800_000),
      };
    });
    await database.db.insert(newsPosts).values(rows);
  }
}

/**
 * CPU time the API process has used so far (user + system, from /proc), so that each route's cost per
 * request can be read apart from the machine's load: req/s swings with whatever else runs on a shared
 * machine, CPU per request much less. PostgreSQL's own work is not in it.
 */
function serverCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat(5), counted from the state field (3) here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS_PER_SECOND = 100;

function formatRow(cells: string[], widths: number[]) {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-'));
  let postgres: PostgresServer | undefined;
  let server: ServerProcess | undefined;
  try {
    const env: Record<string, string> = { LOG_LEVEL: 'warn', DEMO_DATA: 'false' };
    if (profileDir) env['NODE_OPTIONS'] = `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}`;
    let database: DatabaseHandle;
    if (kind === 'postgres') {
      const started = await startPostgres();
      postgres = started.server;
      env['DATABASE_URL'] = started.url;
      database = await openDatabase({ url: started.url, poolSize: 2 });
    } else {
      database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    }
    const loadStarted = performance.now();
    await loadData(database);
    await database.close();
    console.log(`database: ${kind}, ${postCount} extra news posts loaded in ${Math.round(performance.now() - loadStarted)} ms`);

    server = await startServer({ dataDir, env, readyTimeoutMs: 60_000 });
    const client = await openClient(server.baseUrl);
    const signIn = await client.request('POST', '/api/auth/login', { body: { email: 'admin@demo.test', password: DEMO_PASSWORD } });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const { idToken } = (await signIn.json()) as { idToken: string };

    const auth = { 'x-auth-token': idToken, 'content-type': 'application/json' };
    const targets = [
      { name: 'GET /api/healthz', url: '/api/healthz', headers: {} },
      { name: 'GET /api/admin/user-by-token', url: `/api/admin/user-by-token?token=${encodeURIComponent(idToken)}`, headers: auth },
      { name: 'GET /api/admin/news?pageSize=25', url: '/api/admin/news?pageSize=25', headers: auth },
    ];

    const results: { name: string; result: AutocannonResult; cpuPerRequest: number }[] = [];
    for (const target of targets.filter(({ name }, index) => index === 0 || !onlyRoute || name.includes(onlyRoute))) {
      const options = { url: `${server.baseUrl}${target.url}`, connections, headers: target.headers };
      await autocannon({ ...options, duration: warmup });
      const cpuBefore = serverCpuMs(server.child.pid);
      const result = await autocannon({ ...options, duration });
      const cpuPerRequest = ((serverCpuMs(server.child.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
      results.push({ name: target.name, result, cpuPerRequest });
    }

    const bare = results[0]?.result.requests.average ?? 1;
    const widths = [34, 10, 9, 9, 9, 8, 14];
    console.log(`\n${connections} connections, ${duration} s per route after ${warmup} s of warm-up, ${os.cpus().length} CPUs\n`);
    console.log(formatRow(['route', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx', 'API CPU µs/req'], widths));
    for (const { name, result, cpuPerRequest } of results) {
      console.log(
        formatRow(
          [
            name,
            result.requests.average.toFixed(0),
            String(result.latency.p50),
            String(result.latency.p99),
            `${((result.requests.average / bare) * 100).toFixed(0)}%`,
            String(result.non2xx + result.errors + result.timeouts),
            cpuPerRequest.toFixed(0),
          ],
          widths,
        ),
      );
    }
    const failed = results.filter(({ result }) => result.non2xx + result.errors + result.timeouts > 0 || result.requests.total === 0);
    if (failed.length > 0) {
      throw new Error(`non-2xx answers, errors or no requests on: ${failed.map(({ name }) => name).join(', ')}`);
    }
  } finally {
    if (server) {
      const code = await server.stop();
      if (code !== 0) console.error(`the server exited with ${code}:\n${server.output()}`);
    }
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
