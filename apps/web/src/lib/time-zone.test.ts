import { describe, expect, it } from 'vitest';
import { nextFullHourAsWallClock } from './time-zone.ts';

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
