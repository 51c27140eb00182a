import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq, type SQL } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { CSRF_COOKIE, CSRF_HEADER, type Language } from '@sf/contract/app-info';
import type { ConsentPurpose } from '@sf/contract/customers';
import { buildApp, type App, type AppOptions } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { openDatabase, PGLITE_EXTENSIONS, type DatabaseHandle } from '../src/db/client.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { users } from '../src/db/schema.ts';
import { createSession } from '../src/identity/sessions.ts';
import type { Clock } from '../src/lib/clock.ts';
import { createJobRunner, type JobRunner } from '../src/lib/job-runner.ts';
import type { Mailer } from '../src/lib/mailer.ts';

/** Which database this run of the API suite uses: set per Vitest project (vitest.config.ts). */
export const testDatabaseKind = (process.env['TEST_DB'] ?? 'pglite') as 'pglite' | 'postgres';

let migratedDump: Promise<Blob> | undefined;

/**
 * The project's global setup migrated one PGlite for the whole run and dumped its data directory
 * (pglite-global-setup.ts); each test database starts from that dump instead of migrating again.
 */
const migratedPgliteDump = () => (migratedDump ??= readFile(inject('pgliteMigratedDump')).then((bytes) => new Blob([bytes])));

async function freshPglite(): Promise<PGlite> {
  return PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: await migratedPgliteDump() });
}

/** A database of this run's kind, migrated; `drop` removes it (after the handle is closed). */
export async function freshDatabase(
  options: { poolSize?: number; readUrl?: string } = {},
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (testDatabaseKind === 'pglite') {
    const handle = await openDatabase({ pglite: await freshPglite() });
    return { handle, drop: async () => undefined };
  }
  const database = await createTemplateDatabase('t');
  const handle = await openDatabase({ url: database.url, poolSize: options.poolSize ?? 5, readUrl: options.readUrl });
  return { handle, drop: database.drop };
}

/**
 * A database of its own on the tests' PostgreSQL server, copied from the migrated template (the global
 * setup's `sf_template`): for a file that opens its own pools or starts server processes on it. Drop it
 * when done (connections still open are ended).
 */
export async function createTemplateDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE sf_template`);
  await admin.end();
  return {
    url: `${adminUrl}/${name}`,
    drop: async () => {
      const client = new pg.Client({ connectionString: `${adminUrl}/postgres` });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A database of this run's kind, migrated, for a test that starts REAL server processes on it
 * (server-process.ts) and opens it itself between them: on PGlite a DATA_DIR whose embedded database is
 * the global setup's migrated dump (a first start would spend seconds migrating it in WebAssembly), on
 * PostgreSQL a database of its own from the template. `env` goes to `startServer`; `open()` is for
 * fixtures and checks while no server holds it (PGlite belongs to one process); `remove()` drops it all.
 */
export type ServerDatabase = {
  dataDir: string;
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  remove(): Promise<void>;
};

export async function createServerDatabase(label: string): Promise<ServerDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `sf-${label}-`));
  if (testDatabaseKind === 'postgres') {
    const database = await createTemplateDatabase(label.replace(/\W/g, '_'));
    return {
      dataDir,
      env: { DATABASE_URL: database.url },
      open: () => openDatabase({ url: database.url, poolSize: 1 }),
      async remove() {
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const pgliteDir = path.join(dataDir, 'pglite');
  await mkdir(pgliteDir, { mode: 0o700 });
  await (await PGlite.create({ dataDir: pgliteDir, extensions: PGLITE_EXTENSIONS, loadDataDir: await migratedPgliteDump() })).close();
  return {
    dataDir,
    env: {},
    // Through openDatabase, like the server: it keeps DATA_DIR private (0700), or the server refuses to start.
    open: () => openDatabase({ pgliteDir }),
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}

export type TestContext = {
  app: App;
  dataDir: string;
  /** `inject` with a valid forgery-protection cookie and header, and an optional ID token. */
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Mints an ID token for a seeded account (skips the sign-in round trip). */
  tokenFor(email: string, options?: { ttlSeconds?: number; now?: Date }): Promise<string>;
  close(): Promise<void>;
};

export type TestOptions = {
  env?: Record<string, string>;
  clock?: Clock;
  mailer?: Mailer;
  /** Load the demo users and posts (default true). */
  seed?: boolean;
  /** Passed to buildApp: sees every route as it is registered. */
  onRoute?: AppOptions['onRoute'];
  /** Passed to buildApp (default: no logging). */
  logger?: AppOptions['logger'];
  /** Adds routes to the built app before it is ready (e.g. a streamed answer no module has yet). */
  extend?: (app: App) => void;
};

/** Builds the whole app on a fresh database of this run's kind; close() removes everything. */
export async function createTestContext(options: TestOptions = {}): Promise<TestContext> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-api-test-'));
  const { handle, drop } = await freshDatabase();
  const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env });
  const app = await buildApp({
    env,
    database: handle,
    runScheduler: false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  options.extend?.(app);
  await app.ready();
  if (options.seed ?? true) await seedDemoData(handle.db);

  const probe = await app.inject({ method: 'GET', url: '/api/healthz' });
  const csrfCookie = probe.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';

  return {
    app,
    dataDir,
    request({ token, headers, ...rest }) {
      // Like the browser after its sign-in: a forgery-protection cookie bound to the token's session.
      const sid = token ? decodeJwt(token).sid : undefined;
      const csrf = typeof sid === 'string' ? app.csrfTokenFor(sid) : csrfCookie;
      return app.inject({
        ...rest,
        headers: {
          cookie: `${CSRF_COOKIE}=${csrf}`,
          [CSRF_HEADER.toLowerCase()]: csrf,
          ...(token ? { 'x-auth-token': token } : {}),
          ...headers,
        },
      } as InjectOptions);
    },
    async tokenFor(email, tokenOptions = {}) {
      const [account] = await app.db.select().from(users).where(eq(users.email, email)).limit(1);
      if (!account) throw new Error(`no account ${email}`);
      // A real sign-in behind the token: the guard requires its session to be live.
      const { sessionId } = await createSession(app.db, account.id, tokenOptions.now ?? app.clock.now());
      return app.tokenSigner.sign(
        { sub: account.id, email: account.email, name: account.displayName, role: account.role ?? null, sid: sessionId },
        tokenOptions,
      );
    },
    async close() {
      await app.close();
      await handle.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The rows of a raw SQL query, typed as the test expects them. */
export async function selectRows<T>(app: Pick<App, 'db'>, query: SQL): Promise<T[]> {
  return ((await app.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A job runner on the test app's database with no timer: it works only when the test calls
 * `tick()`. Two of them on one database stand for two processes.
 */
export function manualJobRunner(app: Pick<App, 'db' | 'log'>, options: Pick<Parameters<typeof createJobRunner>[0], 'handlers' | 'every' | 'leaseSeconds'>): JobRunner {
  return createJobRunner({ db: app.db, log: app.log, intervalMs: 1000, isAutomatic: false, ...options });
}

/** One pass of a runner with these handlers over the jobs due now, then stopped: "the job runner ran". */
export async function runJobsOnce(app: Pick<App, 'db' | 'log'>, handlers: Parameters<typeof createJobRunner>[0]['handlers']) {
  const runner = manualJobRunner(app, { handlers });
  try {
    return await runner.tick();
  } finally {
    await runner.stop();
  }
}

/** A consent as staff record it at the counter, for customers a test creates. */
export const TEST_CONSENT = { granted: true, channel: 'counter', noticeVersion: '2026-01' } as const;

/** A multipart body (form fields, then a CSV file) as a browser would send an import's upload. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; content: string }): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----sf-test-upload';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  if (file) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`);
  }
  return { payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A customer created through the API as the back-office creates one: `<first name>@example.it`
 * (unless `email: false`), the consents listed (default the service one), the language when given.
 */
export async function createTestCustomer(
  ctx: Pick<TestContext, 'request'>,
  token: string,
  firstName: string,
  options: { lastName?: string; email?: boolean; consents?: readonly ConsentPurpose[]; language?: Language; programId?: string } = {},
): Promise<{ id: string; version: number }> {
  const consents = Object.fromEntries((options.consents ?? ['service']).map((purpose) => [purpose, TEST_CONSENT]));
  const response = await ctx.request({
    method: 'POST',
    url: '/api/admin/customers',
    token,
    payload: {
      firstName,
      lastName: options.lastName ?? 'Prova',
      ...((options.email ?? true) ? { email: `${firstName.toLowerCase()}@example.it` } : {}),
      ...(options.language ? { language: options.language } : {}),
      ...(options.programId ? { programId: options.programId } : {}),
      consents,
    },
  });
  if (response.statusCode !== 201) throw new Error(`customer ${firstName} not created: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; version: number };
}
