import { describe, expect, it } from 'vitest';
import { createFormatters } from './format.ts';

// Intl puts a narrow no-break space in some outputs; compare on plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatters', () => {
  it('formats amounts, numbers and dates the Italian way', () => {
    const f = createFormatters('it', 'Europe/Rome');
    expect(plain(f.currency(1234.5))).toBe('1.234,50 €');
    expect(f.number(1234567.891)).toBe('1.234.567,891');
    expect(f.date('2026-11-21T10:00:00Z')).toBe('21/11/2026');
    expect(f.time('2026-11-21T10:00:00Z')).toBe('11:00');
  });

  it('formats amounts, numbers and dates the English way', () => {
    const f = createFormatters('en', 'Europe/Rome');
    expect(f.currency(1234.5)).toBe('€1,234.50');
    expect(f.number(1234567.891)).toBe('1,234,567.891');
    expect(f.date('2026-11-21T10:00:00Z')).toBe('11/21/2026');
  });

  it("shows instants in the user's time zone", () => {
    const instant = '2026-11-21T23:30:00Z';
    expect(createFormatters('it', 'Europe/Rome').date(instant)).toBe('22/11/2026');
    expect(createFormatters('it', 'America/New_York').date(instant)).toBe('21/11/2026');
    expect(createFormatters('it', 'Not/AZone').timeZone).not.toBe('Not/AZone');
  });

  it('shows a calendar day (a reward\'s last valid day) as the same day in every time zone', () => {
    expect(createFormatters('it', 'America/New_York').day('2027-06-30')).toBe('30/06/2027');
    expect(createFormatters('it', 'Pacific/Kiritimati').day('2027-06-30')).toBe('30/06/2027');
    expect(createFormatters('en', 'Europe/Rome').day('2027-06-30')).toBe('06/30/2027');
    expect(createFormatters('it', 'Europe/Rome').day('not a day')).toBe('');
  });

  it('keeps a date and its time together on one line', () => {
    expect(createFormatters('it', 'Europe/Rome').dateTime('2026-11-27T17:19:00Z')).toBe('27/11/2026,\u00a018:19');
    expect(createFormatters('en', 'Europe/Rome').dateTime('2026-11-27T17:19:00Z')).not.toMatch(/ /);
  });

  it('returns an empty text for an invalid date rather than "Invalid Date"', () => {
    expect(createFormatters('en').dateTime('nonsense')).toBe('');
  });

  it('builds a language and zone once, and a zone the browser does not know falls back when first used', () => {
    const first = createFormatters('it', 'Europe/Rome');
    expect(createFormatters('it', 'Europe/Rome')).toBe(first);
    expect(createFormatters('en', 'Europe/Rome')).not.toBe(first);
    const unknown = createFormatters('it', 'Not/AZone');
    expect(unknown.date('2026-11-21T10:00:00Z')).toMatch(/^\d{2}\/\d{2}\/2026$/);
    expect(unknown.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
