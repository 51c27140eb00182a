import { describe, expect, it } from 'vitest';
import { dayOfInstant, instantOfDay, nextFullHourAsWallClock } from './time-zone.ts';

describe('nextFullHourAsWallClock', () => {
  it('proposes the next full hour on the user’s wall clock', () => {
    expect(nextFullHourAsWallClock('Europe/Rome', new Date('2026-11-21T09:20:00Z'))).toBe('2026-11-21 11:00:00');
  });

  it('moves to the next day when it is past 23:00 in the user’s zone', () => {
    // 23:40 in Rome (UTC+1): the next full hour is midnight of the 22nd, not 00:00 of the 21st.
    expect(nextFullHourAsWallClock('Europe/Rome', new Date('2026-11-21T22:40:00Z'))).toBe('2026-11-22 00:00:00');
  });

  it('crosses the end of a month and of a year', () => {
    expect(nextFullHourAsWallClock('Europe/Rome', new Date('2026-12-31T22:59:59Z'))).toBe('2027-01-01 00:00:00');
  });
});

describe('a day and its instants in a zone', () => {
  it('reads the day of an instant in the given zone, not the browser’s', () => {
    // Rome's midnight of 30 October is still the 29th in UTC: a dashboard link's "from".
    expect(dayOfInstant('2026-10-29T23:00:00.000Z', 'Europe/Rome')).toBe('2026-10-30');
    expect(dayOfInstant('2026-10-29T23:00:00.000Z', 'UTC')).toBe('2026-10-29');
    expect(dayOfInstant(undefined, 'Europe/Rome')).toBe('');
    expect(dayOfInstant('not an instant', 'Europe/Rome')).toBe('');
  });

  it('gives the first and the last millisecond of a day in the zone, on daylight-saving days too', () => {
    expect(instantOfDay('2026-11-23', 'Europe/Rome', false)).toBe('2026-11-22T23:00:00.000Z');
    expect(instantOfDay('2026-11-23', 'Europe/Rome', true)).toBe('2026-11-23T22:59:59.999Z');
    // 25 October 2026 has 25 hours in Rome (UTC+2 until 03:00, then UTC+1).
    expect(instantOfDay('2026-10-25', 'Europe/Rome', false)).toBe('2026-10-24T22:00:00.000Z');
    expect(instantOfDay('2026-10-25', 'Europe/Rome', true)).toBe('2026-10-25T22:59:59.999Z');
    expect(instantOfDay('2026-11-23', 'UTC', true)).toBe('2026-11-23T23:59:59.999Z');
    expect(dayOfInstant(instantOfDay('2026-03-29', 'Europe/Rome', true), 'Europe/Rome')).toBe('2026-03-29');
  });

  it('takes nothing that is not a day', () => {
    expect(instantOfDay('', 'Europe/Rome', false)).toBeUndefined();
    expect(instantOfDay('not a day', 'Europe/Rome', true)).toBeUndefined();
    expect(instantOfDay('2026-02-30', 'Europe/Rome', false)).toBeUndefined();
  });
});
