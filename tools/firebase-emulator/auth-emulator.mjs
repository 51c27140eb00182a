// Starts the Firebase Auth emulator (firebase-tools, installed here by `npm run firebase:install`) on
// free ports, for the Firebase provider's API tests (vitest global setup) and browser journey. Offline,
// no Java. Plain JavaScript: the API tests and the Playwright journeys both import it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const here = import.meta.dirname;
const firebaseBin = path.join(here, 'node_modules/firebase-tools/lib/bin/firebase.js');

export const INSTALL_COMMAND = 'npm run firebase:install';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * @param {{ projectId?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ host: string, projectId: string, stop(): Promise<void> }>}
 */
export async function startAuthEmulator(options = {}) {
  if (!existsSync(firebaseBin)) {
    throw new Error(
      `The Firebase Auth emulator is not installed (no ${path.relative(process.cwd(), firebaseBin)}): run \`${INSTALL_COMMAND}\` once ` +
        '(about 390 MB, kept out of the default npm install; CI runs it before npm test).',
    );
  }
  const projectId = options.projectId ?? 'demo-sf-test';
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(tmpdir(), 'sf-firebase-emulator-'));
  // Every port ours: several runs (and developers) on one machine must not collide on 9099/4400/4500.
  writeFileSync(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: auth },
        hub: { host: '127.0.0.1', port: hub },
        logging: { host: '127.0.0.1', port: logging },
        ui: { enabled: false },
      },
    }),
  );
  const logFile = path.join(dir, 'emulator.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [firebaseBin, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', 'firebase.json'], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', log, log],
    // CI=1: no fetch of the CLI's message of the day (there is no network to wait for); its config in our folder.
    // The emulator inherits the environment; it reads no setting of ours.
    // eslint-disable-next-line no-restricted-syntax
    env: { ...process.env, CI: '1', XDG_CONFIG_HOME: dir, NODE_ENV: '' },
  });
  closeSync(log);
  const host = `127.0.0.1:${auth}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const answer = await fetch(`http://${host}/`);
      if (answer.ok) return { host, projectId, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  await stop();
  throw new Error(`The Firebase Auth emulator did not start:\n${tail}`);
}
