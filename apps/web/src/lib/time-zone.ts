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
