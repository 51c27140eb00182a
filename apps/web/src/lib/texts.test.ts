import { describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '@sf/contract/app-info';

// A fresh copy of the module, before i18next registers itself: what the sign-in page of a first visit runs.
async function freshTexts() {
  vi.resetModules();
  return import('./texts.ts');
}

describe('texts of the first screen without i18next (decision 010)', () => {
  it('reads nested keys of common and auth in the stored language, with placeholders', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    const texts = await freshTexts();
    expect(texts.currentLanguage()).toBe('en');
    expect(texts.translate('auth:login.submit')).toBe('Sign in');
    expect(texts.translate('errors.unknown', { status: 418 })).toBe('The request failed (HTTP 418).');
    expect(texts.hasText('common:errors.rate_limited')).toBe(true);
    expect(texts.hasText('ledger:title')).toBe(false);
    texts.setLanguage('it');
    expect(texts.translate('auth:login.submit')).toBe('Accedi');
    expect(texts.translate('common:errors.unknown', { status: 418 })).toBe('La richiesta non è riuscita (HTTP 418).');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('it');
    expect(document.documentElement.lang).toBe('it');
  });

  it('answers the key for a text it does not have, as i18next does', async () => {
    const texts = await freshTexts();
    expect(texts.translate('auth:no.such.key')).toBe('no.such.key');
  });

  it('hands lookups to i18next once it has loaded, and the language follows both ways', async () => {
    const texts = await freshTexts();
    const { i18n, changeLanguage, loadCatalogues } = await import('./i18n.ts');
    await changeLanguage('it');
    await loadCatalogues(['ledger']);
    expect(texts.translate('ledger:title')).toBe(i18n.t('ledger:title'));
    expect(texts.hasText('ledger:title')).toBe(true);
    texts.setLanguage('en');
    expect(i18n.language).toBe('en');
    expect(texts.translate('common:close')).toBe(i18n.t('common:close'));
    await i18n.changeLanguage('it');
    expect(texts.currentLanguage()).toBe('it');
  });
});
