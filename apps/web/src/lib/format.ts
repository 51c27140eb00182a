import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@sf/contract/app-info';
import { isLanguage } from './i18n.ts';
import { useCurrentUser } from './session.ts';

/** The Intl locale of each UI language: Italian for `it`, US English for `en` (PRODUCT.md examples). */
export const LOCALES: Record<Language, string> = { it: 'it-IT', en: 'en-US' };

export type Formatters = {
  date(value: Date | string | number): string;
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

function isValidTimeZone(zone: string | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Formatters for a language and time zone; `useFormatters()` picks both from the UI and the profile. */
export function createFormatters(language: Language, timeZone?: string): Formatters {
  const locale = LOCALES[language];
  const zone = isValidTimeZone(timeZone) ? timeZone : browserTimeZone();
  const dateFormat = new Intl.DateTimeFormat(locale, { timeZone: zone, day: '2-digit', month: '2-digit', year: 'numeric' });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  const timeFormat = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit' });
  // CLDR leaves 4-digit Italian numbers ungrouped ("1234,50"); the product wants "1.234,50 €".
  const numberFormat = new Intl.NumberFormat(locale, { useGrouping: 'always' });
  const currencyFormat = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', useGrouping: 'always' });
  const toDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));
  const safe = (format: Intl.DateTimeFormat, value: Date | string | number) => {
    const date = toDate(value);
    return Number.isNaN(date.getTime()) ? '' : format.format(date);
  };
  return {
    date: (value) => safe(dateFormat, value),
    dateTime: (value) => safe(dateTimeFormat, value),
    time: (value) => safe(timeFormat, value),
    number: (value) => numberFormat.format(value),
    currency: (value) => currencyFormat.format(value),
    locale,
    timeZone: zone,
  };
}

export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const user = useCurrentUser();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'it';
  const timeZone = user?.timeZone;
  return useMemo(() => createFormatters(language, timeZone), [language, timeZone]);
}
