import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile, chown } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { initDataDir, postgresBinaries, run, spawnPostgres, type PostgresBinaries } from '../postgres-server.ts';

/**
 * A PostgreSQL primary and a streaming replica of it on loopback, for `npm run cluster` and the
 * cluster drills (the PostgreSQL 18 binaries the tests already use).
 *
 * How the replica is made: the primary's data directory is initialised, then copied before the primary
 * ever starts. A copy of a cleanly stopped cluster is a valid base backup (what `pg_basebackup` would
 * take, without its protocol: those binaries ship no `pg_basebackup`, and Debian's, version 15, refuses
 * a newer server). The copy gets `standby.signal` and streams from the primary's first WAL record on;
 * a physical replication slot keeps the primary's WAL for it while it is stopped.
 *
 * The primary is durable (fsync, synchronous commit, full page writes: the defaults), unlike the tests'
 * throw-away server: drill 4 stops it as a crash would, and what it acknowledged must survive.
 */
export type PostgresNode = {
  port: number;
  url(database?: string): string;
  isRunning(): boolean;
  /** SIGINT (fast shutdown: sessions ended, clean) or SIGQUIT (immediate: as a crash). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  log(): string;
};

export type PostgresCluster = { primary: PostgresNode; replica: PostgresNode; close(): Promise<void> };

const SLOT = 'sf_replica';

function node(binaries: PostgresBinaries, dataDir: string, port: number, settings: Record<string, string>): PostgresNode {
  let server: { child: ChildProcess; log(): string; exited: Promise<void> } | undefined;
  const self = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    isRunning: () => server !== undefined && server.child.exitCode === null && server.child.signalCode === null,
    async stop(mode: 'fast' | 'immediate' = 'fast') {
      if (!server || !self.isRunning()) return;
      server.child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await server.exited;
    },
    async start() {
      server = await spawnPostgres(binaries, dataDir, port, settings);
    },
    log: () => server?.log() ?? '',
  };
  return self;
}

export async function startPostgresCluster(options: { settings?: Record<string, string> } = {}): Promise<PostgresCluster> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'sf-cluster-pg-'));
  const binaries = await postgresBinaries(root);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  await initDataDir(binaries, primaryDir);
  // The base backup: a copy of the stopped, freshly initialised cluster (ownership and modes kept).
  await run('cp', ['-a', primaryDir, replicaDir], null);
  await writeFile(path.join(replicaDir, 'standby.signal'), '');
  if (binaries.ids) await chown(path.join(replicaDir, 'standby.signal'), binaries.ids.uid, binaries.ids.gid);

  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const common = { max_connections: '300', ...options.settings };
  const primary = node(binaries, primaryDir, primaryPort, { ...common, wal_level: 'replica', max_wal_senders: '5' });
  const replica = node(binaries, replicaDir, replicaPort, {
    ...common,
    primary_conninfo: `host=127.0.0.1 port=${primaryPort} user=postgres application_name=${SLOT}`,
    primary_slot_name: SLOT,
    hot_standby: 'on',
    // Queries on the replica hold back the primary's vacuum instead of being cancelled by it.
    hot_standby_feedback: 'on',
    // A restarted primary is found again within a second.
    wal_retrieve_retry_interval: '500ms',
  });
  try {
    await primary.start();
    // Reserved now, before any checkpoint: the slot keeps every WAL record since the copy.
    const client = new pg.Client({ connectionString: primary.url() });
    await client.connect();
    await client.query('select pg_create_physical_replication_slot($1, true)', [SLOT]);
    await client.end();
    await replica.start();
  } catch (error) {
    await replica.stop().catch(() => undefined);
    await primary.stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    primary,
    replica,
    async close() {
      await replica.stop();
      await primary.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Waits until the replica has replayed everything the primary has written so far. */
export async function waitForReplay(cluster: PostgresCluster, timeoutMs = 30_000): Promise<void> {
  const primary = new pg.Client({ connectionString: cluster.primary.url() });
  const replica = new pg.Client({ connectionString: cluster.replica.url() });
  await primary.connect();
  await replica.connect();
  try {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
    const target = rows[0]!.lsn;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const replayed = await replica.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target]);
      if (replayed.rows[0]?.done) return;
      if (Date.now() > deadline) throw new Error(`the replica did not replay ${target} in time`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await primary.end();
    await replica.end();
  }
}
