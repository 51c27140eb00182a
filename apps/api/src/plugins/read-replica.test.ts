import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { freshDatabase, testDatabaseKind } from '../../test/helper.ts';
import { freePort } from '../../test/free-port.ts';
import { buildApp, type App } from '../app.ts';
import { loadEnv } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { seedDemoData } from '../db/seed.ts';
import { users } from '../db/schema.ts';
import { createSession } from '../identity/sessions.ts';
import { READ_AFTER_COOKIE } from './read-replica.ts';

/**
 * DATABASE_READ_URL naming a replica that does not answer: the app serves every read from the primary
 * and says `degraded`, never failing. Its writes hand back the primary's WAL position (read-your-
 * writes). A real replica is exercised by the cluster drills (`npm run test:cluster`). PGlite has no
 * replica, so this runs on PostgreSQL only.
 */
describe.skipIf(testDatabaseKind === 'pglite')('a read replica that is down', () => {
  let database: { handle: DatabaseHandle; drop: () => Promise<void> };
  let app: App;
  let dataDir: string;
  let token: string;
  let csrf: string;

  beforeAll(async () => {
    database = await freshDatabase({ readUrl: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere` });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-replica-down-'));
    app = await buildApp({ env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), database: database.handle, runScheduler: false });
    await app.ready();
    await seedDemoData(app.db);
    const [admin] = await app.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    const { sessionId } = await createSession(app.db, admin!.id, new Date());
    token = await app.tokenSigner.sign({ sub: admin!.id, email: admin!.email, name: admin!.displayName, role: 'admin', sid: sessionId });
    csrf = app.csrfTokenFor(String(decodeJwt(token).sid));
  });
  afterAll(async () => {
    await app?.close();
    await database?.handle.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const staff = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, ...(payload ? { payload } : {}), headers: { 'x-auth-token': token, cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf } });

  it('stays ready (200) and says degraded, naming the replica down', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'degraded', database: 'postgres', replica: { state: 'down', lagMs: null } });
  });

  it('serves the lists, their exports and the dashboard from the primary', async () => {
    for (const url of ['/api/admin/merchants', '/api/admin/audit', '/api/admin/dashboard', '/api/admin/merchants/export.csv']) {
      expect((await staff('GET', url)).statusCode, url).toBe(200);
    }
  });

  it("gives a staff write's author the primary's WAL position after it, and a read nothing", async () => {
    const created = await staff('POST', '/api/admin/merchants', {
      legalName: 'Forno Rossi S.r.l.',
      vatNumber: '01234567897',
      category: 'bakery',
      address: { street: 'Via Po 2', city: 'Torino', province: 'TO', postalCode: '10123' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const cookie = created.cookies.find((entry) => entry.name === READ_AFTER_COOKIE);
    expect(cookie).toMatchObject({ path: '/api', httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.value).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect((await staff('GET', '/api/admin/merchants')).cookies.find((entry) => entry.name === READ_AFTER_COOKIE)).toBeUndefined();
  });
});
