import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The configuration the docs recommend for production (docs/operations.md "Beyond one machine"). */
export const HAPROXY_CONFIG = path.join(repoRoot, 'deploy/haproxy.cfg');

export const HAPROXY_MISSING =
  'HAProxy is not installed. On Debian or Ubuntu: `sudo apt-get install -y haproxy` (2.6 or later), then run this again.';

/** Debian installs it in /usr/sbin, which an ordinary user's PATH may lack. */
function haproxyCommand(): string | null {
  for (const candidate of ['haproxy', '/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return null;
}

export function hasHaproxy(): boolean {
  return haproxyCommand() !== null;
}

export type Haproxy = {
  baseUrl: string;
  /** Each server's state as the balancer sees it: `UP`, `DOWN`, `MAINT`, or a transition (`UP 1/2`). */
  serverStates(): Promise<Record<string, string>>;
  waitForStates(expected: Record<string, 'UP' | 'DOWN'>, timeoutMs?: number): Promise<void>;
  output(): string;
  stop(): Promise<void>;
};

/** Asks HAProxy's runtime API (its stats socket) one command. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socket);
    let answer = '';
    connection.on('connect', () => connection.write(`${command}\n`));
    connection.on('data', (chunk) => (answer += chunk.toString()));
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
  });
}

/** Runs Debian's `haproxy` in the foreground with deploy/haproxy.cfg, listening on loopback `port`. */
export async function startHaproxy(options: { port: number; servers: [string, string]; socket: string }): Promise<Haproxy> {
  const command = haproxyCommand();
  if (!command) throw new Error(HAPROXY_MISSING);
  const child = spawn(command, ['-db', '-f', HAPROXY_CONFIG], {
    env: {
      PATH: process.env['PATH'] ?? '',
      SF_HAPROXY_BIND: `127.0.0.1:${options.port}`,
      SF_API1: options.servers[0],
      SF_API2: options.servers[1],
      SF_HAPROXY_SOCKET: options.socket,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const serverStates = async () => {
    const csv = await ask(options.socket, 'show stat');
    const [header, ...lines] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name));
    const states: Record<string, string> = {};
    for (const line of lines) {
      const cells = line.split(',');
      if (cells[proxy!] === 'api' && cells[server!] !== 'BACKEND') states[cells[server!]!] = cells[status!]!;
    }
    return states;
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`);
    try {
      await serverStates();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`haproxy did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    baseUrl: `http://127.0.0.1:${options.port}`,
    serverStates,
    async waitForStates(expected, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const states = await serverStates();
        if (Object.entries(expected).every(([name, state]) => states[name] === state)) return;
        if (Date.now() > until) throw new Error(`haproxy servers ${JSON.stringify(states)}, expected ${JSON.stringify(expected)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
