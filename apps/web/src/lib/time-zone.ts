import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
// The Italian month and day names for the date picker.
import 'dayjs/locale/it';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The wall-clock format the Mantine date pickers read and write. */
const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';

/**
 * The pickers (and the browser's own date-time field) know nothing of time zones, so an instant is
 * shown as the wall-clock time of the user's zone rather than of the browser (they differ when the
 * profile names another zone): the news editor's schedule and a campaign's "Invia il" alike.
 */
export function instantToWallClock(iso: string, timeZone: string): string {
  return dayjs(iso).tz(timeZone).format(WALL_CLOCK);
}

export function wallClockToInstant(wallClock: string, timeZone: string): string {
  return dayjs.tz(wallClock, timeZone).toISOString();
}

export function nowAsWallClock(timeZone: string): string {
  return dayjs().tz(timeZone).format(WALL_CLOCK);
}

/**
 * The next full hour on the user's wall clock, as a starting point for scheduling: always after
 * `now` and at most an hour ahead, across midnight and month ends too.
 */
export function nextFullHourAsWallClock(timeZone: string, now: Date = new Date()): string {
  return dayjs(now).add(1, 'hour').tz(timeZone).minute(0).second(0).format(WALL_CLOCK);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The day (`YYYY-MM-DD`) an instant falls on in `timeZone`: a list's period filter shows the day of the
 * instant in its URL as the rows show their times, in the user's zone, not the browser's (a browser on
 * UTC read Rome's midnight as the day before).
 */
export function dayOfInstant(iso: string | undefined, timeZone: string): string {
  if (!iso) return '';
  const instant = dayjs(iso);
  return instant.isValid() ? instant.tz(timeZone).format('YYYY-MM-DD') : '';
}

/** The first (or, `isEnd`, the last) millisecond of `day` in `timeZone`; nothing for what is not a day. */
export function instantOfDay(day: string, timeZone: string, isEnd: boolean): string | undefined {
  if (!DAY.test(day)) return undefined;
  const start = dayjs.tz(`${day} 00:00:00`, timeZone);
  if (!start.isValid() || start.format('YYYY-MM-DD') !== day) return undefined;
  // The end is the next day's start less a millisecond, so a day of 23 or 25 hours (daylight saving) ends right.
  return (isEnd ? dayjs.tz(`${start.add(1, 'day').format('YYYY-MM-DD')} 00:00:00`, timeZone).subtract(1, 'millisecond') : start).toISOString();
}
