import path from 'node:path';
import type { Plugin } from 'vite';

/** Where Mantine's hooks import their `useId` from (`@mantine/hooks/esm/index.mjs` and its hooks). */
const MANTINE_USE_ID = /(^|[\\/])use-id[\\/]use-id\.mjs$/;
const MANTINE_HOOKS = /[\\/]node_modules[\\/]@mantine[\\/]hooks[\\/]/;

const STABLE_USE_ID_MODULE = path.resolve(import.meta.dirname, '../src/lib/mantine-use-id.ts');

/**
 * The app's build (and its web tests) take `useId` from `src/lib/mantine-use-id.ts` instead of Mantine's,
 * which renders every component that has an id twice (see that module). Only Mantine's own import of its `use-id` module is
 * redirected; `@mantine/core` reaches it through `@mantine/hooks`' index.
 */
export function mantineStableIds(): Plugin {
  return {
    name: 'sf-mantine-stable-ids',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer && MANTINE_HOOKS.test(importer) && MANTINE_USE_ID.test(source)) return STABLE_USE_ID_MODULE;
      return null;
    },
  };
}
