import os from 'node:os';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../apps/api/src/db/client.ts';
import { seedDemoData } from '../apps/api/src/db/seed.ts';
import { startPostgresServer } from '../apps/api/test/postgres-server.ts';
import { seedLarge } from './loyalty-seed-large.ts';

/** What the database benches share: arguments, percentiles, timing, the machine's load, the data. */

export function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

export function stringArgument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Three warm-up runs, then `samples` timed ones (milliseconds). */
export async function timed(run: () => Promise<unknown>, samples: number): Promise<number[]> {
  for (let i = 0; i < 3; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

/** Figures on a shared machine mean little without its load: printed with each section. */
export const loadAverage = () => `load average ${os.loadavg().map((value) => value.toFixed(1)).join(' / ')}`;

/**
 * The large data set on a real PostgreSQL: started here, migrated, demo data (the admin who signs
 * in), then `seedLarge` (set-based). With `--url postgres://…/db`, a database loaded before the same
 * way is measured instead: the load takes ~10 minutes at the full scale, the measuring ~2, so several
 * benches (and runs) can share one load.
 */
export async function benchDatabase(options: { customers: number; entries: number; poolSize: number }): Promise<{
  url: string;
  database: DatabaseHandle;
  stop: () => Promise<void>;
}> {
  const givenUrl = stringArgument('url');
  if (givenUrl) {
    const client = new pg.Client({ connectionString: givenUrl });
    await client.connect();
    const sizes = await client.query<{ customers: string; entries: string }>(
      `select (select count(*) from customers) as customers, (select count(*) from ledger_entries) as entries`,
    );
    await client.end();
    const { customers, entries } = sizes.rows[0]!;
    console.log(`measuring ${givenUrl}: ${Number(customers).toLocaleString('en')} customers, ${Number(entries).toLocaleString('en')} entries`);
    const database = await openDatabase({ url: givenUrl, poolSize: options.poolSize });
    return { url: givenUrl, database, stop: () => database.close() };
  }
  const fresh = await freshBenchDatabase(options.poolSize);
  try {
    await seedDemoData(fresh.database.db);
    console.log(`loading ${options.customers.toLocaleString('en')} customers and ~${options.entries.toLocaleString('en')} ledger entries (set-based)…`);
    const seeded = await seedLarge(fresh.url, { customers: options.customers, entries: options.entries, log: (line) => console.log(line) });
    console.log(
      `seeded ${seeded.customers.toLocaleString('en')} customers, ${seeded.memberships.toLocaleString('en')} memberships, ` +
        `${seeded.entries.toLocaleString('en')} entries in ${seeded.seconds.toFixed(1)} s`,
    );
    return fresh;
  } catch (error) {
    await fresh.stop();
    throw error;
  }
}

/**
 * The benchmarks' server is set up as a production one would be, not as the tests' throw-away one:
 * durable commits (fsync, synchronous commit, full-page writes) and a quarter of the machine's memory
 * (at most 4 GB) as shared buffers — PostgreSQL's 128 MB default holds 2 % of the large data set, and
 * every other page read became a system call — and room for the WAL between two checkpoints
 * (`max_wal_size`, docs/operations.md): at a thousand purchases a second the ledger writes 20–50 MB of
 * WAL a second, and with the 1 GB default PostgreSQL starts a checkpoint every 20–30 s, after which
 * every page's first change writes the whole page to the WAL again.
 */
const PRODUCTION_SETTINGS = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: `${Math.min(4096, Math.floor(os.totalmem() / 4 / 2 ** 20))}MB`,
  max_wal_size: '8GB',
};

/** An empty, migrated database `bench` on a real PostgreSQL started here (stopped by `stop`). */
export async function freshBenchDatabase(poolSize: number): Promise<{ url: string; database: DatabaseHandle; stop: () => Promise<void> }> {
  const server = await startPostgresServer({ settings: PRODUCTION_SETTINGS });
  try {
    const admin = new pg.Client({ connectionString: `${server.adminUrl}/postgres` });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const url = `${server.adminUrl}/bench`;
    const database = await openDatabase({ url, poolSize });
    await database.migrate();
    return {
      url,
      database,
      stop: async () => {
        await database.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
