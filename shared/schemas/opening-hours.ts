import { z } from 'zod';

/**
 * A branch's opening hours (issue 31.1): a weekly schedule of periods and dated exceptions
 * (public holidays, a late evening). Times are wall-clock times in Europe/Stockholm; a period
 * whose closing time is not after its opening time runs past midnight ("22:00"–"02:00"), and
 * "00:00"–"00:00" is open all day. Validated here (server, facts form); open now or closed is worked out in
 * ./opening-hours-status.ts, without zod, which the business page loads.
 */
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
export { openStatus, periodsOn, stockholmClock, type OpenStatus } from './opening-hours-status';

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
