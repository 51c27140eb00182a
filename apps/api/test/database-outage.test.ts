import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { buildApp, type App } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { testDatabaseKind } from './helper.ts';
import { freePort } from './free-port.ts';

/**
 * A TCP relay between the API and PostgreSQL that the test can cut (every connection reset, the port
 * closed: what the API sees when the database server goes down) and restore.
 */
async function startRelay(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((inbound) => {
        const outbound = net.connect(target.port, target.host);
        for (const socket of [inbound, outbound]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    port,
    async cut() {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
      server = null;
    },
    restore: listen,
  };
}

// PGlite runs inside the API process: there is no connection to lose, so the outage can only be
// staged against the real PostgreSQL server.
describe.skipIf(testDatabaseKind !== 'postgres')('a database outage on the real PostgreSQL', () => {
  let app: App;
  let handle: DatabaseHandle;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let dataDir = '';
  let databaseName = '';
  let csrf = '';
  let adminToken = '';

  beforeAll(async () => {
    const adminUrl = new URL(inject('postgresAdminUrl'));
    databaseName = `outage_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: `${adminUrl.href}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName} TEMPLATE sf_template`);
    await admin.end();

    relay = await startRelay({ host: adminUrl.hostname, port: Number(adminUrl.port) });
    handle = await openDatabase({ url: `postgres://postgres@127.0.0.1:${relay.port}/${databaseName}`, poolSize: 2 });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-outage-'));
    app = await buildApp({
      env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
      database: handle,
      runScheduler: false,
    });
    await app.ready();
    await seedDemoData(handle.db);
    const probe = await app.inject({ method: 'GET', url: '/api/healthz' });
    csrf = probe.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf },
      payload: { email: 'admin@demo.test', password: 'Demo-Password-2026' },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    adminToken = (signIn.json() as { idToken: string }).idToken;
    expect(adminToken).toBeTruthy();
  });

  afterAll(async () => {
    await app?.close();
    await handle?.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: `${inject('postgresAdminUrl')}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  });

  const read = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-auth-token': adminToken } });

  it('answers 503 with Retry-After while the database is unreachable, and serves again once it is back', async () => {
    expect((await read('/api/public/news')).statusCode).toBe(200);
    expect((await read('/api/admin/me')).statusCode).toBe(200);

    await relay.cut();
    for (const url of ['/api/public/news', '/api/admin/me', '/api/admin/news', '/api/readyz']) {
      const response = await read(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(503);
      expect(response.headers['retry-after'], url).toBe('5');
      expect(response.json().error.code, url).toBe('unavailable');
      // Like every 5xx: a code and a request id, nothing about the driver or the address.
      expect(response.body, url).not.toMatch(/ECONN|127\.0\.0\.1|postgres/i);
    }
    // A write that could not reach the database is refused the same way, not half-done.
    const write = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf },
      payload: { email: 'admin@demo.test', password: 'Demo-Password-2026' },
    });
    expect(write.statusCode, write.body).toBe(503);

    await relay.restore();
    expect((await read('/api/public/news')).statusCode).toBe(200);
    expect((await read('/api/admin/me')).statusCode).toBe(200);
  });

  it('outlives a connection lost in the middle of a transaction, and serves again once the database is back', async () => {
    // A client checked out of the pool, between two statements, when the server goes: before, the
    // driver's 'error' event on it had no listener and ended the process (the cluster drill 4 saw it).
    const transaction = handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await relay.cut();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    await relay.restore();
    expect((await read('/api/admin/me')).statusCode).toBe(200);
  });
});
