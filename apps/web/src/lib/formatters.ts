import type { Language } from '@sf/contract/app-info';

/** The Intl locale of each UI language: Italian for `it`, US English for `en` (docs/product.md examples). */
export const LOCALES: Record<Language, string> = { it: 'it-IT', en: 'en-US' };

export type Formatters = {
  date(value: Date | string | number): string;
  /**
   * A calendar date with no time of day (`YYYY-MM-DD`, e.g. a reward's last valid day, a birth date):
   * the same day in every time zone, never shifted by the reader's offset.
   */
  day(value: string): string;
  dateTime(value: Date | string | number): string;
  time(value: Date | string | number): string;
  number(value: number): string;
  currency(value: number): string;
  locale: string;
  timeZone: string;
};

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Rome';
}

type DateTimeOptions = Omit<Intl.DateTimeFormatOptions, 'timeZone'>;

/**
 * A date format in `zone`, or in the browser's zone when the browser does not know `zone` (e.g. from an
 * old profile). Built directly, not after a format made only to check the zone: each format costs its
 * construction, and the first of a page also loads the browser's locale and zone data.
 */
function formatIn(locale: string, zone: string | undefined, options: DateTimeOptions): Intl.DateTimeFormat {
  if (zone) {
    try {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    } catch {
      // A zone the browser does not know: the browser's own, below.
    }
  }
  return new Intl.DateTimeFormat(locale, options);
}

/** Built once per language and zone, and each Intl object only when first used: building one costs ~3–5 ms of the first render. */
const formattersByKey = new Map<string, Formatters>();

/**
 * Formatters for a language and time zone; `useFormatters()` (`lib/format.ts`) picks both from the UI and
 * the profile. No React here: the entry warms them for a deep link (`main.tsx`), beside the app's loading.
 */
export function createFormatters(language: Language, timeZone?: string): Formatters {
  const key = `${language}|${timeZone ?? ''}`;
  const known = formattersByKey.get(key);
  if (known) return known;
  const locale = LOCALES[language];
  const once = <T>(build: () => T): (() => T) => {
    let built: T | undefined;
    return () => (built ??= build());
  };
  const dateFormat = once(() => formatIn(locale, timeZone, { day: '2-digit', month: '2-digit', year: 'numeric' }));
  const dayFormat = once(() => new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }));
  const dateTimeFormat = once(() => formatIn(locale, timeZone, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }));
  const timeFormat = once(() => formatIn(locale, timeZone, { hour: '2-digit', minute: '2-digit' }));
  // CLDR leaves 4-digit Italian numbers ungrouped ("1234,50"); the product wants "1.234,50 €".
  const numberFormat = once(() => new Intl.NumberFormat(locale, { useGrouping: 'always' }));
  const currencyFormat = once(() => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', useGrouping: 'always' }));
  const toDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));
  const safe = (format: () => Intl.DateTimeFormat, value: Date | string | number) => {
    const date = toDate(value);
    return Number.isNaN(date.getTime()) ? '' : format().format(date);
  };
  const formatters: Formatters = {
    date: (value) => safe(dateFormat, value),
    day: (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? safe(dayFormat, `${value}T00:00:00Z`) : ''),
    // One unit: never broken between the day and the time ("27/11/2026," above "18:19" in a narrow cell).
    dateTime: (value) => safe(dateTimeFormat, value).replaceAll(' ', '\u00a0'),
    time: (value) => safe(timeFormat, value),
    number: (value) => numberFormat().format(value),
    currency: (value) => currencyFormat().format(value),
    locale,
    get timeZone() {
      return dateFormat().resolvedOptions().timeZone;
    },
  };
  formattersByKey.set(key, formatters);
  return formatters;
}

/**
 * Builds the formatters of `language` and `timeZone` and formats once with them, ahead of the screens
 * that will. A fresh Chromium tab loads its locale and date data with its first date format: 33–81 ms of
 * one task (three fresh tabs, `new Intl.DateTimeFormat('it-IT', …)`), then under 1 ms for each other
 * format, zone or option. Left to the first signed-in screen, that task fell in the dashboard's render
 * just as the operator clicked the menu (issue 32). Warmed by the entry for a deep link (`main.tsx`) and
 * while the user types on the sign-in page (`app/preload.ts`).
 */
export function warmUpFormatters(language: Language, timeZone?: string): void {
  const formatters = createFormatters(language, timeZone);
  formatters.date(0);
  formatters.number(0);
}
