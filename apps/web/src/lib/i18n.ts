import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@sf/contract/app-info';
import {
  currentLanguage,
  FIRST_LOAD_NAMESPACES,
  firstLoadCatalogues,
  onLanguageChange,
  registerTranslationEngine,
  setLanguage,
  isLanguage,
} from './texts.ts';
import { lazyCatalogueFiles } from './catalogue-files.ts';

export { currentLanguage, isLanguage, storedLanguage, type Catalogues } from './texts.ts';

/**
 * Every catalogue file `src/locales/<lang>/<namespace>.json` is registered, so a feature adds its own
 * namespace (e.g. `news.json` in both languages) and calls `useTranslation('news')` without touching
 * this file. What the sign-in page needs (`common`, `auth`) comes from `lib/texts.ts`, which the
 * sign-in page uses without i18next (decision 010); the signed-in area's namespaces load with its lazy
 * route (`loadCatalogues`; the files are listed in `catalogue-files.ts`). The language lives in
 * `lib/texts.ts`: i18next follows it.
 */

function parseFile(file: string): { language: string; namespace: string } | null {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  return match ? { language: match[1] ?? '', namespace: match[2] ?? '' } : null;
}

/** Every namespace that exists, loaded or not. */
export const namespaces = [...new Set([...FIRST_LOAD_NAMESPACES, ...Object.keys(lazyCatalogueFiles).map((file) => parseFile(file)?.namespace ?? '')])].filter(Boolean);

/** Loads the given namespaces (all the lazy ones by default) in every language. */
export async function loadCatalogues(wanted: string[] = namespaces): Promise<void> {
  const pending = Object.entries(lazyCatalogueFiles).flatMap(([file, load]) => {
    const parsed = parseFile(file);
    if (!parsed || !wanted.includes(parsed.namespace) || i18n.hasResourceBundle(parsed.language, parsed.namespace)) return [];
    return [load().then((content) => i18n.addResourceBundle(parsed.language, parsed.namespace, content, true, true))];
  });
  await Promise.all(pending);
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: firstLoadCatalogues,
  lng: currentLanguage(),
  fallbackLng: false,
  supportedLngs: [...LANGUAGES],
  ns: FIRST_LOAD_NAMESPACES,
  partialBundledLanguages: true,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

registerTranslationEngine({ t: (key, values) => (values ? i18n.t(key, values) : i18n.t(key)), exists: (key) => i18n.exists(key) });
// Both ways: a switch on the sign-in page (lib/texts.ts) moves i18next; one made through i18next comes back.
onLanguageChange((language) => {
  if (i18n.language !== language) void i18n.changeLanguage(language);
});
i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) setLanguage(language, { isStored: false });
});

export async function changeLanguage(language: Language): Promise<void> {
  setLanguage(language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}
