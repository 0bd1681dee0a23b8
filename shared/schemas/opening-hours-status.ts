/**
 * Open now or closed, from a branch's opening hours (issue 31.1): the part of
 * ./opening-hours.ts that the business page runs in the browser ("Öppet nu · stänger 21:00").
 * It has no zod, so the page's chunk does not bring zod's 24 KB (gzip) and the schemas it would
 * build at load (docs/decisions/021). Times are wall-clock times in Europe/Stockholm; a period
 * whose closing time is not after its opening time runs past midnight ("22:00"–"02:00"), and
 * "00:00"–"00:00" is open all day. The caller passes its own clock.
 */
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

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The last Sunday of a month (0-based) of a year, as a UTC midnight. */
function lastSunday(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/**
 * Stockholm's offset from UTC at `t`, in ms: one hour, two in summer time. Sweden keeps the EU's
 * rule (directive 2000/84/EC, in force since 1996): summer time from 01:00 UTC on the last Sunday
 * of March to 01:00 UTC on the last Sunday of October. Computed here rather than by an
 * `Intl.DateTimeFormat` with a time zone: making that formatter starts ICU's time-zone data,
 * which took 25–70 ms of a phone's main thread on every business page (docs/decisions/021). The
 * test compares it with `Intl` every 7 h 13 min over 2000–2045 and minute by minute around each
 * change; if the EU ever drops the change of clocks, that test fails the year it takes effect.
 */
function stockholmOffset(t: number): number {
  const year = new Date(t).getUTCFullYear();
  return t >= lastSunday(year, 2) + HOUR_MS && t < lastSunday(year, 9) + HOUR_MS ? 2 * HOUR_MS : HOUR_MS;
}

/** The Stockholm calendar date (as a UTC midnight, for day arithmetic), weekday and minute of `now`. */
export function stockholmClock(now: Date): { day: number; weekday: number; minute: number } {
  const local = now.getTime() + stockholmOffset(now.getTime());
  const day = Math.floor(local / DAY_MS) * DAY_MS;
  return { day, weekday: isoWeekday(day), minute: Math.floor((local - day) / 60_000) };
}

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
