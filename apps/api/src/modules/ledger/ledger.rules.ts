/**
 * The ledger's pure rules (docs/product.md D): points for a purchase, stamps caps, FIFO lot consumption,
 * expiry dates and tiers. No I/O here, so each rule is tested on its own (ledger.rules.test.ts) and
 * the service only fetches inputs and stores outputs.
 */

export const DEFAULT_BUSINESS_TIME_ZONE = 'Europe/Rome';

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

const dateFormatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = dateFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    dateFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function partsOf(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
    second: Number(parts['second']),
  };
}

/**
 * The last day asked for in each time zone, with the instants it spans ([from, to)): nearly every
 * call falls in it (each ledger write asks for today three or four times), and a time-zone
 * conversion costs ~6 µs of the API's one thread.
 */
const knownDays = new Map<string, { date: string; from: number; to: number }>();
/** Per time zone, the day of the last call that missed `knownDays`. */
const lastMissedDays = new Map<string, string>();

/** The calendar day (YYYY-MM-DD) an instant falls on in the business time zone. */
export function localDate(instant: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): string {
  const at = instant.getTime();
  const known = knownDays.get(timeZone);
  if (known && at >= known.from && at < known.to) return known.date;
  const date = convertedLocalDate(at, timeZone);
  // A day is worth remembering once it is asked for twice running (a write's "today"); a walk over
  // many days (the demo seed's 18 months) then pays one conversion per call, as before.
  if (lastMissedDays.get(timeZone) !== date) {
    lastMissedDays.set(timeZone, date);
    return date;
  }
  const from = startOfLocalDay(date, timeZone).getTime();
  const to = startOfLocalDay(addDays(date, 1), timeZone).getTime();
  // Remembered only when the span is checked at both ends (a zone whose day does not start at
  // midnight, or a conversion off by an hour, is then converted each time instead).
  const isExact =
    at >= from && at < to &&
    convertedLocalDate(from, timeZone) === date && convertedLocalDate(to - 1, timeZone) === date &&
    convertedLocalDate(from - 1, timeZone) !== date && convertedLocalDate(to, timeZone) !== date;
  if (isExact) knownDays.set(timeZone, { date, from, to });
  return date;
}

function convertedLocalDate(at: number, timeZone: string): string {
  const p = partsOf(new Date(at), timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

const dayStarts = new Map<string, number>();

/** The instant a local day starts in the business time zone (daylight-saving aware). */
export function startOfLocalDay(date: string, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): Date {
  // Every write asks for the same few days (today, the tier windows' first days): remembered, as
  // each costs three time-zone conversions. A handful of days per time zone, bounded anyway.
  const cacheKey = `${timeZone}|${date}`;
  const known = dayStarts.get(cacheKey);
  if (known !== undefined) return new Date(known);
  const start = computeStartOfLocalDay(date, timeZone);
  if (dayStarts.size >= 1_000) dayStarts.clear();
  dayStarts.set(cacheKey, start.getTime());
  return start;
}

function computeStartOfLocalDay(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // The zone's offset at a given instant: its wall clock read as UTC, minus the instant.
  const offsetAt = (at: number) => {
    const p = partsOf(new Date(at), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - at;
  };
  let at = guess - offsetAt(guess);
  at = guess - offsetAt(at);
  return new Date(at);
}

/** Adds whole days to a calendar date (no time zone involved: dates are dates). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Whole calendar days from the business day of `now` to the business day of `due` (0: due today,
 * negative: overdue). Every "days left" the staff read comes from here, so a list and the dashboard
 * agree: a request due on 30/11 seen at any hour of 26/11 has 4 days left.
 */
export function businessDaysUntil(due: Date, now: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): number {
  return Math.round((Date.parse(localDate(due, timeZone)) - Date.parse(localDate(now, timeZone))) / 86_400_000);
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
