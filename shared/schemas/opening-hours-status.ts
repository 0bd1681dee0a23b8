/**
 * Open now or closed, from a branch's opening hours (issue 31.1): the part of
 * ./opening-hours.ts that the business page runs in the browser ("Öppet nu · stänger 21:00").
 * It has no zod, so the page's chunk does not bring zod's 24 KB (gzip) and the schemas it would
 * build at load (docs/decisions/021). Times are wall-clock times in Europe/Stockholm; a period
 * whose closing time is not after its opening time runs past midnight ("22:00"–"02:00"), and
 * "00:00"–"00:00" is open all day. The caller passes its own clock.
 */
export const SITE_TIME_ZONE = 'Europe/Stockholm';

/** One opening period, "HH:MM" to "HH:MM". */
export type HoursPeriod = { opens: string; closes: string };
/** A branch's hours as ./opening-hours.ts validates them (its test checks the two agree). */
export type OpeningHours = {
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekly: Array<HoursPeriod & { day: number }>;
  exceptions: Array<{ date: string; periods: HoursPeriod[]; note?: string | undefined }>;
};

/** Open now and until when, or closed and when it next opens (`inDays`: 0 today, 1 tomorrow …; null: not within a week). */
export type OpenStatus = { open: true; closes: string } | { open: false; opens: string | null; inDays: number; weekday: number };

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

// Made once: a formatter with a time zone costs far more to make than to use, and a business
// page shows the status of every branch.
let clockFormat: Intl.DateTimeFormat | undefined;

/** The Stockholm calendar date (as a UTC midnight, for day arithmetic), weekday and minute of `now`. */
export function stockholmClock(now: Date): { day: number; weekday: number; minute: number } {
  clockFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: SITE_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(clockFormat.formatToParts(now).map((p) => [p.type, p.value]));
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
