import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { startServer, type ServerProcess } from '../server-process.ts';
import { startHaproxy, type Haproxy } from './haproxy.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

/**
 * The whole of "beyond one machine" on one machine (issue 29): a PostgreSQL primary and its streaming
 * replica, API processes sharing JWT_PRIVATE_JWK, CSRF_SECRET, API_KEY_PEPPER and CARD_CODE_SECRET, each reading on the
 * replica (DATABASE_READ_URL), and HAProxy with deploy/haproxy.cfg in front. `npm run cluster` runs it
 * for a person; the cluster drills (`npm run test:cluster`) run it and break parts of it.
 */
export type ApiNode = {
  name: string;
  port: number;
  baseUrl: string;
  isRunning(): boolean;
  pid(): number | undefined;
  /** Starts the process (again) on its port; resolves once it is ready. */
  start(): Promise<void>;
  /** SIGTERM: drains (SHUTDOWN_DELAY_MS) and exits. */
  stop(): Promise<number | null>;
  /** SIGKILL: gone at once, requests in flight cut. */
  kill(): Promise<void>;
  output(): string;
};

export type Cluster = {
  postgres: PostgresCluster;
  apis: ApiNode[];
  haproxy: Haproxy;
  /** Where clients connect: the balancer. */
  baseUrl: string;
  databaseUrl: string;
  readUrl: string;
  /** The environment the API processes share (secrets, database addresses). */
  apiEnv: Record<string, string>;
  close(): Promise<void>;
};

export const CLUSTER_DATABASE = 'sf';

/** Settings every API process of a cluster shares: the secrets several processes must agree on. */
export function sharedSecrets(): Record<string, string> {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return {
    JWT_PRIVATE_JWK: JSON.stringify(jwk),
    CSRF_SECRET: randomBytes(32).toString('base64url'),
    API_KEY_PEPPER: randomBytes(32).toString('base64url'),
    CARD_CODE_SECRET: randomBytes(32).toString('base64url'),
  };
}

function apiNode(name: string, port: number, dataDir: string, env: Record<string, string>): ApiNode {
  let server: ServerProcess | undefined;
  let hasExited = true;
  return {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    isRunning: () => !hasExited,
    pid: () => (hasExited ? undefined : server?.child.pid),
    async start() {
      server = await startServer({ dataDir, port, env, readyTimeoutMs: 180_000 });
      hasExited = false;
      void server.exited.then(() => (hasExited = true));
    },
    async stop() {
      return server && !hasExited ? server.stop() : null;
    },
    async kill() {
      if (!server || hasExited) return;
      server.child.kill('SIGKILL');
      await server.exited;
    },
    output: () => server?.output() ?? '',
  };
}

export async function startCluster(
  options: {
    /** Where HAProxy listens (loopback); a free port by default. */
    port?: number;
    /** More API settings (e.g. DEMO_LOYALTY, AUTH_RATE_LIMIT). */
    env?: Record<string, string>;
    /** Called with each step, for a person watching. */
    progress?: (step: string) => void;
  } = {},
): Promise<Cluster> {
  const progress = options.progress ?? (() => undefined);
  const root = await mkdtemp(path.join(os.tmpdir(), 'sf-cluster-'));
  progress('PostgreSQL primary and streaming replica');
  const postgres = await startPostgresCluster();
  const cleanups: (() => Promise<unknown>)[] = [() => postgres.close(), () => rm(root, { recursive: true, force: true })];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const admin = new pg.Client({ connectionString: postgres.primary.url() });
    await admin.connect();
    await admin.query(`create database ${CLUSTER_DATABASE}`);
    await admin.end();

    const databaseUrl = postgres.primary.url(CLUSTER_DATABASE);
    const readUrl = postgres.replica.url(CLUSTER_DATABASE);
    const apiEnv: Record<string, string> = {
      ...sharedSecrets(),
      DATABASE_URL: databaseUrl,
      DATABASE_READ_URL: readUrl,
      // HAProxy is the proxy (option forwardfor): the rate limits count the client's address.
      TRUST_PROXY: '127.0.0.1',
      // Every client here is on loopback: nobody is exempt from the limits (the tests' default is).
      RATE_LIMIT_ALLOW: '',
      // Above HAProxy's inter × fall (1 s × 2): the balancer stops sending before the process closes.
      SHUTDOWN_DELAY_MS: '3000',
      LOG_LEVEL: 'warn',
      ...options.env,
    };
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port, index) => apiNode(`api${index + 1}`, port, path.join(root, `api${index + 1}`), apiEnv));
    cleanups.push(async () => {
      for (const api of apis) await api.kill();
    });
    progress('two API processes (started together: migrations and demo data under the start-up lock)');
    await Promise.all(apis.map((api) => api.start()));

    progress('HAProxy (deploy/haproxy.cfg)');
    const haproxy = await startHaproxy({
      port: options.port ?? (await freePort()),
      servers: [`127.0.0.1:${ports[0]}`, `127.0.0.1:${ports[1]}`],
      socket: path.join(root, 'haproxy.sock'),
    });
    cleanups.push(() => haproxy.stop());
    await haproxy.waitForStates({ api1: 'UP', api2: 'UP' });
    return { postgres, apis, haproxy, baseUrl: haproxy.baseUrl, databaseUrl, readUrl, apiEnv, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
