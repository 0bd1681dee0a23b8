import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStatus, openingHoursSchema, openingHoursSpecification, stockholmClock, type HoursPeriod, type OpeningHours } from './opening-hours';
import type { HoursPeriod as PlainPeriod, OpeningHours as PlainHours } from './opening-hours-status';

// The browser's copy of the types (opening-hours-status.ts, without zod) says what the schema says.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesAgree: [Same<OpeningHours, PlainHours>, Same<HoursPeriod, PlainPeriod>] = [true, true];

describe('opening-hours-status.ts, the part the business page loads', () => {
  it('imports nothing, so no zod reaches the page (docs/decisions/021)', () => {
    const source = readFileSync(new URL('./opening-hours-status.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export .* from)\b/m);
    expect(typesAgree).toEqual([true, true]);
  });
});

const weekdays = (opens: string, closes: string) => [1, 2, 3, 4, 5].map((day) => ({ day, opens, closes }));
const hours: OpeningHours = {
  weekly: [...weekdays('10:00', '21:00'), { day: 6, opens: '10:00', closes: '18:00' }, { day: 5, opens: '22:00', closes: '02:00' }],
  exceptions: [{ date: '2026-12-24', periods: [], note: 'Julafton' }],
};
// Wednesday 25 November 2026; Stockholm is UTC+1 in winter, UTC+2 in summer.
const at = (iso: string) => new Date(iso);

describe('openStatus (Europe/Stockholm wall-clock time, the clock passed in)', () => {
  it('is open inside a period and says when it closes', () => {
    expect(openStatus(hours, at('2026-11-25T19:59:00Z'))).toEqual({ open: true, closes: '21:00' });
  });
  it('is closed after closing and says when it opens next, tomorrow', () => {
    expect(openStatus(hours, at('2026-11-25T20:00:00Z'))).toEqual({ open: false, opens: '10:00', inDays: 1, weekday: 4 });
  });
  it('is closed before opening and opens later today', () => {
    expect(openStatus(hours, at('2026-11-25T07:30:00Z'))).toEqual({ open: false, opens: '10:00', inDays: 0, weekday: 3 });
  });
  it('uses summer time: 09:30 UTC in June is 11:30 in Stockholm', () => {
    expect(openStatus(hours, at('2026-06-17T09:30:00Z'))).toEqual({ open: true, closes: '21:00' });
    expect(openStatus(hours, at('2026-06-17T07:30:00Z'))).toEqual({ open: false, opens: '10:00', inDays: 0, weekday: 3 });
  });
  it('keeps a period that runs past midnight open into the next day', () => {
    // Saturday 28 November 01:00 Stockholm: Friday's 22:00–02:00 is still running.
    expect(openStatus(hours, at('2026-11-28T00:00:00Z'))).toEqual({ open: true, closes: '02:00' });
  });
  it('lets a dated exception close a weekday and skips it when finding the next opening', () => {
    // Thursday 24 December 2026, noon: closed for Julafton; the weekly Friday hours come next.
    expect(openStatus(hours, at('2026-12-24T11:00:00Z'))).toEqual({ open: false, opens: '10:00', inDays: 1, weekday: 5 });
  });
  it('says no opening within a week for empty hours', () => {
    expect(openStatus({ weekly: [], exceptions: [] }, at('2026-11-25T12:00:00Z'))).toMatchObject({ open: false, opens: null });
  });
});

describe('stockholmClock (the EU summer-time rule, without Intl)', () => {
  const intl = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Stockholm',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  /** What the formatter with a time zone (the clock's form before) says of `t`. */
  function byIntl(t: number) {
    const parts = Object.fromEntries(intl.formatToParts(t).map((p) => [p.type, p.value]));
    const day = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
    return { day, weekday: ((new Date(day).getUTCDay() + 6) % 7) + 1, minute: Number(parts.hour) * 60 + Number(parts.minute) };
  }
  const HOUR = 3_600_000;

  it('agrees with Intl every 7 h 13 min from 2000 to 2045 (every hour of the day, many minutes)', () => {
    const wrong: string[] = [];
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2046, 0, 1); t += 7 * HOUR + 13 * 60_000) {
      const mine = stockholmClock(new Date(t));
      const theirs = byIntl(t);
      if (mine.day !== theirs.day || mine.weekday !== theirs.weekday || mine.minute !== theirs.minute) wrong.push(new Date(t).toISOString());
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('agrees with Intl minute by minute around each change of clocks, 2000–2045', () => {
    const wrong: string[] = [];
    for (let year = 2000; year <= 2045; year++) {
      for (const month of [2, 9]) {
        const lastDay = Date.UTC(year, month + 1, 0);
        const change = lastDay - new Date(lastDay).getUTCDay() * 86_400_000 + HOUR;
        for (let t = change - 2 * HOUR; t < change + 2 * HOUR; t += 60_000) {
          const mine = stockholmClock(new Date(t));
          const theirs = byIntl(t);
          if (mine.day !== theirs.day || mine.minute !== theirs.minute) wrong.push(new Date(t).toISOString());
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('puts the last minutes of the year and a summer midnight on the right day', () => {
    // 31 December 2026 23:30 UTC is 00:30 on 1 January 2027, a Friday, in Stockholm.
    expect(stockholmClock(new Date('2026-12-31T23:30:00Z'))).toEqual({ day: Date.UTC(2027, 0, 1), weekday: 5, minute: 30 });
    // 30 June 2026 22:10 UTC is 00:10 on 1 July, a Wednesday.
    expect(stockholmClock(new Date('2026-06-30T22:10:00Z'))).toEqual({ day: Date.UTC(2026, 6, 1), weekday: 3, minute: 10 });
  });
});

describe('openingHoursSchema', () => {
  it('refuses a time that is no time, a day outside 1–7 and a date given twice', () => {
    expect(openingHoursSchema.safeParse({ weekly: [{ day: 1, opens: '25:00', closes: '10:00' }], exceptions: [] }).success).toBe(false);
    expect(openingHoursSchema.safeParse({ weekly: [{ day: 8, opens: '09:00', closes: '10:00' }], exceptions: [] }).success).toBe(false);
    const twice = { date: '2026-12-24', periods: [] };
    expect(openingHoursSchema.safeParse({ weekly: [], exceptions: [twice, twice] }).success).toBe(false);
    expect(openingHoursSchema.safeParse(hours).success).toBe(true);
  });
});

describe('openingHoursSpecification', () => {
  it('gives each weekly period and each exception, a closed day as 00:00–00:00', () => {
    const spec = openingHoursSpecification(hours);
    expect(spec[0]).toEqual({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '10:00', closes: '21:00' });
    expect(spec.at(-1)).toEqual({ '@type': 'OpeningHoursSpecification', validFrom: '2026-12-24', validThrough: '2026-12-24', opens: '00:00', closes: '00:00' });
  });
});
