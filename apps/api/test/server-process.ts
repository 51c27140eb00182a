import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { compiledServerEntry } from './compiled-server.ts';
import { freePort } from './free-port.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type ServerProcess = {
  baseUrl: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** What the process wrote, for failure messages. */
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
};

/**
 * Starts the REAL server (`server.ts`, compiled once by compiled-server.ts, on the Node running this code) on a free loopback
 * port and waits until /api/readyz answers 200. With the demo staff and news, without the loyalty demo
 * (`npm run bench:server-start` prints what each costs).
 */
export async function startServer(options: {
  dataDir: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** A given port (a process restarted behind a balancer keeps its address); a free one by default. */
  port?: number;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [await compiledServerEntry()], {
    cwd: repoRoot,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ALLOW: '127.0.0.1,::1',
      SCHEDULER_INTERVAL_MS: '60000',
      // The demo staff (admin@demo.test…) and news only: the loyalty demo (~3,000 customers, merchants,
      // programs, rewards, privacy requests, and its ~60,000 ledger entries) adds seconds to every
      // start and no test here needs it. A caller that does passes DEMO_LOYALTY: 'true' in `env`.
      DEMO_LOYALTY: 'false',
      DEMO_LEDGER_ENTRIES: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last 2 MB: a process kept running for hours (npm run cluster) must not grow without end.
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 4_000_000) output = output.slice(-2_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (hasExited) throw new Error(`the server exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready in time:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/readyz`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    child,
    exited,
    output: () => output,
    async stop() {
      if (!hasExited) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A browser-like client: keeps the forgery-protection cookie and echoes it on mutating requests. */
export async function openClient(baseUrl: string) {
  const probe = await fetch(`${baseUrl}/api/healthz`);
  const match = (probe.headers.get('set-cookie') ?? '').match(new RegExp(`${CSRF_COOKIE}=([^;]+)`));
  if (!match?.[1]) throw new Error('no forgery-protection cookie');
  let csrf = match[1];
  return {
    get csrf() {
      return csrf;
    },
    async request(method: string, url: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          cookie: `${CSRF_COOKIE}=${csrf}`,
          [CSRF_HEADER]: csrf,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { 'x-auth-token': options.token } : {}),
          ...options.headers,
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
      // Like a browser: a new cookie (e.g. bound to the session a sign-in started) replaces the old one.
      const renewed = (response.headers.get('set-cookie') ?? '').match(new RegExp(`${CSRF_COOKIE}=([^;]+)`))?.[1];
      if (renewed) csrf = renewed;
      return response;
    },
  };
}

/** A client signed in to `server` as the demo admin (the start's demo staff), with its ID token. */
export async function signedInClient(server: ServerProcess, email = 'admin@demo.test') {
  const client = await openClient(server.baseUrl);
  const signIn = await client.request('POST', '/api/auth/login', { body: { email, password: 'Demo-Password-2026' } });
  if (signIn.status !== 200) throw new Error(`signing in as ${email} answered ${signIn.status}: ${await signIn.text()}\n${server.output()}`);
  const { idToken } = (await signIn.json()) as { idToken: string };
  return { client, token: idToken };
}
