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
import { restrictTree } from '../lib/data-dir.ts';
import { onPrimary, ReadRoutingPool, ReplicaMonitor, type ReplicaStatus } from './read-replica.ts';

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
  /** Applies the pending migrations, under the start-up lock (withStartupLock). */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding the start-up lock: a PostgreSQL advisory lock on a connection of its own,
   * so that processes started at the same moment on an empty database migrate it and load its demo data
   * one after the other, each seeing what the one before did (issue 29). Released when `work` ends, or
   * by the server when the process dies. Not reentrant: `work` must not call migrate(). On PGlite (one
   * process) it only runs `work`.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  /** The read replica (DATABASE_READ_URL), or null without one (db/read-replica.ts). */
  replica: ReadReplica | null;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type ReadReplica = {
  status(): ReplicaStatus;
  /** The primary's WAL insert position now (after a caller's write): what the replica must have replayed for them. */
  writePosition(): Promise<string | null>;
};

/** The advisory lock key of the start-up work (any constant; this one reads "SF-start"). */
const STARTUP_LOCK_KEY = '5346000000000001';

async function withAdvisoryLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A lost lock connection surfaces in `work`'s own queries; it must not crash the process meanwhile.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${STARTUP_LOCK_KEY})`);
    return await work();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}

export type DatabaseOptions =
  /** A real PostgreSQL server, and optionally a streaming replica of it for reads. */
  | {
      url: string;
      poolSize?: number;
      onError?: (error: Error) => void;
      readUrl?: string | undefined;
      /** A replica further behind than this is skipped (REPLICA_MAX_LAG_MS). */
      replicaMaxLagMs?: number;
      log?: (level: 'info' | 'warn', message: string, error?: unknown) => void;
    }
  /** The embedded PostgreSQL: a directory to persist to, or an existing PGlite instance (tests). */
  | { pgliteDir: string }
  | { pglite: PGlite };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) {
    const settings = {
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Without a limit a request waits forever for a server that does not answer (a cut network);
      // with one it fails, and is answered 503 with Retry-After (plugins/error-handler.ts).
      connectionTimeoutMillis: 5_000,
    };
    const pool: pg.Pool = options.readUrl ? new ReadRoutingPool(settings) : new pg.Pool(settings);
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on('error', (error) => options.onError?.(error));
    // Nor one checked out (a transaction between two statements, an export's COPY) when its server
    // stops: the driver then emits 'error' on the client, which the pool listens to only while it is
    // idle, and an 'error' nobody listens to ends the process. The work on it fails by itself (its
    // query rejects, or its next one), and the pool drops the broken client when it comes back.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    let replicaPool: pg.Pool | undefined;
    let monitor: ReplicaMonitor | undefined;
    if (options.readUrl && pool instanceof ReadRoutingPool) {
      // A replica that does not answer is skipped quickly: its reads go to the primary.
      replicaPool = new pg.Pool({ ...settings, connectionString: options.readUrl, connectionTimeoutMillis: 2_000 });
      replicaPool.on('error', (error) => options.onError?.(error));
      replicaPool.on('connect', (client) => client.on('error', () => undefined));
      monitor = new ReplicaMonitor(pool, replicaPool, { maxLagMs: options.replicaMaxLagMs ?? 5_000, ...(options.log ? { log: options.log } : {}) });
      pool.attachReplica(replicaPool, monitor);
      await monitor.start();
    }
    const withStartupLock = <T>(work: () => Promise<T>) => withAdvisoryLock(options.url, work);
    return {
      db,
      kind: 'postgres',
      // Two processes migrating an empty database at once both ran CREATE TABLE, and one crashed
      // (duplicate key in pg_type_typname_nsp_index): one at a time, the second finds nothing to do.
      migrate: () => withStartupLock(() => migratePg(db, { migrationsFolder })),
      withStartupLock,
      replica: monitor
        ? {
            status: () => monitor.current(),
            writePosition: async () =>
              (await onPrimary(() => pool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn'))).rows[0]?.lsn ?? null,
          }
        : null,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        await monitor?.stop();
        await replicaPool?.end();
        await pool.end();
      },
    };
  }
  let client: PGlite;
  let ownDir: string | undefined;
  if ('pglite' in options) {
    client = options.pglite;
  } else {
    ownDir = options.pgliteDir;
    await mkdir(ownDir, { recursive: true, mode: 0o700 });
    client = await PGlite.create({ dataDir: ownDir, extensions: PGLITE_EXTENSIONS });
    await restrictTree(ownDir);
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    // PGlite belongs to one process, and its queries run one at a time.
    withStartupLock: (work) => work(),
    replica: null,
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      if (ownDir) await restrictTree(ownDir);
    },
  };
}

/** The database the configuration names: a real server with DATABASE_URL, else PGlite under DATA_DIR. */
export function openDatabaseFromEnv(
  env: { DATABASE_URL?: string | undefined; DATABASE_READ_URL?: string | undefined; REPLICA_MAX_LAG_MS?: number; dataDir: string },
  options: { poolSize?: number; onError?: (error: Error) => void; log?: (level: 'info' | 'warn', message: string, error?: unknown) => void } = {},
): Promise<DatabaseHandle> {
  return openDatabase(
    env.DATABASE_URL
      ? {
          url: env.DATABASE_URL,
          readUrl: env.DATABASE_READ_URL,
          ...(env.REPLICA_MAX_LAG_MS === undefined ? {} : { replicaMaxLagMs: env.REPLICA_MAX_LAG_MS }),
          ...options,
        }
      : { pgliteDir: path.join(env.dataDir, 'pglite') },
  );
}
