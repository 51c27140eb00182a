import { describe, expect, it } from 'vitest';
import { createProgramSchema, updateProgramSchema } from './programs.ts';

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
