import '@mantine/dates/styles.css';
import { DateInput, DatesProvider, DateTimePicker, type DatesProviderSettings } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
// The Italian month and day names of the calendars.
import 'dayjs/locale/it';
import { useImperativeHandle, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Language } from '@sf/contract/app-info';
import { message } from '@sf/contract/messages';
import { isLanguage } from '../../lib/i18n.ts';
import type { DateFieldProps, DateTimeFieldProps } from './date-fields.tsx';

dayjs.extend(customParseFormat);

const SHOWN_DAY: Record<Language, string> = { it: 'DD/MM/YYYY', en: 'MM/DD/YYYY' };
const SHOWN_DAY_AND_TIME: Record<Language, string> = { it: 'DD/MM/YYYY HH:mm', en: 'MM/DD/YYYY hh:mm A' };

/**
 * What a person may type: the day in their language's order, with or without leading zeros, or the
 * ISO form (pasted from a spreadsheet). Strict, so a year still being typed ("21/11/202") or a day
 * that does not exist ("31/02/2026") is no date at all: the field keeps its last value meanwhile,
 * and a list does not ask the server for year 202 at every keystroke.
 */
const TYPED_DAY: Record<Language, string[]> = {
  it: ['D/M/YYYY', 'DD/MM/YYYY', 'D/MM/YYYY', 'DD/M/YYYY', 'YYYY-MM-DD'],
  en: ['M/D/YYYY', 'MM/DD/YYYY', 'M/DD/YYYY', 'MM/D/YYYY', 'YYYY-MM-DD'],
};

function parseTypedDay(typed: string, language: Language): string | null {
  const day = dayjs(typed.trim(), TYPED_DAY[language], true);
  return day.isValid() ? day.format('YYYY-MM-DD') : null;
}

function useLanguage(): { language: Language; t: ReturnType<typeof useTranslation>['t'] } {
  const { t, i18n } = useTranslation('dates');
  return { language: isLanguage(i18n.language) ? i18n.language : 'it', t };
}

/**
 * The calendars' month names and first weekday follow the app's language, not the browser's. No day is
 * drawn in Mantine's pale weekend red or its faded neighbouring months' grey: both fail the contrast
 * a text needs (2.4 and 3.3 against 4.5, axe in the campaign journey), so those days are plain and the
 * neighbouring months' are left out.
 */
function settingsFor(language: Language): DatesProviderSettings {
  return { locale: language, firstDayOfWeek: language === 'it' ? 1 : 0, weekendDays: [] };
}

/**
 * The calendar's arrows carry no text of their own: a screen reader needs their names. (Its heading
 * keeps its own, the month or year shown, which a name of ours would hide.)
 */
function calendarLabels(t: ReturnType<typeof useTranslation>['t']) {
  const names = ['previousMonth', 'nextMonth', 'previousYear', 'nextYear', 'previousDecade', 'nextDecade'] as const;
  return Object.fromEntries(names.map((name) => [name, t(name)]));
}

/**
 * The calendar's days, months and years outside `[minDate, maxDate]`, greyed out. Not Mantine's own
 * minDate and maxDate: with them DateInput drops a day typed outside and puts back the last one on
 * blur, without a word (a "Ricevuta il" in the future became today). Days are `YYYY-MM-DD`.
 */
function outsideRange(minDate: string | undefined, maxDate: string | undefined) {
  const isOutside = (first: string, last: string) => Boolean((minDate && last < minDate) || (maxDate && first > maxDate));
  const span = (date: string, unit: 'day' | 'month' | 'year') => [dayjs(date).startOf(unit).format('YYYY-MM-DD'), dayjs(date).endOf(unit).format('YYYY-MM-DD')] as const;
  if (!minDate && !maxDate) return {};
  return {
    excludeDate: (date: string) => isOutside(...span(date, 'day')),
    getMonthControlProps: (date: string) => ({ disabled: isOutside(...span(date, 'month')) }),
    getYearControlProps: (date: string) => ({ disabled: isOutside(...span(date, 'year')) }),
  };
}

export function DateFieldInput({ label, description, value, onChange, onBlur, error, w, minDate, maxDate, minDateName, clearable, readOnly, withAsterisk, isYearFirst, focusRef }: DateFieldProps) {
  const { language, t } = useLanguage();
  const isBeforeNamed = Boolean(minDateName && minDate && value && value < minDate);
  // DateInput opens its calendar on focus. When a refused submit moves the focus here, the calendar
  // covered the very text that says why ("Ricevuta il: la data non può essere futura"): that focus
  // leaves it closed, until the person clicks the field or types in it.
  const input = useRef<HTMLInputElement>(null);
  const [isFocusedByForm, setIsFocusedByForm] = useState(false);
  useImperativeHandle(focusRef, () => ({
    focus: () => {
      // Rendered before the focus event, on which DateInput opens the calendar.
      flushSync(() => setIsFocusedByForm(true));
      input.current?.focus();
    },
  }));
  return (
    <DatesProvider settings={settingsFor(language)}>
      <DateInput
        ref={input}
        label={label}
        description={description}
        value={value || null}
        onChange={(day) => onChange(day ?? '')}
        onBlur={() => {
          setIsFocusedByForm(false);
          onBlur?.();
        }}
        onClick={() => setIsFocusedByForm(false)}
        onKeyDown={(event) => {
          if (event.key !== 'Tab' && event.key !== 'Shift') setIsFocusedByForm(false);
        }}
        {...(isFocusedByForm ? { popoverProps: { disabled: true } } : {})}
        error={error ?? (isBeforeNamed ? message('notBefore', language, { field: label, after: minDateName }) : undefined)}
        w={w}
        {...outsideRange(minDate || undefined, maxDate || undefined)}
        clearable={clearable && !readOnly}
        clearButtonProps={{ 'aria-label': t('clear', { field: label }) }}
        readOnly={readOnly}
        withAsterisk={withAsterisk}
        valueFormat={SHOWN_DAY[language]}
        dateParser={(typed) => parseTypedDay(typed, language)}
        placeholder={t('dayPlaceholder')}
        ariaLabels={calendarLabels(t)}
        defaultLevel={isYearFirst && !value ? 'decade' : 'month'}
        hideOutsideDates
      />
    </DatesProvider>
  );
}

export function DateTimeFieldInput({ label, description, value, onChange, onBlur, error, minDate, withAsterisk, focusRef }: DateTimeFieldProps) {
  const { language, t } = useLanguage();
  return (
    <DatesProvider settings={settingsFor(language)}>
      <DateTimePicker
        label={label}
        description={description}
        value={value || null}
        onChange={(wallClock) => onChange(wallClock ?? '')}
        onBlur={onBlur}
        error={error}
        // The day only (see DateTimeFieldProps.minDate): Mantine clamps a time before minDate to it on closing.
        minDate={minDate ? `${minDate.slice(0, 10)} 00:00:00` : undefined}
        ref={focusRef}
        valueFormat={SHOWN_DAY_AND_TIME[language]}
        timePickerProps={{ format: language === 'it' ? '24h' : '12h', hoursInputLabel: t('hours'), minutesInputLabel: t('minutes'), amPmInputLabel: t('amPm') }}
        ariaLabels={calendarLabels(t)}
        hideOutsideDates
        withAsterisk={withAsterisk}
        submitButtonProps={{ 'aria-label': t('confirmTime') }}
        clearable={false}
        placeholder={t('dayAndTimePlaceholder')}
      />
    </DatesProvider>
  );
}
