import { describe, expect, it } from 'vitest';
import { previewPurchase } from './points-preview.ts';

const points = { type: 'points' as const, pointsPerEuro: 1.5, minSpendCents: 500, tiers: [{ name: 'Oro', minPoints: 1000, multiplier: 1.2 }] };

describe('purchase preview', () => {
  it('rounds points down per transaction and applies the tier multiplier', () => {
    expect(previewPurchase(points, 1_234_50, null)).toEqual({ points: 1851, stamps: 0 });
    expect(previewPurchase(points, 1_234_50, 'Oro')).toEqual({ points: 2222, stamps: 0 });
    expect(previewPurchase({ ...points, pointsPerEuro: 0.1, minSpendCents: null }, 30, null)).toEqual({ points: 0, stamps: 0 });
  });

  it('gives nothing below the minimum spend, and stamps for stamp cards', () => {
    expect(previewPurchase(points, 499, null).points).toBe(0);
    expect(previewPurchase({ ...points, type: 'stamps' }, 1000, null, 2)).toEqual({ points: 0, stamps: 2 });
  });
});
