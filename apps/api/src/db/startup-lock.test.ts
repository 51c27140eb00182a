import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { testDatabaseKind } from '../../test/helper.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';
import { seedDemoData } from './seed.ts';

/**
 * Issue 29: processes started at the same moment on an EMPTY database (no template: nothing migrated)
 * each migrate it and load the demo data. Without the start-up lock two of them ran the same CREATE
 * TABLE and one crashed. (The cluster drills start three real processes so; this is the cheap check.)
 * PGlite belongs to one process, so there is nothing to race there: the suite runs on PostgreSQL only.
 */
describe.skipIf(testDatabaseKind === 'pglite')('start-up with several processes on an empty database', () => {
  const handles: DatabaseHandle[] = [];
  const name = `empty_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: `${inject('postgresAdminUrl')}/postgres` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('migrates once and seeds once when three processes start together', async () => {
    await admin(`CREATE DATABASE ${name}`);
    for (let i = 0; i < 3; i += 1) handles.push(await openDatabase({ url: `${inject('postgresAdminUrl')}/${name}`, poolSize: 2 }));
    await Promise.all(handles.map((handle) => handle.migrate()));
    const seeded = await Promise.all(handles.map((handle) => handle.withStartupLock(() => seedDemoData(handle.db))));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const counted = (await handles[0]!.db.execute(
      sql`select (select count(*)::int from users) as users, (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
    )) as unknown as { rows: { users: number; migrations: number }[] };
    expect(counted.rows[0]!.users).toBe(3);
    expect(counted.rows[0]!.migrations).toBeGreaterThanOrEqual(20);
  });
});
