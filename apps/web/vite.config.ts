import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
// @ts-expect-error -- a plain ES module shared with `npm start` (scripts/start.mjs), which runs it with node.
import { precompress } from './scripts/precompress.mjs';
import { mantineStableIds } from './scripts/mantine-use-id-plugin.ts';
import { classicScripts } from './scripts/classic-scripts-plugin.ts';

/**
 * `name.br` and `name.gz` next to every text file of the build, at the strongest settings (the cost is
 * paid once, at build time); the API serves them with @fastify/static's `preCompressed`. `npm start`
 * sets SF_PRECOMPRESS=later: it builds without this step, starts serving, then runs it at low priority.
 */
function precompressed(): Plugin {
  let outDir = 'dist';
  return {
    name: 'sf-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (process.env['SF_PRECOMPRESS'] !== 'later') await precompress(outDir);
    },
  };
}

export default defineConfig({
  plugins: [mantineStableIds(), react(), classicScripts(), precompressed()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  // The manifest lists each route's chunks (handy to see what a screen loads; scripts/bench-web.ts measures the wire).
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically (the sign-in page shown before the app loads, and
          // what the app's start shares with it) in one chunk instead of a dozen small ones shared with
          // the lazy screens: fewer requests and better compression on the first visit (decision 010).
          // The signed-in area's catalogues (every namespace in both languages, which it loads at once)
          // in one file instead of forty: the requests of a deep link were queueing behind them.
          // The signed-in area's kit (router, i18next, TanStack Query, our lib, hooks and list kit, and the
          // Mantine components they use, which come along as their dependencies) in one file: a deep link to
          // a list asked for ~55 files and the browser handed them over ~120 ms after asking, even from its
          // cache; with this, ~30 (decision 010). Screen-specific libraries (the editor, charts,
          // QR codes) stay with their screens, and so do `lib/time-zone.ts` and `components/ui/date-pickers.tsx`:
          // they bring dayjs (4 KB on the wire) and Mantine's calendars, which only the screens showing a
          // date field need (decision 037).
          groups: [
            { name: 'first-screen', tags: ['$initial'] },
            { name: 'catalogues', test: /[\\/]src[\\/]locales[\\/]/ },
            {
              name: 'signed-in-kit',
              test: /node_modules[\\/](@mantine[\\/](hooks|modals)|@tanstack|react-router|i18next|react-i18next)[\\/]|[\\/]src[\\/](lib|hooks|components[\\/]ui)[\\/](?!time-zone\.|date-pickers\.)/,
            },
          ],
        },
      },
    },
  },
});
