import { describe, expect, it } from 'vitest';
import { createCustomerSchema, isPossibleBirthDate } from './customers.ts';

describe('birth date', () => {
  const now = new Date('2026-11-27T23:30:00Z');

  it('takes today wherever the business is, and refuses a day not yet begun anywhere or before 1900', () => {
    // 23:30 UTC is already the 28th in Rome (and anywhere east of UTC+0:30): a birth that day is today's.
    expect(isPossibleBirthDate('2026-11-28', now)).toBe(true);
    expect(isPossibleBirthDate('2026-11-29', now)).toBe(false);
    expect(isPossibleBirthDate('1985-03-12', now)).toBe(true);
    expect(isPossibleBirthDate('1900-01-01', now)).toBe(true);
    expect(isPossibleBirthDate('0985-03-12', now)).toBe(false);
  });

  it('is refused by the customer schema with the field named', () => {
    const result = createCustomerSchema.safeParse({ firstName: 'Anna', lastName: 'Neri', birthDate: '2999-01-01' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['birthDate']);
  });
});
