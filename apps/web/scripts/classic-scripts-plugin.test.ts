import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicScripts } from './classic-scripts-plugin.ts';

/**
 * A small app built with the plugin, then run in Debian's Chromium: an entry with CSS and a static import,
 * and two `import()`s that share a chunk and bring CSS of their own.
 */
const FIXTURE: Record<string, string> = {
  'index.html': '<!doctype html><html><head><title>fixture</title></head><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
  'main.js': [
    "import './main.css';",
    "import { greeting } from './greeting.js';",
    "document.getElementById('root').textContent = greeting;",
    "window.fixture = Promise.all([import('./later.js'), import('./other.js')]).then(([later, other]) => ({ later: later.shout(), other: other.whisper(), resolved: later.resolved }));",
    `import { retryFailedChunks } from ${JSON.stringify(path.join(import.meta.dirname, '../src/lib/chunk-retry.ts'))};`,
    'retryFailedChunks();',
    "window.loadOnDemand = () => import('./on-demand.js').then((module) => module.answer);",
  ].join('\n'),
  'main.css': '#root { color: rgb(1, 2, 3); }',
  'greeting.js': "export const greeting = 'ciao';",
  'later.js': [
    "import './later.css';",
    "import { words } from './shared.js';",
    "export const shout = () => words.map((word) => word.toUpperCase()).join(' ');",
    "export const resolved = import.meta.resolve('./elsewhere.js');",
  ].join('\n'),
  'later.css': 'body { background: rgb(4, 5, 6); }',
  'other.js': "import { words } from './shared.js';\nexport const whisper = () => words.join(' ');",
  'shared.js': "export const words = ['buon', 'giorno'];",
  'on-demand.js': "import './on-demand.css';\nimport { helper } from './on-demand-helper.js';\nexport const answer = helper();",
  'on-demand-helper.js': "export const helper = () => 'arrived';",
  'on-demand.css': 'h1 { color: rgb(7, 8, 9); }',
};

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

describe('classicScripts (the build as classic scripts loaded by SystemJS; decision 010)', () => {
  let root = '';
  let server: Server | undefined;
  let browser: Browser | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'sf-classic-scripts-'));
    for (const [name, content] of Object.entries(FIXTURE)) await writeFile(path.join(root, name), content);
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [classicScripts()],
      build: { outDir: path.join(root, 'dist'), sourcemap: true, minify: true },
    });
    server = createServer((request, response) => {
      const file = path.join(root, 'dist', new URL(request.url ?? '/', 'http://x').pathname);
      response.setHeader('content-type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
      createReadStream(file)
        .on('error', () => response.writeHead(404).end())
        .pipe(response);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
    // A real build and a real browser: ~3 s alone, but beside the suite's other files on two cores it
    // once took more than the default 10 s (a fresh-clone CI run, 2026-11-27) and failed for nothing.
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await rm(root, { recursive: true, force: true });
  });

  it('writes every chunk as System.register, and an index.html with one deferred classic script and no module', async () => {
    const html = await readFile(path.join(root, 'dist', 'index.html'), 'utf8');
    expect(html).toMatch(/<script defer src="\/assets\/start-[\w-]+\.js"><\/script>/);
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain('modulepreload');
    const scripts = (await readdir(path.join(root, 'dist', 'assets'))).filter((name) => name.endsWith('.js'));
    const chunks = scripts.filter((name) => !name.startsWith('start-'));
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const name of chunks) {
      const code = await readFile(path.join(root, 'dist', 'assets', name), 'utf8');
      expect(code.startsWith('System.register('), name).toBe(true);
      // The source map still belongs to the rewritten file.
      expect(code).toMatch(new RegExp(`//# sourceMappingURL=${name.replace('.', '\\.')}\\.map$`));
      expect(JSON.parse(await readFile(path.join(root, 'dist', 'assets', `${name}.map`), 'utf8')).file).toBe(name);
    }
  });

  it('runs in Chromium: styles applied, both imports answered, each script fetched once and never as a module', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const fetched: { url: string; type: string }[] = [];
    page.on('request', (request) => fetched.push({ url: new URL(request.url()).pathname, type: request.resourceType() }));
    await page.goto(`${baseUrl}/index.html`);
    const result = await page.evaluate(() => (window as unknown as { fixture: Promise<unknown> }).fixture);

    expect(errors).toEqual([]);
    expect(result).toEqual({ later: 'BUON GIORNO', other: 'buon giorno', resolved: `${baseUrl}/assets/elsewhere.js` });
    expect(await page.locator('#root').textContent()).toBe('ciao');
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('root')!).color)).toBe('rgb(1, 2, 3)');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(4, 5, 6)');
    const scriptRequests = fetched.filter((request) => request.url.endsWith('.js')).map((request) => request.url);
    // Once each: a classic-script preload and the script element that follows it share one response.
    expect(scriptRequests.length).toBeGreaterThanOrEqual(5);
    expect(new Set(scriptRequests).size).toBe(scriptRequests.length);
    expect(await page.evaluate(() => document.querySelectorAll('script[type="module"], link[rel="modulepreload"]').length)).toBe(0);
    await page.close();
  });

  it('downloads again an import that failed while the server was down, its stylesheet included (with src/lib/chunk-retry.ts)', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${baseUrl}/index.html`);
    await page.evaluate(() => (window as unknown as { fixture: Promise<unknown> }).fixture);
    const loadOnDemand = () => page.evaluate(() => (window as unknown as { loadOnDemand: () => Promise<string> }).loadOnDemand());
    await page.route(/\/assets\/on-demand/, (route) => route.abort('connectionrefused'));
    await expect(loadOnDemand()).rejects.toThrow();

    await page.unroute(/\/assets\/on-demand/);
    expect(await loadOnDemand()).toBe('arrived');
    await page.evaluate(() => document.body.append(document.createElement('h1')));
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('h1')!).color)).toBe('rgb(7, 8, 9)');
    expect(errors).toEqual([]);
    await page.close();
  });
});
