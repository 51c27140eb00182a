/**
 * The ledger's pure rules (docs/product.md D): points for a purchase, stamps caps, FIFO lot consumption,
 * expiry dates and tiers (business days themselves: lib/business-days.ts). No I/O here, so each rule is tested on its own (ledger.rules.test.ts) and
 * the service only fetches inputs and stores outputs.
 */

import { addDays, DEFAULT_BUSINESS_TIME_ZONE, localDate, startOfLocalDay } from '../../lib/business-days.ts';

/** A decimal like "1.50" (numeric(8,2) from PostgreSQL) as an integer number of hundredths. */
export function toHundredths(decimal: string | number): bigint {
  const text = typeof decimal === 'number' ? decimal.toFixed(2) : decimal.trim();
  const match = /^(-?)(\d+)(?:\.(\d{0,2})\d*)?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  return sign === '-' ? -value : value;
}

export type PurchasePointsInput = {
  amountCents: number;
  /** Points per euro, a decimal (e.g. "1.5"). */
  pointsPerEuro: string | number;
  /** No points below this amount (null/0: no minimum). */
  minSpendCents?: number | null;
  /** The member's tier multiplier, a decimal (1 when no tier). */
  multiplier?: string | number;
};

/**
 * Points for one purchase: amount × rate × tier multiplier, rounded down once per transaction (so
 * €9.99 at 1 point/€ is 9 points, never 10). Integer arithmetic throughout: no float drift.
 */
export function pointsForPurchase(input: PurchasePointsInput): number {
  if (!Number.isInteger(input.amountCents) || input.amountCents < 0) throw new Error('amountCents must be a non-negative integer');
  if (input.minSpendCents && input.amountCents < input.minSpendCents) return 0;
  const rate = toHundredths(input.pointsPerEuro);
  const multiplier = toHundredths(input.multiplier ?? 1);
  if (rate <= 0n || multiplier <= 0n) return 0;
  // cents/100 × rate/100 × multiplier/100
  return Number((BigInt(input.amountCents) * rate * multiplier) / 1_000_000n);
}

export type StampsInput = {
  requested: number;
  maxPerTransaction?: number | null;
  maxPerDay?: number | null;
  /** Stamps this member already earned today (business time zone). */
  earnedToday: number;
};

/** Stamps actually granted for a purchase: the request cut to the per-transaction and per-day caps. */
export function stampsForPurchase(input: StampsInput): number {
  let granted = Math.max(0, input.requested);
  if (input.maxPerTransaction != null) granted = Math.min(granted, input.maxPerTransaction);
  if (input.maxPerDay != null) granted = Math.min(granted, Math.max(0, input.maxPerDay - input.earnedToday));
  return granted;
}

export type Lot = { id: number; remaining: number };
export type LotTake = { lotId: number; take: number };

/**
 * First in, first out: `amount` points are taken from the oldest lots first. The lots must be given
 * oldest first. Returns the takes and what no lot covered (points earned before lots existed, or
 * adjustments, are not in lots: the caller checks the balance separately).
 */
export function consumeFifo(lots: readonly Lot[], amount: number): { takes: LotTake[]; uncovered: number } {
  const takes: LotTake[] = [];
  let left = amount;
  for (const lot of lots) {
    if (left <= 0) break;
    if (lot.remaining <= 0) continue;
    const take = Math.min(lot.remaining, left);
    takes.push({ lotId: lot.id, take });
    left -= take;
  }
  return { takes, uncovered: Math.max(0, left) };
}

export type ExpiryPolicy = { policy: 'never' | 'afterDays' | 'endOfYear'; days?: number | null };

/**
 * The last day (inclusive, business time zone) on which points earned at `earnedAt` can be spent;
 * the expiry job writes off what is left on the day after. null: they never expire.
 * - afterDays N: earned on 1 March with N = 30 → spendable through 31 March;
 * - endOfYear: through 31 December of the year they were earned in.
 */
export function expiryDate(policy: ExpiryPolicy, earnedAt: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): string | null {
  const day = localDate(earnedAt, timeZone);
  switch (policy.policy) {
    case 'never':
      return null;
    case 'afterDays':
      if (!policy.days || policy.days < 1) return null;
      return addDays(day, policy.days);
    case 'endOfYear':
      return `${day.slice(0, 4)}-12-31`;
  }
}

export type Tier = { name: string; minPoints: number; multiplier: number | string };
export type TierWindow = 'rolling12' | 'calendarYear';

/**
 * When the tier window starts: 12 months before today (same calendar day) or 1 January of this year,
 * at local midnight.
 */
export function tierWindowStart(window: TierWindow, now: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): Date {
  const today = localDate(now, timeZone);
  if (window === 'calendarYear') return startOfLocalDay(`${today.slice(0, 4)}-01-01`, timeZone);
  const year = Number(today.slice(0, 4)) - 1;
  const month = today.slice(5, 7);
  // 29 February has no twin a year before: start on 1 March.
  const day = today.slice(5) === '02-29' ? null : today.slice(8, 10);
  return startOfLocalDay(day ? `${year}-${month}-${day}` : `${year}-03-01`, timeZone);
}

/**
 * The member's tier: the highest whose minimum the points earned in the window reach, never below the
 * manual floor. null when the program has no tiers.
 */
export function tierFor(tiers: readonly Tier[], pointsEarned: number, floor?: string | null): Tier | null {
  if (tiers.length === 0) return null;
  const sorted = [...tiers].sort((a, b) => a.minPoints - b.minPoints);
  let reached: Tier | null = null;
  for (const tier of sorted) if (pointsEarned >= tier.minPoints) reached = tier;
  const floorTier = floor ? sorted.find((tier) => tier.name === floor) : undefined;
  if (floorTier && (!reached || floorTier.minPoints > reached.minPoints)) return floorTier;
  return reached;
}
