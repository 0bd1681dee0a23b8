import { z } from 'zod';

/**
 * A branch's opening hours (issue 31.1): a weekly schedule of periods and dated exceptions
 * (public holidays, a late evening). Times are wall-clock times in Europe/Stockholm; a period
 * whose closing time is not after its opening time runs past midnight ("22:00"–"02:00"), and
 * "00:00"–"00:00" is open all day. Shared by the server (validation, JSON-LD) and the client
 * ("Öppet nu · stänger 21:00"), which passes its own clock.
 */
export const SITE_TIME_ZONE = 'Europe/Stockholm';
export const MAX_WEEKLY_PERIODS = 21;
export const MAX_HOUR_EXCEPTIONS = 60;
export const HOURS_NOTE_MAX = 60;

const timeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'hoursTimeInvalid');
const periodSchema = z.object({ opens: timeSchema, closes: timeSchema });

/** ISO weekday: 1 Monday … 7 Sunday. */
export const weeklyPeriodSchema = periodSchema.extend({ day: z.number().int().min(1, 'hoursDayInvalid').max(7, 'hoursDayInvalid') });

export const hoursExceptionSchema = z.object({
  date: z.iso.date('hoursDateInvalid'),
  /** Empty: closed all day. */
  periods: z.array(periodSchema).max(3, 'hoursTooMany'),
  /** What the day is ("Julafton"), shown beside it. */
  note: z.string().trim().max(HOURS_NOTE_MAX, 'hoursNoteTooLong').optional(),
});

export const openingHoursSchema = z.object({
  weekly: z.array(weeklyPeriodSchema).max(MAX_WEEKLY_PERIODS, 'hoursTooMany'),
  exceptions: z
    .array(hoursExceptionSchema)
    .max(MAX_HOUR_EXCEPTIONS, 'hoursTooMany')
    .refine((list) => new Set(list.map((e) => e.date)).size === list.length, 'hoursDateTwice'),
});
export type OpeningHours = z.infer<typeof openingHoursSchema>;
export type HoursPeriod = z.infer<typeof periodSchema>;

/** Open now and until when, or closed and when it next opens (`inDays`: 0 today, 1 tomorrow …; null: not within a week). */
export type OpenStatus = { open: true; closes: string } | { open: false; opens: string | null; inDays: number; weekday: number };

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The Stockholm calendar date (as a UTC midnight, for day arithmetic), weekday and minute of `now`. */
export function stockholmClock(now: Date): { day: number; weekday: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: SITE_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const day = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  return { day, weekday: isoWeekday(day), minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const DAY_MS = 86_400_000;
const isoWeekday = (utcMidnight: number) => ((new Date(utcMidnight).getUTCDay() + 6) % 7) + 1;
const isoDate = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);

/** The periods of one calendar day: its exception's, else the weekly schedule's for its weekday. */
export function periodsOn(hours: OpeningHours, utcMidnight: number): HoursPeriod[] {
  const exception = hours.exceptions.find((e) => e.date === isoDate(utcMidnight));
  if (exception) return exception.periods;
  const weekday = isoWeekday(utcMidnight);
  return hours.weekly.filter((p) => p.day === weekday).sort((a, b) => minutes(a.opens) - minutes(b.opens));
}

/** A period's end in minutes from its day's midnight: past 1440 when it runs over midnight. */
const endOf = (p: HoursPeriod) => (minutes(p.closes) <= minutes(p.opens) ? minutes(p.closes) + 1440 : minutes(p.closes));

/** Whether the branch is open at `now` (the caller's clock) and the next change, in Stockholm time. */
export function openStatus(hours: OpeningHours, now: Date): OpenStatus {
  const { day, minute } = stockholmClock(now);
  // Yesterday's periods that run past midnight come first: "open until 02:00".
  const running = [
    ...periodsOn(hours, day - DAY_MS).map((p) => ({ start: minutes(p.opens) - 1440, end: endOf(p) - 1440, p })),
    ...periodsOn(hours, day).map((p) => ({ start: minutes(p.opens), end: endOf(p), p })),
  ].find((r) => r.start <= minute && minute < r.end);
  if (running) return { open: true, closes: running.p.closes };
  for (let inDays = 0; inDays <= 7; inDays++) {
    const date = day + inDays * DAY_MS;
    const next = periodsOn(hours, date).find((p) => inDays > 0 || minutes(p.opens) > minute);
    if (next) return { open: false, opens: next.opens, inDays, weekday: isoWeekday(date) };
  }
  return { open: false, opens: null, inDays: 0, weekday: isoWeekday(day) };
}

const SCHEMA_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** schema.org's openingHoursSpecification of these hours: the weekly periods, then each exception (closed: 00:00–00:00). */
export function openingHoursSpecification(hours: OpeningHours): Array<Record<string, string>> {
  return [
    ...hours.weekly.map((p) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: `https://schema.org/${SCHEMA_DAYS[p.day - 1]}`,
      opens: p.opens,
      closes: p.closes,
    })),
    ...hours.exceptions.flatMap((e) =>
      (e.periods.length > 0 ? e.periods : [{ opens: '00:00', closes: '00:00' }]).map((p) => ({
        '@type': 'OpeningHoursSpecification',
        validFrom: e.date,
        validThrough: e.date,
        opens: p.opens,
        closes: p.closes,
      })),
    ),
  ];
}
