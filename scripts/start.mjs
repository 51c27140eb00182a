// `npm start`: builds the web app when its build is missing or older than its sources, then runs the
// API, which serves the built app and the API on one port (B6). Runs on the Node pinned in
// node_modules (npm puts it first on PATH).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureWebBuild, precompressInBackground, webDist } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');

ensureWebBuild();

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { WEB_DIST: webDist, ...process.env },
});

precompressInBackground();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
