import type { Language } from '../schemas/common';
import { stockholmClock } from '../schemas/opening-hours-status';

const SEPARATORS: Record<Language, { group: string; decimal: string }> = {
  // What Intl.NumberFormat('sv-SE') and ('en-GB') write: a no-break space / a comma between
  // thousands, a comma / a point before decimals.
  sv: { group: '\u00a0', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/**
 * Formats a count or an average as Intl.NumberFormat would for the language, without it: the
 * first Intl formatter of a page loads locale data, which blocks a phone's main thread for a
 * long moment while the page starts. Negative and non-finite numbers go to Intl as before.
 */
export function formatNumber(n: number, digits: number, lang: Language): string {
  if (!Number.isFinite(n) || n < 0 || String(n).includes('e')) {
    return new Intl.NumberFormat(lang === 'sv' ? 'sv-SE' : 'en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n);
  }
  const { group, decimal } = SEPARATORS[lang];
  // Intl rounds half away from zero on the number's shortest decimal form (1.005 -> 1.01);
  // shifting that form by `digits` places before Math.round does the same.
  const rounded = Number(`${Math.round(Number(`${n}e${digits}`))}e-${digits}`);
  const [whole = '0', fraction] = rounded.toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return fraction ? `${grouped}${decimal}${fraction}` : grouped;
}

/** The plural category of a count in Swedish and English: 'one' for exactly 1 (CLDR: i = 1 and v = 0). */
export function pluralCategory(n: number): 'one' | 'other' {
  return n === 1 ? 'one' : 'other';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The catalog's wording of a date and time (comments.card.postedAt); month 0 to 11. */
type DateWords = (day: number, month: number, year: number, time: string) => string;

/**
 * A local date and time in the language's words ("1 maj 2024 kl. 12:03", "1 May 2024, 12:03"),
 * for the exact time behind a relative one, without loading Intl's locale data on a page of
 * comments; null for an invalid date.
 */
export function exactDateTime(d: Date, words: DateWords): string | null {
  if (Number.isNaN(d.getTime())) return null;
  return words(d.getDate(), d.getMonth(), d.getFullYear(), `${pad(d.getHours())}:${pad(d.getMinutes())}`);
}

/** The catalog's wording of a calendar day (comments.card.day); month 0 to 11. */
type DayWords = (day: number, month: number, year: number) => string;

/**
 * The day of `d` in Swedish time, in the language's words ("25 november 2026", "25 November
 * 2026"), the same on the server and in any browser (no hydration mismatch); null for an invalid
 * date. Without `toLocaleDateString` and a time zone, whose time-zone data took a phone's main
 * thread 25–70 ms to start on a business page (docs/decisions/021).
 */
export function stockholmDay(d: Date, words: DayWords): string | null {
  if (Number.isNaN(d.getTime())) return null;
  const day = new Date(stockholmClock(d).day);
  return words(day.getUTCDate(), day.getUTCMonth(), day.getUTCFullYear());
}
