import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayOf, utcDate, zoneOf } from './day-of.ts';

describe('utcDate', () => {
  it('matches toISOString for every instant a Date can hold', () => {
    const instant = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }),
      // Around midnights, where an off-by-one would show.
      fc
        .tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.constantFrom(-1, 0, 1))
        .map(([day, shift]) => day * 86_400_000 + shift),
    );
    fc.assert(
      fc.property(instant, (now) => {
        expect(utcDate(now)).toBe(new Date(now).toISOString().slice(0, 10));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles leap days and the first instant of a year', () => {
    expect(utcDate(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29');
    expect(utcDate(Date.UTC(2000, 1, 29))).toBe('2000-02-29');
    expect(utcDate(Date.UTC(2100, 2, 1) - 1)).toBe('2100-02-28');
    expect(utcDate(Date.UTC(2025, 0, 1))).toBe('2025-01-01');
    expect(utcDate(-1)).toBe('1969-12-31');
  });
});

describe('dayOf', () => {
  it('takes the date in the zone, across a DST change', () => {
    expect(zoneOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(zoneOf('Not/AZone')).toBeNull();
    // 2024-03-31: Berlin moves from UTC+1 to UTC+2 at 01:00 UTC.
    expect(dayOf('Europe/Berlin', Date.UTC(2024, 2, 30, 22, 59))).toBe('2024-03-30');
    expect(dayOf('Europe/Berlin', Date.UTC(2024, 2, 30, 23, 0))).toBe('2024-03-31');
    expect(dayOf('Europe/Berlin', Date.UTC(2024, 2, 31, 21, 59))).toBe('2024-03-31');
    expect(dayOf('Europe/Berlin', Date.UTC(2024, 2, 31, 22, 0))).toBe('2024-04-01');
    expect(dayOf('Pacific/Kiritimati', Date.UTC(2024, 0, 1, 10, 0))).toBe('2024-01-02');
  });

  it('agrees with Intl at every minute of days with DST changes and odd offsets', () => {
    for (const zone of [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/Asuncion',
    ]) {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      for (const start of [
        Date.UTC(2024, 2, 30),
        Date.UTC(2024, 9, 5),
        Date.UTC(2024, 9, 26),
        Date.UTC(1890, 0, 1),
      ]) {
        for (let t = start; t < start + 2 * 86_400_000; t += 60_000 - 1) {
          expect(dayOf(zone, t), `${zone} ${t}`).toBe(format.format(t));
        }
      }
    }
  });
});
