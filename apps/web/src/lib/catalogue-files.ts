/**
 * The signed-in area's catalogue files, `src/locales/<lang>/<namespace>.json` (not `common` and `auth`,
 * which the sign-in page has from `texts.ts`), each a lazy import; the build puts them in one chunk.
 * `i18n.ts` registers them.
 */
export const lazyCatalogueFiles = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/*/{common,auth}.json'], { import: 'default' });
