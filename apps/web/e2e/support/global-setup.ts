import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAppServer } from './app-server.ts';
import { startSmtpCatcher } from '../../../../tools/test-support/smtp-catcher.ts';

const webRoot = path.resolve(import.meta.dirname, '../..');
const repositoryRoot = path.resolve(webRoot, '../..');

/** Environment variable through which the workers learn where the journeys' own web build is. */
export const E2E_WEB_DIST = 'SF_E2E_WEB_DIST';
/** Optional: an existing build (e.g. apps/web/dist in CI) to serve instead of building one. */
export const E2E_PREBUILT_WEB = 'SF_E2E_PREBUILT_WEB';
/** Environment variable naming the data directory of one first start, which the workers' servers copy. */
export const E2E_DEMO_DATA_DIR = 'SF_E2E_DEMO_DATA_DIR';

/**
 * One first start of the server (migrations, the demo staff, the loyalty demo with its ~60,000 ledger
 * entries and the bonuses then due), stopped cleanly: a worker's server starts on a copy of its data
 * directory. A journey still meets exactly what a newcomer's `npm start` loads, and the suite loads it
 * once instead of at every server start (each start loaded it again: about half a minute each, five
 * or more per run with the restarts after a failure and the specs with their own settings).
 */
async function firstStartDataDir(webDist: string): Promise<{ dataDir: string; remove(): void }> {
  const smtp = await startSmtpCatcher();
  try {
    const server = await startAppServer({ smtpUrl: smtp.url, webDist });
    await server.stop({ keepDataDir: true });
    return { dataDir: server.dataDir, remove: () => rmSync(server.dataDir, { recursive: true, force: true }) };
  } finally {
    await smtp.close();
  }
}

/**
 * Builds the web app from the current sources into a private folder that the journeys' servers serve.
 * Not apps/web/dist: `npm start`, `npm run size` or a developer's build rewrite that folder, and a
 * server whose files vanish mid-run answers a bare 404 instead of the app.
 */
export default async function globalSetup(): Promise<() => void> {
  const web = buildWeb();
  const demo = await firstStartDataDir(process.env[E2E_WEB_DIST]!);
  process.env[E2E_DEMO_DATA_DIR] = demo.dataDir;
  return () => {
    demo.remove();
    web.remove();
  };
}

function buildWeb(): { remove(): void } {
  // CI builds the app once (`npm run build`) for the journeys and `bench:web --no-build` alike, and
  // names that build here; the folder is then served as it is and left in place afterwards.
  const prebuilt = process.env[E2E_PREBUILT_WEB];
  if (prebuilt) {
    if (!existsSync(path.join(prebuilt, 'index.html'))) throw new Error(`${E2E_PREBUILT_WEB}=${prebuilt} holds no built web app (index.html)`);
    process.env[E2E_WEB_DIST] = path.resolve(prebuilt);
    return { remove: () => undefined };
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'sf-e2e-web-'));
  const { NODE_ENV: _ignored, ...env } = process.env;
  const build = spawnSync(
    process.execPath,
    [path.join(repositoryRoot, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    // A production build whatever NODE_ENV the runner has.
    { cwd: webRoot, stdio: 'inherit', env },
  );
  if (build.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error(`The web build failed (exit ${build.status ?? build.signal})`);
  }
  process.env[E2E_WEB_DIST] = outDir;
  return { remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
