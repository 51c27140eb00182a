// Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) next to every text file of the
// web build; the API serves them with @fastify/static's `preCompressed` (decision record 010).
// Used two ways: by the Vite build (vite.config.ts, as its last step), and by `npm start`, which
// builds without it to be ready sooner and runs this file afterwards, at low priority
// (`node scripts/precompress.mjs <dist>`). Each file is written under a temporary name and renamed,
// so a server reading the folder meanwhile never sends half a file.
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(folder) {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? filesUnder(full) : [full];
    }),
  );
  return nested.flat();
}

async function writeAtomically(target, content) {
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}

async function compressFile(file) {
  const content = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
    gzipAsync(content, { level: 9 }),
  ]);
  await writeAtomically(`${file}.br`, br);
  await writeAtomically(`${file}.gz`, gz);
}

/** Compresses every text file under `dist`; zlib runs on libuv's thread pool, a few files at a time. */
export async function precompress(dist) {
  const files = (await filesUnder(dist)).filter((file) => COMPRESSIBLE.test(file));
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if ((await stat(file)).size > 0) await compressFile(file);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return files.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const started = Date.now();
  const count = await precompress(dist);
  console.log(`pre-compressed ${count} files of ${dist} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
