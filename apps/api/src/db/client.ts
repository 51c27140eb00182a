import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';

/**
 * Extensions the embedded PostgreSQL loads, so that it runs the same migrations as a real server
 * (pg_trgm: the customers' contains search). Every PGlite the app or the tests create uses these.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Both drivers expose the same Drizzle query builder; the node-postgres type stands for both so that
 * repositories are written once.
 */
export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A repository function runs on the database or inside a caller's transaction. */
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  /** A real PostgreSQL server. */
  | { url: string; poolSize?: number; onError?: (error: Error) => void }
  /** The embedded PostgreSQL: a directory to persist to, or an existing PGlite instance (tests). */
  | { pgliteDir: string }
  | { pglite: PGlite };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on('error', (error) => options.onError?.(error));
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if ('pglite' in options) {
    client = options.pglite;
  } else {
    await mkdir(options.pgliteDir, { recursive: true });
    client = await PGlite.create({ dataDir: options.pgliteDir, extensions: PGLITE_EXTENSIONS });
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** The database the configuration names: a real server with DATABASE_URL, else PGlite under DATA_DIR. */
export function openDatabaseFromEnv(
  env: { DATABASE_URL?: string | undefined; dataDir: string },
  options: { poolSize?: number; onError?: (error: Error) => void } = {},
): Promise<DatabaseHandle> {
  return openDatabase(
    env.DATABASE_URL
      ? { url: env.DATABASE_URL, ...options }
      : { pgliteDir: path.join(env.dataDir, 'pglite') },
  );
}
