import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY, type Language } from '@sf/contract/app-info';

/**
 * Every catalogue file `src/locales/<lang>/<namespace>.json` is registered, so a feature adds its own
 * namespace (e.g. `news.json` in both languages) and calls `useTranslation('news')` without touching
 * this file. What the sign-in page needs (`common`, `auth`) is bundled with it; the signed-in area's
 * namespaces load with its lazy route (`loadCatalogues`), keeping the first load within budget.
 */
const FIRST_LOAD_NAMESPACES = ['common', 'auth'];
const eagerFiles = import.meta.glob<Record<string, unknown>>('../locales/*/{common,auth}.json', { eager: true, import: 'default' });
const lazyFiles = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/*/{common,auth}.json'], { import: 'default' });

export type Catalogues = Record<string, Record<string, Record<string, unknown>>>;

function parseFile(file: string): { language: string; namespace: string } | null {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  return match ? { language: match[1] ?? '', namespace: match[2] ?? '' } : null;
}

const firstLoadCatalogues: Catalogues = {};
for (const [file, content] of Object.entries(eagerFiles)) {
  const parsed = parseFile(file);
  if (!parsed) continue;
  firstLoadCatalogues[parsed.language] ??= {};
  firstLoadCatalogues[parsed.language]![parsed.namespace] = content;
}

/** Every namespace that exists, loaded or not. */
export const namespaces = [
  ...new Set([...Object.keys(eagerFiles), ...Object.keys(lazyFiles)].map((file) => parseFile(file)?.namespace ?? '')),
].filter(Boolean);

/** Loads the given namespaces (all the lazy ones by default) in every language. */
export async function loadCatalogues(wanted: string[] = namespaces): Promise<void> {
  const pending = Object.entries(lazyFiles).flatMap(([file, load]) => {
    const parsed = parseFile(file);
    if (!parsed || !wanted.includes(parsed.namespace) || i18n.hasResourceBundle(parsed.language, parsed.namespace)) return [];
    return [load().then((content) => i18n.addResourceBundle(parsed.language, parsed.namespace, content, true, true))];
  });
  await Promise.all(pending);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** S13: the stored choice, Italian otherwise. */
export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: firstLoadCatalogues,
  lng: storedLanguage(),
  fallbackLng: false,
  supportedLngs: [...LANGUAGES],
  ns: FIRST_LOAD_NAMESPACES,
  partialBundledLanguages: true,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
applyDocumentLanguage(i18n.language);
i18n.on('languageChanged', applyDocumentLanguage);

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Without storage the choice lasts for this page only.
  }
  await i18n.changeLanguage(language);
}
