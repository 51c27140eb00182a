import { useCallback, useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY, type Language } from '@sf/contract/app-info';

/**
 * The current language (S13) and the sign-in page's texts, without i18next (decision 010): the
 * first screen (sign-in form, its layout, the API client, toasts) reads its words here, so that
 * i18next (~15 KiB on the wire) loads with the rest of the app, not with the sign-in page.
 *
 * Until `lib/i18n.ts` has loaded, `translate` looks the key up in the `common` and `auth` catalogues
 * itself (nested keys, `{{name}}` placeholders: all those two files use). Once i18next is there it
 * registers itself (`registerTranslationEngine`) and every lookup goes through it, so the signed-in area's
 * namespaces (e.g. `ledger`) are found too. The language is kept here; i18next follows it, and a
 * change made through i18next comes back here.
 */
export type Catalogues = Record<string, Record<string, Record<string, unknown>>>;
type TextValues = Record<string, unknown>;
type Engine = { t: (key: string, values?: TextValues) => string; exists: (key: string) => boolean };

const files = import.meta.glob<Record<string, unknown>>('../locales/*/{common,auth}.json', { eager: true, import: 'default' });

/** The namespaces the first screen carries, in every language: `{ it: { common: {…}, auth: {…} }, en: … }`. */
export const firstLoadCatalogues: Catalogues = {};
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (!match?.[1] || !match[2]) continue;
  firstLoadCatalogues[match[1]] ??= {};
  firstLoadCatalogues[match[1]]![match[2]] = content;
}
export const FIRST_LOAD_NAMESPACES = ['common', 'auth'];

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

let language: Language = storedLanguage();
const listeners = new Set<(language: Language) => void>();
let engine: Engine | null = null;

function applyDocumentLanguage(value: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = value;
}
applyDocumentLanguage(language);

export function currentLanguage(): Language {
  return language;
}

/** Called with the new language on every change (returns the unsubscribe). */
export function onLanguageChange(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Makes `value` current; `isStored` false when the change comes from i18next itself (it stores nothing). */
export function setLanguage(value: Language, options: { isStored?: boolean } = {}): void {
  if (options.isStored !== false) {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, value);
    } catch {
      // Without storage the choice lasts for this page only.
    }
  }
  if (value === language) return;
  language = value;
  applyDocumentLanguage(value);
  for (const listener of listeners) listener(value);
}

/** i18next registers itself here once loaded (lib/i18n.ts); every lookup then goes through it. */
export function registerTranslationEngine(next: Engine): void {
  engine = next;
}

function lookup(key: string): string | undefined {
  const separator = key.indexOf(':');
  const namespace = separator >= 0 ? key.slice(0, separator) : 'common';
  let node: unknown = firstLoadCatalogues[language]?.[namespace];
  for (const part of key.slice(separator + 1).split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The text of `namespace:key.path` (`common` when no namespace is given) in the current language. */
export function translate(key: string, values?: TextValues): string {
  if (engine) return engine.t(key, values);
  const text = lookup(key);
  if (text === undefined) return key.slice(key.indexOf(':') + 1);
  if (!values) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function hasText(key: string): boolean {
  return engine ? engine.exists(key) : lookup(key) !== undefined;
}

/** `t` for the components of the first screen: `t('login.title')` reads `namespace:login.title`; re-renders on a language change. */
export function useTexts(namespace = 'common') {
  const current = useSyncExternalStore(onLanguageChange, currentLanguage, currentLanguage);
  const t = useCallback(
    (key: string, values?: TextValues) => translate(key.includes(':') ? key : `${namespace}:${key}`, values),
    // The language is a dependency on purpose: a new `t` after a switch re-renders what uses it.
    [namespace, current],
  );
  return { t, language: current };
}
