import type { Program } from '@sf/contract/programs';

/**
 * What a purchase will earn, shown before confirming: points per euro rounded down per transaction,
 * times the member's tier multiplier (docs/product.md D); nothing below the minimum spend. Stamps
 * programs give the stamps asked for (1 by default). The API computes the same and its answer is
 * what counts.
 */
export function previewPurchase(program: Pick<Program, 'type' | 'pointsPerEuro' | 'minSpendCents' | 'tiers'>, amountCents: number, tierName: string | null, stamps = 1): { points: number; stamps: number } {
  if (program.type === 'stamps') return { points: 0, stamps };
  if (program.minSpendCents !== null && amountCents < program.minSpendCents) return { points: 0, stamps: 0 };
  const multiplier = program.tiers.find((tier) => tier.name === tierName)?.multiplier ?? 1;
  // Integer arithmetic on hundredths avoids 0.1 + 0.2 surprises: cents × rate×100 × multiplier×100 / 10^6.
  const rate = Math.round((program.pointsPerEuro ?? 0) * 100);
  const factor = Math.round(multiplier * 100);
  return { points: Math.floor((amountCents * rate * factor) / 1_000_000), stamps: 0 };
}
