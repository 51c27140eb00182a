/**
 * The signed-in area's catalogue files, `src/locales/<lang>/<namespace>.json` (not `common` and `auth`,
 * which the sign-in page has from `texts.ts`), each a lazy import; the build puts them in one chunk.
 * In a module of their own, without i18next: the entry starts loading them for a deep link
 * (`app/prefetch-routes.ts`) beside the app's code, instead of after it (they held a list's first
 * render back by ~60–80 ms; decision 010). `i18n.ts` registers them.
 */
export const lazyCatalogueFiles = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/*/{common,auth}.json'], { import: 'default' });

/** Starts loading every catalogue file; `loadCatalogues` (i18n.ts) then finds them loaded or on their way. */
export function prefetchCatalogueFiles(): void {
  for (const load of Object.values(lazyCatalogueFiles)) void load().catch(() => undefined);
}
