import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from '../postgres-server.ts';
import { startServer } from '../server-process.ts';
import { sharedSecrets } from './cluster.ts';

/**
 * Issue 29's drill 6, beside the other drills (it needs no balancer nor replica, only an empty
 * database): three real API processes started at the same moment on it all become ready, and the
 * migrations and demo data are there once (before, one of two such processes crashed on a duplicate
 * CREATE TABLE).
 */
describe('cluster drill 6 (issue 29)', () => {
  let server: PostgresServer;
  let dataRoot: string;

  beforeAll(async () => {
    server = await startPostgresServer();
    dataRoot = await mkdtemp(path.join(os.tmpdir(), 'sf-drill6-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
  });

  it('6. three processes started at the same moment on an empty database all become ready', async () => {
    const admin = new pg.Client({ connectionString: `${server.adminUrl}/postgres` });
    await admin.connect();
    await admin.query('create database sf_empty');
    await admin.end();
    const env = { ...sharedSecrets(), DATABASE_URL: `${server.adminUrl}/sf_empty`, DEMO_LOYALTY: 'false' };
    const started = Date.now();
    const results = await Promise.allSettled([1, 2, 3].map((n) => startServer({ dataDir: path.join(dataRoot, `api${n}`), env, readyTimeoutMs: 120_000 })));
    const readyMs = Date.now() - started;
    const processes = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      const client = new pg.Client({ connectionString: `${server.adminUrl}/sf_empty` });
      await client.connect();
      const { rows } = await client.query<{ users: number; migrations: number }>(
        'select (select count(*)::int from users) as users, (select count(*)::int from drizzle.__drizzle_migrations) as migrations',
      );
      await client.end();
      console.log(
        `[drill] 6 three processes on an empty database: ${processes.length} of 3 ready in ${(readyMs / 1000).toFixed(1)} s; ` +
          `${rows[0]?.users} demo accounts, ${rows[0]?.migrations} migrations applied`,
      );
      expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ready'))).toEqual(['ready', 'ready', 'ready']);
      expect(rows[0]?.users).toBe(3);
    } finally {
      await Promise.all(processes.map((process) => process.stop()));
    }
  }, 180_000);
});
