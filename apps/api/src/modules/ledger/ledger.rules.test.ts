import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { consumeFifo, expiryDate, pointsForPurchase, stampsForPurchase, tierFor, tierWindowStart, toHundredths } from './ledger.rules.ts';
import { localDate, startOfLocalDay } from '../../lib/business-days.ts';

describe('points for a purchase', () => {
  it('rounds down once per transaction', () => {
    expect(pointsForPurchase({ amountCents: 999, pointsPerEuro: '1.00' })).toBe(9);
    expect(pointsForPurchase({ amountCents: 1000, pointsPerEuro: '1' })).toBe(10);
  });

  it('applies a decimal rate without float drift', () => {
    // 12.34 € × 1.5 = 18.51 → 18
    expect(pointsForPurchase({ amountCents: 1234, pointsPerEuro: '1.50' })).toBe(18);
    // 0.1 + 0.2 style traps: 3 € × 0.10 = 0.3 → 0; 30 € × 0.10 = 3
    expect(pointsForPurchase({ amountCents: 300, pointsPerEuro: '0.10' })).toBe(0);
    expect(pointsForPurchase({ amountCents: 3000, pointsPerEuro: '0.10' })).toBe(3);
  });

  it('gives nothing below the minimum spend and counts the whole amount from it', () => {
    expect(pointsForPurchase({ amountCents: 499, pointsPerEuro: '2', minSpendCents: 500 })).toBe(0);
    expect(pointsForPurchase({ amountCents: 500, pointsPerEuro: '2', minSpendCents: 500 })).toBe(10);
  });

  it('multiplies by the tier multiplier before rounding', () => {
    // 10.50 € × 1 × 1.5 = 15.75 → 15 (rounding each factor first would give 15 too, 7 € shows the difference)
    expect(pointsForPurchase({ amountCents: 1050, pointsPerEuro: '1', multiplier: '1.5' })).toBe(15);
    // 7.00 € × 1.5 rate × 1.25 = 13.125 → 13
    expect(pointsForPurchase({ amountCents: 700, pointsPerEuro: '1.5', multiplier: 1.25 })).toBe(13);
  });

  it('stays exact for the largest amounts', () => {
    expect(pointsForPurchase({ amountCents: 100_000_000, pointsPerEuro: '999999.99', multiplier: '3' })).toBe(2_999_999_970_000);
  });

  it('reads decimals as PostgreSQL sends them', () => {
    expect(toHundredths('1.5')).toBe(150n);
    expect(toHundredths('0.05')).toBe(5n);
    expect(toHundredths(2)).toBe(200n);
    expect(() => toHundredths('abc')).toThrow();
  });
});

describe('stamps caps', () => {
  it('cuts the request to the per-transaction cap', () => {
    expect(stampsForPurchase({ requested: 5, maxPerTransaction: 2, earnedToday: 0 })).toBe(2);
  });
  it('cuts the request to what is left of the day', () => {
    expect(stampsForPurchase({ requested: 3, maxPerDay: 4, earnedToday: 2 })).toBe(2);
    expect(stampsForPurchase({ requested: 1, maxPerDay: 4, earnedToday: 4 })).toBe(0);
    expect(stampsForPurchase({ requested: 1, maxPerDay: 4, earnedToday: 7 })).toBe(0);
  });
  it('grants the request when there are no caps', () => {
    expect(stampsForPurchase({ requested: 3, earnedToday: 100 })).toBe(3);
  });
});

describe('FIFO lot consumption', () => {
  const lots = [
    { id: 1, remaining: 10 },
    { id: 2, remaining: 0 },
    { id: 3, remaining: 5 },
    { id: 4, remaining: 20 },
  ];
  it('takes the oldest lots first and skips empty ones', () => {
    expect(consumeFifo(lots, 12)).toEqual({ takes: [{ lotId: 1, take: 10 }, { lotId: 3, take: 2 }], uncovered: 0 });
  });
  it('reports what no lot covers', () => {
    expect(consumeFifo(lots, 40)).toEqual({
      takes: [{ lotId: 1, take: 10 }, { lotId: 3, take: 5 }, { lotId: 4, take: 20 }],
      uncovered: 5,
    });
  });
  it('takes nothing for nothing', () => {
    expect(consumeFifo(lots, 0)).toEqual({ takes: [], uncovered: 0 });
  });
});

describe('expiry dates (Europe/Rome)', () => {
  it('never expires under the never policy', () => {
    expect(expiryDate({ policy: 'never' }, new Date('2026-03-01T10:00:00Z'))).toBeNull();
  });
  it('counts days in Rome: a purchase at 23:30 UTC on 31 December is already 1 January there', () => {
    expect(expiryDate({ policy: 'afterDays', days: 30 }, new Date('2025-12-31T23:30:00Z'))).toBe('2026-01-31');
    expect(expiryDate({ policy: 'afterDays', days: 30 }, new Date('2025-12-31T22:30:00Z'))).toBe('2026-01-30');
  });
  it('ends the year they were earned in, in Rome', () => {
    expect(expiryDate({ policy: 'endOfYear' }, new Date('2026-06-15T12:00:00Z'))).toBe('2026-12-31');
    expect(expiryDate({ policy: 'endOfYear' }, new Date('2025-12-31T23:30:00Z'))).toBe('2026-12-31');
  });
  it('crosses daylight-saving changes by calendar days', () => {
    // 29 March 2026 is the spring change in Rome.
    expect(expiryDate({ policy: 'afterDays', days: 1 }, new Date('2026-03-28T23:30:00Z'))).toBe('2026-03-30');
  });
});

describe('local days', () => {
  it('starts a Rome day at 23:00 or 22:00 UTC the day before, by season', () => {
    expect(startOfLocalDay('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfLocalDay('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(startOfLocalDay('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(localDate(new Date('2026-07-14T22:00:00Z'))).toBe('2026-07-15');
  });

  it('gives the day the time zone says for any instant, in any order, though it remembers the last day', () => {
    // Zones whose clocks change at or near midnight, or by other than an hour, or that skipped a day.
    const zones = ['Europe/Rome', 'America/Santiago', 'Asia/Beirut', 'America/Havana', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kolkata', 'UTC'];
    const direct = (at: number, timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
    const hour = 3_600_000;
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
        // Then instants around it (the same day, its edges, the days either side), in any order.
        fc.array(fc.integer({ min: -40 * hour, max: 40 * hour }), { minLength: 1, maxLength: 12 }),
        (timeZone, at, offsets) => {
          for (const instant of [at, ...offsets.map((offset) => at + offset)]) {
            expect(localDate(new Date(instant), timeZone)).toBe(direct(instant, timeZone));
          }
        },
      ),
      { numRuns: 300 },
    );
    // And across every clock change of a year in Rome, a minute either side.
    for (const change of ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-28T23:00:00Z', '2026-10-24T22:00:00Z']) {
      for (const delta of [-60_000, -1, 0, 1, 60_000]) {
        const instant = Date.parse(change) + delta;
        expect(localDate(new Date(instant), 'Europe/Rome')).toBe(direct(instant, 'Europe/Rome'));
      }
    }
  });
});

describe('tiers', () => {
  const tiers = [
    { name: 'Gold', minPoints: 1000, multiplier: 2 },
    { name: 'Base', minPoints: 0, multiplier: 1 },
    { name: 'Silver', minPoints: 300, multiplier: 1.5 },
  ];
  it('picks the highest tier the points reach', () => {
    expect(tierFor(tiers, 0)?.name).toBe('Base');
    expect(tierFor(tiers, 299)?.name).toBe('Base');
    expect(tierFor(tiers, 300)?.name).toBe('Silver');
    expect(tierFor(tiers, 5000)?.name).toBe('Gold');
  });
  it('never goes below the manual floor, and the floor does not cap', () => {
    expect(tierFor(tiers, 10, 'Silver')?.name).toBe('Silver');
    expect(tierFor(tiers, 2000, 'Silver')?.name).toBe('Gold');
  });
  it('has no tier when the program has none, or none is reached', () => {
    expect(tierFor([], 100)).toBeNull();
    expect(tierFor([{ name: 'VIP', minPoints: 100, multiplier: 2 }], 50)).toBeNull();
  });
  it('opens the window 12 months back or on 1 January, at midnight in Rome', () => {
    const now = new Date('2026-07-15T10:00:00Z');
    expect(tierWindowStart('rolling12', now).toISOString()).toBe('2025-07-14T22:00:00.000Z');
    expect(tierWindowStart('calendarYear', now).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(tierWindowStart('rolling12', new Date('2028-02-29T12:00:00Z')).toISOString()).toBe('2027-02-28T23:00:00.000Z');
  });
});
