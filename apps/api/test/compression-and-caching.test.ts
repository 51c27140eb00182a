import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Readable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX_HTML = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<!-- padding -->'.repeat(40)}</body></html>`;
const ENTRY_JS = `console.log(${JSON.stringify('the entry chunk '.repeat(200))});`;
const CSV_ROWS = 2000;

/**
 * A web build as Vite writes it (vite.config.ts): each text file next to its `.br` and `.gz` copies.
 * The copies are made here with zlib, so the test knows which bytes each encoding must deliver.
 */
async function writeWebBuild(root: string) {
  await mkdir(path.join(root, 'assets'), { recursive: true });
  const files: Array<[string, string]> = [
    ['index.html', INDEX_HTML],
    ['assets/index-AbC123.js', ENTRY_JS],
  ];
  for (const [name, content] of files) {
    await writeFile(path.join(root, name), content);
    await writeFile(path.join(root, `${name}.br`), brotliCompressSync(content));
    await writeFile(path.join(root, `${name}.gz`), gzipSync(content));
  }
  // An unhashed file without compressed copies (robots.txt, favicon…): revalidated, sent as is.
  await writeFile(path.join(root, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
}

function decode(encoding: string | undefined, raw: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
}

/** A raw HTTP/1.1 GET on a real socket: no client-side decompression, headers as sent on the wire. */
function getRaw(port: number, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

describe('compression and caching of what the browser receives', () => {
  let ctx: TestContext;
  let webRoot: string;
  let editor: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(os.tmpdir(), 'sf-web-build-'));
    await writeWebBuild(webRoot);
    ctx = await createTestContext({
      env: { WEB_DIST: webRoot },
      // A streamed CSV answer, the way exports send theirs: rows as they come, no Content-Length.
      extend: (app) => {
        app.get('/api/test-stream.csv', { config: { access: 'public' } }, async (_request, reply) => {
          const rows = (function* () {
            yield 'id;name\n';
            for (let index = 0; index < CSV_ROWS; index += 1) yield `${index};Cliente ${index}\n`;
          })();
          return reply.type('text/csv; charset=utf-8').send(Readable.from(rows));
        });
      },
    });
    editor = await ctx.tokenFor('editor@demo.test');
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
  ])('sends a hashed asset pre-compressed for Accept-Encoding "%s", cached for a year as immutable', async (accept, encoding) => {
    const response = await ctx.request({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(String(response.headers['vary']).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.rawPayload.length).toBeLessThan(ENTRY_JS.length / 5);
    expect(decode(encoding, response.rawPayload)).toBe(ENTRY_JS);
  });

  it('sends a hashed asset as is to a client that accepts no compression', async () => {
    const response = await ctx.request({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body).toBe(ENTRY_JS);
  });

  it.each(['/auth/login', '/news', '/api-keys', '/index.html'])('sends index.html for %s compressed and always revalidated', async (url) => {
    const response = await ctx.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(decode('br', response.rawPayload)).toBe(INDEX_HTML);
  });

  it('revalidates an unhashed file that has no compressed copy', async () => {
    const response = await ctx.request({ method: 'GET', url: '/robots.txt', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('Disallow');
  });

  it('answers a conditional request for an asset with 304', async () => {
    const first = await ctx.request({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br' } });
    const etag = first.headers['etag'] as string;
    expect(etag).toBeTruthy();
    const again = await ctx.request({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('compresses a large JSON answer and leaves a small one alone', async () => {
    const large = await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=100', token: editor, headers: { 'accept-encoding': 'br, gzip' } });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(String(large.headers['vary']).toLowerCase()).toContain('accept-encoding');
    expect(large.headers['cache-control']).toBe('no-store');
    const page = JSON.parse(decode('br', large.rawPayload)) as { items: unknown[] };
    expect(page.items.length).toBeGreaterThan(0);

    const gzip = await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=100', token: editor, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode('gzip', gzip.rawPayload))).toEqual(page);

    const small = await ctx.request({ method: 'GET', url: '/api/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toBeTruthy();
  });

  it('keeps the public feed ETag over the plain body: compressed 200, then an empty 304', async () => {
    const plain = await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100', headers: { 'accept-encoding': 'identity' } });
    const compressed = await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100', headers: { 'accept-encoding': 'br' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(decode('br', compressed.rawPayload)).toBe(plain.body);
    const etag = compressed.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(etag).toBe(plain.headers['etag']);

    const notModified = await ctx.request({
      method: 'GET',
      url: '/api/public/news?pageSize=100',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a streamed CSV answer whole, row by row', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/test-stream.csv', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const lines = decode('gzip', response.rawPayload).trimEnd().split('\n');
    expect(lines).toHaveLength(CSV_ROWS + 1);
    expect(lines.at(-1)).toBe(`${CSV_ROWS - 1};Cliente ${CSV_ROWS - 1}`);
  });

  it('sends the same encodings and headers on a real socket', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const asset = await getRaw(port, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    expect(String(asset.headers['vary']).toLowerCase()).toContain('accept-encoding');
    expect(decode('br', asset.body)).toBe(ENTRY_JS);

    const page = await getRaw(port, '/auth/login', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decode('gzip', page.body)).toBe(INDEX_HTML);

    const csv = await getRaw(port, '/api/test-stream.csv', { 'accept-encoding': 'br' });
    expect(csv.headers['content-encoding']).toBe('br');
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(decode('br', csv.body).trimEnd().split('\n')).toHaveLength(CSV_ROWS + 1);
  });
});
