import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compiledServerEntry } from '../../../api/test/compiled-server.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

export type AppServer = {
  url: string;
  dataDir: string;
  /** Stops the server and removes its data directory, unless asked to keep it (the demo template). */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
  /** Stops the server, runs `meanwhile` (what a page does while it is down), then starts it again on the same port and data. */
  whileDown(meanwhile: () => Promise<void>): Promise<void>;
};

export type AppServerSettings = {
  smtpUrl: string;
  /** The built web app to serve (B6). */
  webDist: string;
  /** ID token lifetime in seconds (ID_TOKEN_TTL). */
  idTokenTtlSeconds?: number | undefined;
  /** More settings for the server (e.g. AUTH_PROVIDER=firebase and its emulator). */
  extraEnv?: Record<string, string> | undefined;
  /**
   * A data directory a first start left behind (global-setup.ts): the server starts on a copy of it
   * instead of loading the demo again. Without it, the server makes its own first start.
   */
  copyOfDataDir?: string | undefined;
};

function withoutNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _ignored, ...rest } = env;
  return rest;
}

/** A port nobody listens on right now: the server needs it before it starts, for APP_URL. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${url}/api/readyz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server was not ready within ${timeoutMs} ms:\n${tail(logFile)}`);
}

/**
 * Runs the API as `npm start` does (scripts/start.mjs: the same entry on the same Node, serving the
 * built web app on the same port, B6; the entry compiled once instead of through tsx at every start,
 * apps/api/test/compiled-server.ts) on a fresh data directory — or a copy of the one a first start
 * left (`copyOfDataDir`), which holds exactly the demo data a first start loads. It runs in its own
 * process group so that stopping it leaves nothing behind.
 */
export async function startAppServer(settings: AppServerSettings): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-e2e-'));
  if (settings.copyOfDataDir) {
    // cp -a: the server refuses a data directory that others can read, and Node's cpSync gives the
    // copied folders the umask's modes.
    const copy = spawnSync('cp', ['-a', `${settings.copyOfDataDir}/.`, dataDir]);
    if (copy.status !== 0) throw new Error(`copying ${settings.copyOfDataDir} failed: ${copy.stderr.toString()}`);
    rmSync(path.join(dataDir, 'server.log'), { force: true });
  }
  const logFile = path.join(dataDir, 'server.log');
  const serverEntry = await compiledServerEntry();
  const spawnServer = () => {
    const log = openSync(logFile, 'a');
    const spawned = spawn(process.execPath, [serverEntry], {
      cwd: repositoryRoot,
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        // The API's own NODE_ENV default (development) keeps the demo data on, whatever the runner has.
        ...withoutNodeEnv(process.env),
        WEB_DIST: settings.webDist,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        APP_URL: url,
        SMTP_URL: settings.smtpUrl,
        // Journeys sign in many times from one address; the limit itself is tested in the API suite.
        AUTH_RATE_LIMIT: '1000',
        LOG_LEVEL: 'warn',
        ...(settings.idTokenTtlSeconds ? { ID_TOKEN_TTL: String(settings.idTokenTtlSeconds) } : {}),
        ...settings.extraEnv,
      },
    });
    closeSync(log);
    return spawned;
  };
  let child = spawnServer();

  const stopGroup = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const isExited = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!isExited) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };

  try {
    // Migrations and the demo data's password hashes take a while on a busy two-core machine.
    await waitUntilReady(url, child, logFile, 120_000);
  } catch (error) {
    await stopGroup();
    throw error;
  }

  return {
    url,
    dataDir,
    async stop(options = {}) {
      await stopGroup();
      if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async whileDown(meanwhile) {
      await stopGroup();
      try {
        await meanwhile();
      } finally {
        child = spawnServer();
        await waitUntilReady(url, child, logFile, 120_000);
      }
    },
  };
}
