import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sf/contract/app-info';
import { namespaces, type Catalogues } from './i18n.ts';

// Every catalogue file, read here directly: the app itself loads most of them on demand.
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });
const catalogues: Catalogues = {};
for (const [file, content] of Object.entries(files)) {
  const [, language = '', namespace = ''] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  catalogues[language] ??= {};
  catalogues[language][namespace] = content;
}

function keysOf(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

function leaf(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
}

function placeholders(text: unknown): string[] {
  return typeof text === 'string' ? [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1] ?? '').sort() : [];
}

describe('message catalogues (S13)', () => {
  it('loads the common, auth and layout namespaces in both languages', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'auth', 'layout', 'profile']));
  });

  // Italian writes the apostrophe straight (l'app), as people type it in a search or a test: one form,
  // not two. English is not held to it.
  it.each(LANGUAGES)("writes the apostrophe straight (l'app, the dashboard's days) in every %s catalogue", (language) => {
    const curly = Object.entries(catalogues[language] ?? {}).flatMap(([namespace, tree]) =>
      keysOf(tree)
        .filter((key) => /\p{L}’\p{L}/u.test(String(leaf(tree, key))))
        .map((key) => `${language}/${namespace}:${key} ${String(leaf(tree, key))}`),
    );
    expect(Object.keys(catalogues[language] ?? {}).length).toBeGreaterThan(10);
    expect(curly).toEqual([]);
  });

  describe.each(namespaces)('namespace %s', (namespace) => {
    it('exists in every language', () => {
      for (const language of LANGUAGES) expect(catalogues[language]?.[namespace], `${language}/${namespace}.json`).toBeDefined();
    });

    it('has the same keys in every language, none empty, with the same placeholders', () => {
      const [first, ...others] = LANGUAGES;
      const reference = catalogues[first]?.[namespace];
      const referenceKeys = keysOf(reference).sort();
      for (const language of others) {
        const tree = catalogues[language]?.[namespace];
        const keys = keysOf(tree).sort();
        expect(keys.filter((k) => !referenceKeys.includes(k)), `keys only in ${language}/${namespace}.json`).toEqual([]);
        expect(referenceKeys.filter((k) => !keys.includes(k)), `keys missing from ${language}/${namespace}.json`).toEqual([]);
        for (const key of keys) expect(placeholders(leaf(tree, key)), `${language}/${namespace}:${key}`).toEqual(placeholders(leaf(reference, key)));
      }
      for (const language of LANGUAGES) {
        const tree = catalogues[language]?.[namespace];
        for (const key of keysOf(tree)) {
          const text = leaf(tree, key);
          expect(typeof text === 'string' && text.trim().length > 0, `${language}/${namespace}:${key} is empty`).toBe(true);
        }
      }
    });
  });
});
