import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module (npm start runs it with node)
import { precompress } from './precompress.mjs';

describe('precompress (the web build\'s .br and .gz copies)', () => {
  let dist = '';
  afterEach(async () => rm(dist, { recursive: true, force: true }));

  it('writes a brotli and a gzip copy of every text file, byte-identical once decompressed, and nothing else', async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'sf-precompress-'));
    await mkdir(path.join(dist, 'assets'));
    const script = 'export const greeting = "ciao";\n'.repeat(200);
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Social Fidelity</title>');
    await writeFile(path.join(dist, 'assets', 'app-1a2b.js'), script);
    await writeFile(path.join(dist, 'assets', 'app-1a2b.js.map'), '{"version":3}');
    await writeFile(path.join(dist, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));

    expect(await precompress(dist)).toBe(2);

    const script_br = await readFile(path.join(dist, 'assets', 'app-1a2b.js.br'));
    expect(brotliDecompressSync(script_br).toString()).toBe(script);
    expect(script_br.length).toBeLessThan(script.length / 10);
    expect(gunzipSync(await readFile(path.join(dist, 'assets', 'app-1a2b.js.gz'))).toString()).toBe(script);
    expect(brotliDecompressSync(await readFile(path.join(dist, 'index.html.br'))).toString()).toContain('Social Fidelity');
    // Source maps and images stay as they are; no temporary file is left behind.
    expect((await readdir(path.join(dist, 'assets'))).sort()).toEqual([
      'app-1a2b.js',
      'app-1a2b.js.br',
      'app-1a2b.js.gz',
      'app-1a2b.js.map',
      'logo.png',
    ]);
  });
});
