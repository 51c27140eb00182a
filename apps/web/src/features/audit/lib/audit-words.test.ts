import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { createFormatters } from '../../../lib/formatters.ts';
import { fieldName, showValue, type AuditWordsContext, type ShownValue } from './audit-words.ts';

/** A catalogue of a few words, as i18next would answer them. */
const words: Record<string, string> = {
  'lists:yes': 'Sì',
  'lists:no': 'No',
  'customers:purpose.marketing': 'Marketing',
  'customers:purpose.profiling': 'Profilazione',
  'merchants:status.suspended': 'Sospeso',
  'approvals:status.rejected': 'Rifiutata',
  'audit:fields.updatedAt': 'Modificato il',
};
const ctx: AuditWordsContext = {
  t: ((key: string) => words[key] ?? key) as unknown as TFunction,
  exists: (key) => Object.hasOwn(words, key),
  language: 'it',
  format: createFormatters('it', 'Europe/Rome'),
};

/** A shown value as one line of text, parts as `label: value` joined by " | ". */
const flat = (shown: ShownValue): string => (shown.kind === 'text' ? shown.text : shown.parts.map((part) => `${part.label}: ${flat(part.value)}`).join(' | '));
const show = (value: unknown, entityType: string, field: string) => flat(showValue(ctx, value, { entityType, field }));

describe('audit words', () => {
  it('names a field by the contract’s label, else the audit’s own, else as stored', () => {
    expect(fieldName(ctx, 'firstName')).toBe('Nome');
    expect(fieldName(ctx, 'updatedAt')).toBe('Modificato il');
    expect(fieldName(ctx, 'fieldFromTomorrow')).toBe('fieldFromTomorrow');
    // Never Object.prototype's: a stored key is data.
    expect(fieldName(ctx, 'constructor')).toBe('constructor');
  });

  it('says a status in the words of its own entity', () => {
    expect(show('suspended', 'merchant', 'status')).toBe('Sospeso');
    expect(show('rejected', 'social_proof', 'status')).toBe('Rifiutata');
    // A value with no word yet stays as stored.
    expect(show('paused', 'merchant', 'status')).toBe('paused');
  });

  it('tells an instant (the user’s clock) from a day and a decimal kept as text', () => {
    expect(show('2026-07-01T22:30:00.000Z', 'reward', 'updatedAt')).toBe('02/07/2026,\u00a000:30');
    expect(show('2026-07-01', 'reward', 'validFrom')).toBe('01/07/2026');
    expect(show('2.50', 'program', 'pointsPerEuro')).toBe('2,5');
    expect(show('40121', 'merchant', 'postalCode')).toBe('40121');
  });

  it('reads lists, consents by purpose, and empty values', () => {
    expect(show(['marketing', 'profiling'], 'customer', 'purposes')).toBe('Marketing, Profilazione');
    expect(show({ marketing: { granted: true } }, 'customer', 'consents')).toBe('Marketing: Consenso: Sì');
    expect(show({ marketing: { purged: 3 } }, 'retention', 'purposes')).toBe('Marketing: purged: 3');
    expect(show([{ name: 'Oro', minPoints: 1000 }], 'program', 'tiers')).toBe('1.: Nome: Oro | Punti minimi: 1.000');
    expect(show(null, 'merchant', 'pec')).toBe('—');
    expect(show([], 'merchant', 'merchantIds')).toBe('—');
    expect(show({}, 'merchant', 'social')).toBe('—');
  });
});
