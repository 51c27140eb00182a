import { describe, expect, it } from 'vitest';
import { createProgramSchema, updateProgramSchema } from './programs.ts';
import { issueMessage } from './validation.ts';

const stampCard = { name: 'Caffè', type: 'stamps', merchantIds: ['6f1c7a52-2b1e-4f3a-9d7e-0c5b8a9e1f23'], stampsRequired: 10 };

describe('a program’s expiry', () => {
  it('takes { policy: "never" } without days, and reads the days as null', () => {
    const created = createProgramSchema.safeParse({ ...stampCard, expiry: { policy: 'never' } });
    expect(created.success).toBe(true);
    expect(created.data?.expiry).toEqual({ policy: 'never', days: null });
    const updated = updateProgramSchema.safeParse({ version: 1, expiry: { policy: 'endOfYear' } });
    expect(updated.data?.expiry).toEqual({ policy: 'endOfYear', days: null });
  });

  it('still needs the days of an afterDays policy', () => {
    const created = createProgramSchema.safeParse({ ...stampCard, expiry: { policy: 'afterDays' } });
    expect(created.success).toBe(false);
    expect(created.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['expiry.days']);
    expect(createProgramSchema.safeParse({ ...stampCard, expiry: { policy: 'afterDays', days: 30 } }).data?.expiry).toEqual({ policy: 'afterDays', days: 30 });
  });
});

describe('a points program’s minimum spend', () => {
  const points = { name: 'Circuito', type: 'points', merchantIds: stampCard.merchantIds, pointsPerEuro: 1 };

  it('says its bound in euro, as the field is typed, not in cents', () => {
    const parsed = createProgramSchema.safeParse({ ...points, minSpendCents: 500_000_000 });
    expect(parsed.success).toBe(false);
    const issues = parsed.error?.issues ?? [];
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['minSpendCents']);
    expect(issueMessage(issues[0]!, 'it')).toBe('Spesa minima deve essere al massimo 1.000.000,00\u00a0€');
    expect(issueMessage(issues[0]!, 'en')).toBe('Minimum spend must be at most €1,000,000.00');
  });

  it('takes up to 1,000,000.00 € and no less than zero', () => {
    expect(createProgramSchema.safeParse({ ...points, minSpendCents: 100_000_000 }).success).toBe(true);
    const negative = createProgramSchema.safeParse({ ...points, minSpendCents: -1 });
    expect(negative.error?.issues.map((issue) => issueMessage(issue, 'it'))).toEqual(['Spesa minima deve essere almeno 0']);
  });
});
