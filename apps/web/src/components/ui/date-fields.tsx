import { Input, Skeleton } from '@mantine/core';
import { lazy, Suspense, type ReactNode, type Ref } from 'react';

export type DateFieldProps = {
  label: string;
  description?: string | undefined;
  /** The day as `YYYY-MM-DD`, `''` for none. */
  value: string;
  /** The day chosen or typed whole, `''` when cleared. */
  onChange: (day: string) => void;
  onBlur?: (() => void) | undefined;
  error?: ReactNode;
  w?: number | undefined;
  /**
   * The days the calendar offers (`YYYY-MM-DD`); the others are greyed out. A day typed outside is kept
   * as typed and handed over, for the form to refuse in words (`error`) or the filter to say why.
   */
  minDate?: string | undefined;
  maxDate?: string | undefined;
  /**
   * The label of the field minDate comes from (a period's "Dal"): a day typed before it is named on this
   * field, "Al: la data non può venire prima di Dal", unless `error` says something else.
   */
  minDateName?: string | undefined;
  clearable?: boolean | undefined;
  readOnly?: boolean | undefined;
  withAsterisk?: boolean | undefined;
  /** A day far from today (a birth date): the calendar opens on the decades, to pick the year first. */
  isYearFirst?: boolean | undefined;
  /**
   * Receives what moves the focus to the field (react-hook-form's `field.ref`): with the calendar
   * closed, so that it does not cover the field's error, which a refused submit focuses it for.
   */
  focusRef?: Ref<{ focus(): void }> | undefined;
};

export type DateTimeFieldProps = {
  label: string;
  description?: string | undefined;
  /** A time on the user's wall clock, `YYYY-MM-DD HH:mm:ss` (see `lib/time-zone.ts`), `''` for none. */
  value: string;
  onChange: (wallClock: string) => void;
  onBlur?: (() => void) | undefined;
  error?: ReactNode;
  /**
   * The earliest moment allowed; only its day is enforced here (earlier days cannot be picked). An
   * earlier time on that day is kept as typed, for the form to refuse in words: the picker would move
   * it to this moment silently, and a campaign set for 01:10 at 01:45 went out at 01:45 unsaid.
   */
  minDate?: string | undefined;
  withAsterisk?: boolean | undefined;
  /** Receives the field's button, so a form can move the focus to it (react-hook-form's `field.ref`). */
  focusRef?: Ref<HTMLButtonElement> | undefined;
};

// The calendars (Mantine's dates, dayjs with its Italian names and its parser: ~14 KB of script and
// 4 KB of style on the wire) load with the first date field a screen shows, not with the list kit and
// the dashboard that every deep link and every sign-in load (decision 037).
const pickers = () => import('./date-pickers.tsx');
const LazyDateField = lazy(async () => ({ default: (await pickers()).DateFieldInput }));
const LazyDateTimeField = lazy(async () => ({ default: (await pickers()).DateTimeFieldInput }));

/** While the calendars load: the label and a field's outline, so nothing moves when the field comes. */
function Placeholder({ label, description, w }: { label: string; description?: string | undefined; w?: number | undefined }) {
  return (
    <Input.Wrapper label={label} description={description} w={w}>
      <Skeleton h={36} />
    </Input.Wrapper>
  );
}

/**
 * The one date field of the app: a day typed or picked in the user's language (21/11/2026 in
 * Italian, 11/21/2026 in English) whatever the browser's language, which the browser's own date
 * field would follow instead.
 */
export function DateField(props: DateFieldProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} description={props.description} w={props.w} />}>
      <LazyDateField {...props} />
    </Suspense>
  );
}

/** A day and a time on the user's wall clock (the news editor's and a campaign's schedule). */
export function DateTimeField(props: DateTimeFieldProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} description={props.description} />}>
      <LazyDateTimeField {...props} />
    </Suspense>
  );
}
