import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from './app-info.ts';
import { ERROR_CODES } from './errors.ts';
import { errorText, errorTextKeys, isErrorTextKey, type ErrorParams } from './error-texts.ts';
import { loyaltyFieldLabels } from './loyalty-labels.ts';
import { fieldLabel, labelledFields, message, MESSAGE_KEYS } from './messages.ts';
import { VALUE_LABELS } from './value-labels.ts';

/** Every text of the contract in a language: the error catalogue, the field texts, the labels of fields and of stored values. */
function textsIn(language: Language): string[] {
  // Any parameter a text asks for reads as a word: the apostrophes are in the words around it.
  const params = new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? 'x' : undefined) }) as ErrorParams;
  return [
    ...errorTextKeys().map((key) => errorText(key, language, params)),
    // Around a label of its own (the labels are checked on their own below).
    ...MESSAGE_KEYS.map((key) => message(key, language, { field: 'name', min: 1, max: 2 })),
    ...labelledFields().map((field) => fieldLabel(field, language)),
    ...Object.values(loyaltyFieldLabels[language]),
    ...Object.values(VALUE_LABELS).flatMap((labels) => Object.values(labels).map((label) => label[language])),
  ];
}

describe('the error catalogue', () => {
  it('has a text in Italian and English for every error code', () => {
    expect(ERROR_CODES.filter((code) => !isErrorTextKey(code))).toEqual([]);
    for (const code of ERROR_CODES) {
      if (!isErrorTextKey(code)) continue;
      expect(errorText(code, 'it').length, code).toBeGreaterThan(0);
      expect(errorText(code, 'en'), code).not.toBe(errorText(code, 'it'));
    }
  });

  it('fills in the parameters in the reader’s way of writing numbers', () => {
    expect(errorText('insufficient_balance', 'it', { balance: 1200, requested: 1500, unit: 'points' })).toBe(
      'Saldo insufficiente: 1.200 punti disponibili, 1.500 richiesti',
    );
    expect(errorText('not_found', 'it', { entity: 'customer' })).toBe('Cliente richiesto non trovato');
    expect(errorText('not_found', 'en', { entity: 'customer' })).toBe('The requested Customer is not found');
  });

  it.each(LANGUAGES)("writes the apostrophe straight in %s (dall'accredito, a merchant's till), as people type it in a search or a test", (language) => {
    const texts = textsIn(language);
    expect(texts.length).toBeGreaterThan(300);
    expect(texts.filter((text) => /\p{L}’\p{L}/u.test(text))).toEqual([]);
  });
});
