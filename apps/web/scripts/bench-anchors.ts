/**
 * The anchors of the morning path (issue 32, decision 036): a plain Mantine app and a react-admin app,
 * both answering from memory (`bench/anchors/`), built and served here so that `bench:web --anchors` runs
 * the same journey on them in turns with ours, at the same load. react-admin is installed into its own
 * folder the first time (from its lockfile); the plain Mantine app uses the project's own packages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';

export type Anchor = {
  label: string;
  url: string;
  /** Where the anchor's sign-in form is (react-admin's own page is /login). */
  loginPath: string;
  /** Its menu's link to the customers list (react-admin's menu is no `<nav>`). */
  menuSelector: string;
  stop: () => Promise<void>;
};

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const anchorsDir = path.join(projectRoot, 'bench/anchors');

const ANCHORS = [
  { folder: 'plain-mantine', label: 'plain Mantine', loginPath: '/auth/login', menuSelector: 'nav a[href="/customers"]', ownPackages: false },
  { folder: 'react-admin', label: 'react-admin', loginPath: '/login', menuSelector: 'a[href="/customers"]', ownPackages: true },
] as const;

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };

/** A build's files, and its index.html for every other path (the apps route in the browser). */
async function serve(dist: string): Promise<{ server: Server; url: string }> {
  const index = await readFile(path.join(dist, 'index.html'));
  const server = createServer((request, response) => {
    const file = path.join(dist, path.normalize(new URL(request.url ?? '/', 'http://anchor').pathname));
    const send = (status: number, type: string, body: Buffer) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache' });
      response.end(body);
    };
    void stat(file)
      .then((info) => (info.isFile() && file.startsWith(dist) ? readFile(file) : null))
      .catch(() => null)
      .then((body) => (body ? send(200, CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', body) : send(200, 'text/html', index)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the anchor server has no port');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

export async function startAnchors(): Promise<Anchor[]> {
  const anchors: Anchor[] = [];
  for (const anchor of ANCHORS) {
    const folder = path.join(anchorsDir, anchor.folder);
    if (anchor.ownPackages && !existsSync(path.join(folder, 'node_modules'))) {
      console.log(`Installing the ${anchor.label} anchor's packages (once)…`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'inherit' });
    }
    const dist = mkdtempSync(path.join(os.tmpdir(), `sf-anchor-${anchor.folder}-`));
    execFileSync('npx', ['vite', 'build', '--config', path.join(folder, 'vite.config.ts'), '--outDir', dist, '--emptyOutDir'], {
      cwd: projectRoot,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const { server, url } = await serve(dist);
    anchors.push({
      label: anchor.label,
      url,
      loginPath: anchor.loginPath,
      menuSelector: anchor.menuSelector,
      stop: async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(dist, { recursive: true, force: true });
      },
    });
  }
  return anchors;
}
