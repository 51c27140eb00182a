import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { freshDatabase } from '../../test/helper.ts';
import { buildApp, type App } from '../app.ts';
import { loadEnv } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { databaseRateLimitStore, rateLimitJobs, RATE_LIMIT_CLEANUP_JOB } from './rate-limit-store.ts';

/**
 * Issue 29: the rate limits count in the database, so that a limit holds across API processes. Two
 * apps on one database stand for two processes.
 */
describe('rate limits shared by every API process', () => {
  let database: { handle: DatabaseHandle; drop: () => Promise<void> };
  let dataDir: string;
  let apps: App[];

  beforeAll(async () => {
    database = await freshDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-rate-limit-'));
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT: '5', CSRF_SECRET: 'r'.repeat(40) });
    apps = [await buildApp({ env, database: database.handle, runScheduler: false }), await buildApp({ env, database: database.handle, runScheduler: false })];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await database?.handle.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 429 to the sixth attempt in a minute from one address with a limit of 5, whichever process gets it', async () => {
    const probe = await apps[0]!.inject({ method: 'GET', url: '/api/healthz' });
    const csrf = probe.cookies.find((cookie) => cookie.name === CSRF_COOKIE)!.value;
    const forgot = (app: App) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: 'nobody@demo.test' },
        headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER.toLowerCase()]: csrf },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await forgot(apps[attempt % 2]!)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const app of apps) {
      const limited = await forgot(app);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('starts a new window once the last has ended, and its cleanup job deletes ended windows', async () => {
    const Store = databaseRateLimitStore(apps[0]!.db);
    const store = new Store({}).child({ routeInfo: { method: 'GET', url: '/test' } } as never);
    const incr = (windowMs: number) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr('203.0.113.7', (error, result) => (error ? reject(error) : resolve(result!)), windowMs, 10),
      );
    expect((await incr(300)).current).toBe(1);
    const second = await incr(300);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await incr(300)).current).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));

    const cleanup = rateLimitJobs(apps[0]!).handlers[RATE_LIMIT_CLEANUP_JOB]!;
    expect(await cleanup({})).toMatchObject({ deleted: 1 });
    const left = (await apps[0]!.db.execute(sql`select key from rate_limit_hits`)) as unknown as { rows: { key: string }[] };
    // The minute-long windows of the first test are still running.
    expect(left.rows.map((row) => row.key)).toEqual(['POST /api/auth/forgot-password|127.0.0.1']);
  });
});
