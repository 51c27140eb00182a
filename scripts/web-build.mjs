// The built web app that the API serves (B6), for `npm start` and `npm run cluster`: built when it is
// missing or older than its sources, and its compressed copies made beside the running server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const webDist = path.join(root, 'apps/web/dist');
const builtIndex = path.join(webDist, 'index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds the web app when its build is missing or stale; exits the process if the build fails. */
export function ensureWebBuild() {
  const webSources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/public', 'packages/contract/src'].map(
    (entry) => path.join(root, entry),
  );
  const isBuildStale = !existsSync(builtIndex) || Math.max(...webSources.map(newestMtime)) > statSync(builtIndex).mtimeMs;
  if (!isBuildStale) return;
  console.log('Building the web app (first start or sources changed)…');
  // Always a production build, whatever NODE_ENV the server itself runs with.
  // Without the brotli/gzip step (a third of the build's time): it runs below, once the server starts.
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', SF_PRECOMPRESS: 'later' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * The compressed copies the server prefers (decision record 010), made beside the running server at the
 * lowest CPU priority so that they do not slow its start; until a file's copies exist (each appears
 * whole, by rename) the server sends that file as it is. Stopped when this process exits.
 */
export function precompressInBackground() {
  if (existsSync(`${builtIndex}.br`)) return;
  const precompress = [path.join(root, 'apps/web/scripts/precompress.mjs'), webDist];
  const hasNice = spawnSync('nice', ['true']).status === 0;
  const compressor = hasNice
    ? spawn('nice', ['-n', '19', process.execPath, ...precompress], { cwd: root, stdio: 'inherit' })
    : spawn(process.execPath, precompress, { cwd: root, stdio: 'inherit' });
  process.on('exit', () => compressor.kill());
}
