import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The tests' server processes start from `apps/api/src/server.ts` compiled to one JavaScript file
 * (and its lazy chunks), not through tsx. tsx transforms every module through its loader hooks at each
 * start, cached or not: importing the app took ~3.9 CPU-s through tsx (warm cache) and ~2.2 CPU-s
 * compiled (Node 20, `npm run bench:server-start` for whole starts), and a CI run starts the server
 * some forty times (the crash, shutdown and permission tests on both databases, every journey worker,
 * the cluster drills and their restarts). The code is the same: esbuild only strips the types and joins
 * the modules; the packages stay in node_modules. `import.meta.url` keeps naming each source file, so
 * what the server finds beside its code (the migrations folder, …) is found as under tsx.
 *
 * Content-addressed: `apps/api/.compiled-server/<hash of the output>/server.mjs`, written once (inside
 * apps/api so that the packages resolve from there as they do for src/); concurrent callers write the
 * same bytes and the last rename wins. Copies of other sources are removed once a day old
 * (`removeStaleCopies`): every edit of the API compiles a new one (~1 MB).
 */
export function compiledServerEntry(): Promise<string> {
  return (compiled ??= compile());
}

let compiled: Promise<string> | undefined;

/** Our own modules (`apps/api/src`, `@sf/contract`) are bundled; every package stays external. */
const sourcesOnly: Plugin = {
  name: 'sf-sources-only',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@sf/') ? undefined : { external: true }));
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return {
        contents: source
          .replaceAll('import.meta.url', url)
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path)),
        loader: 'ts',
      };
    });
  },
};

async function compile(): Promise<string> {
  const result = await build({
    entryPoints: { server: path.join(apiRoot, 'src/server.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    outExtension: { '.js': '.mjs' },
    outdir: '/compiled',
    write: false,
    logLevel: 'error',
    plugins: [sourcesOnly],
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = path.join(apiRoot, '.compiled-server', hash.digest('hex').slice(0, 16));
  const entry = path.join(dir, 'server.mjs');
  if (!existsSync(entry)) {
    const staging = `${dir}.${process.pid}.${Date.now()}`;
    await mkdir(staging, { recursive: true });
    for (const file of result.outputFiles) await writeFile(path.join(staging, path.relative('/compiled', file.path)), file.contents);
    await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true }));
  }
  await removeStaleCopies(path.dirname(dir), path.basename(dir));
  return entry;
}

/** A day: a server started from an older copy (its lazy chunks load from there) has long stopped. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the copies in `root` other than `keep` written more than a day before `now`; a younger one may
 * belong to a run of other sources still going (a server loads its lazy chunks from its copy as it runs).
 * Best effort: a copy another process removes first, or cannot be read, is left to that process.
 */
export async function removeStaleCopies(root: string, keep: string, now = Date.now()): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name !== keep)
      .map(async (name) => {
        const copy = path.join(root, name);
        const { mtimeMs } = await stat(copy).catch(() => ({ mtimeMs: now }));
        if (now - mtimeMs > STALE_AFTER_MS) await rm(copy, { recursive: true, force: true }).catch(() => undefined);
      }),
  );
}
