import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformAsync, type TransformOptions } from '@babel/core';
import dynamicImport from '@babel/plugin-transform-dynamic-import';
import systemJsModules from '@babel/plugin-transform-modules-systemjs';
import type { OutputAsset, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

const require = createRequire(path.join(import.meta.dirname, 'classic-scripts-plugin.ts'));

/**
 * The start script's code before the entry's import: SystemJS's smallest loader (`System.register` modules
 * through script elements, ~2.9 KiB brotli) and our adaptation (`adaptSystemJs`, plain JS copied without
 * its comment lines and line breaks). Read when a build writes its files, not when the config loads.
 */
function startScriptPrelude(): string {
  const loader = readFileSync(require.resolve('systemjs/dist/s.min.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '');
  const adaptation = readFileSync(path.join(import.meta.dirname, 'classic-scripts-runtime.js'), 'utf8')
    .replace(/^\s*(\/\/.*|\/\*.*\*\/)\n/gm, '')
    .replace(/\n\s*/g, '')
    .trim();
  return `${loader}\n;(() => {${adaptation}adaptSystemJs();})();\n`;
}

/** Vite's helper that preloads what an `import()` needs (the chunk's static imports and CSS) beside it. */
const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/**
 * What the preload helper's code must change, found by its text in Vite 8's helper (a build fails if
 * Vite changes it): a script preload as a classic script's (`rel=preload`, no `crossorigin`), so that
 * SystemJS's same-origin `<script>` reuses the response. A `modulepreload` fetches and compiles a module.
 */
const PRELOAD_HELPER_EDITS: [string, string][] = [
  ["const scriptRel = 'modulepreload';", "const scriptRel = 'preload';"],
  ['link.crossOrigin = "";', 'if (isCss) link.crossOrigin = "";'],
  // A stylesheet that failed (the server was down) must be asked for again by the import's retry (a
  // script's retry: src/lib/chunk-retry.ts). The helper would skip it twice: it keeps the failed
  // element, which it takes for one already there, and it marks the address as seen.
  ['if (e.type === "error") rej(', 'if (e.type === "error") link.remove(), rej('],
  ['seen[href] = void 0;\n\t\tthrow err;', 'delete seen[href];\n\t\tthrow err;'],
];

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD_LINK = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * The build's chunks as classic scripts (`System.register`, loaded by SystemJS through `<script>` elements)
 * instead of ES modules. Chromium keeps V8's compiled code of a script in its code cache and uses it
 * from the third visit on; an ES module's it writes and never uses (Chromium 156 here: every deep link
 * parsed and compiled the whole app again, ~130 ms of background parsing and ~60 ms of lazy compiling
 * on the main thread). Decision 010.
 *
 * - Each chunk is rewritten by Babel's SystemJS transform: imports, exports, `import()` and `import.meta`
 *   only; nothing else changes, so the code stays as modern as it was.
 * - `index.html` loads one deferred classic script: SystemJS's loader, then the import of the entry. The
 *   entry is preloaded beside it (not one request after it), and the module preload links become
 *   classic-script preloads.
 * - Vite's preload helper keeps asking for an `import()`'s chunks all at once, as classic-script preloads.
 */
export function classicScripts(): Plugin {
  return {
    name: 'sf-classic-scripts',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (id !== PRELOAD_HELPER_ID) return null;
      return PRELOAD_HELPER_EDITS.reduce((edited, [from, to]) => {
        if (!edited.includes(from)) throw new Error(`sf-classic-scripts: Vite's preload helper no longer has ${from}`);
        return edited.replace(from, to);
      }, code);
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
        await Promise.all(chunks.map((chunk) => toSystemRegister(chunk, bundle)));

        const html = bundle['index.html'] as OutputAsset | undefined;
        const source = String(html?.source ?? '');
        const entry = ENTRY_SCRIPT.exec(source)?.[1];
        if (!html || !entry) throw new Error('sf-classic-scripts: index.html has no module script for the entry');
        const start = `${startScriptPrelude()}System.import(${JSON.stringify(entry)});\n`;
        const startFile = this.getFileName(this.emitFile({ type: 'asset', name: 'start.js', source: start }));
        html.source = source
          .replace(ENTRY_SCRIPT, `<script defer src="/${startFile}"></script>\n    <link rel="preload" as="script" href="${entry}">`)
          .replace(MODULE_PRELOAD_LINK, '<link rel="preload" as="script" href="$1">');
      },
    },
  };
}

const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

async function toSystemRegister(chunk: OutputChunk, bundle: Record<string, OutputChunk | OutputAsset>): Promise<void> {
  const mapComment = SOURCE_MAP_COMMENT.exec(chunk.code)?.[0] ?? '';
  const result = await transformAsync(chunk.code.replace(SOURCE_MAP_COMMENT, ''), {
    babelrc: false,
    configFile: false,
    filename: chunk.fileName,
    sourceType: 'module',
    compact: true,
    comments: false,
    inputSourceMap: chunk.map ? (JSON.parse(chunk.map.toString()) as TransformOptions['inputSourceMap']) : undefined,
    sourceMaps: Boolean(chunk.map),
    plugins: [dynamicImport, systemJsModules],
  });
  if (!result?.code) throw new Error(`sf-classic-scripts: Babel gave nothing for ${chunk.fileName}`);
  chunk.code = result.code + mapComment;
  const mapFile = bundle[`${chunk.fileName}.map`];
  if (result.map && mapFile?.type === 'asset') mapFile.source = JSON.stringify({ ...result.map, file: path.basename(chunk.fileName) });
}
