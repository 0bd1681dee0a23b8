import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStatus, openingHoursSchema, openingHoursSpecification, type HoursPeriod, type OpeningHours } from './opening-hours';
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
