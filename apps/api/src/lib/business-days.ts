/**
 * Business days (docs/product.md: a "day" is a day in BUSINESS_TIME_ZONE): the day an instant falls
 * on, the instant a day starts, whole days between. Pure and shared by every module (issue 26: shared
 * machinery lives in lib/ once; these were the ledger's and every other module reached into it).
 */

export const DEFAULT_BUSINESS_TIME_ZONE = 'Europe/Rome';

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
