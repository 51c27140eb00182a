import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';
import { errorText, isErrorTextKey } from './error-texts.ts';

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
});
