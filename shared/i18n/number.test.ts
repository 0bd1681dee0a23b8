import { describe, expect, it } from 'vitest';
import { comments as en } from './en/comments';
import { exactDateTime, formatNumber, pluralCategory, stockholmDay } from './number';
import { comments as sv } from './sv/comments';

describe('formatNumber', () => {
  it('writes what Intl.NumberFormat writes for sv-SE and en-GB', () => {
    const values = [0, 1, 2.4, 2.45, 2.35, 4.95, 5, 9.999, 999, 1000, 5682, 12345.678, 999999.5, 1234567, 0.05, 1.005, 200000];
    for (const lang of ['sv', 'en'] as const) {
      const locale = lang === 'sv' ? 'sv-SE' : 'en-GB';
      for (const digits of [0, 1, 2]) {
        const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
        for (const n of values) expect(formatNumber(n, digits, lang), `${lang} ${digits} ${n}`).toBe(intl.format(n));
        // Averages of star ratings and counts, as the pages show them.
        for (let i = 0; i < 2000; i++) {
          const n = i % 2 ? (i * 7919) % 500001 : ((i * 104729) % 40001) / 8000;
          expect(formatNumber(n, digits, lang), `${lang} ${digits} ${n}`).toBe(intl.format(n));
        }
      }
    }
  });

  it('leaves negative and non-finite numbers to Intl', () => {
    expect(formatNumber(-1234, 0, 'sv')).toBe(new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 }).format(-1234));
    expect(formatNumber(Number.NaN, 0, 'en')).toBe('NaN');
    expect(formatNumber(1e-7, 1, 'sv')).toBe('0,0');
    expect(formatNumber(1e21, 0, 'en')).toBe(new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 }).format(1e21));
  });
});

describe('pluralCategory', () => {
  it('agrees with Intl.PluralRules for Swedish and English', () => {
    for (const lang of ['sv', 'en']) {
      const rules = new Intl.PluralRules(lang);
      for (const n of [0, 1, 1.5, 2, 11, 21, 101, 1000]) expect(pluralCategory(n), `${lang} ${n}`).toBe(rules.select(n));
    }
  });
});

describe('exactDateTime', () => {
  it('writes the local date and time in words, in Swedish and in English', () => {
    const d = new Date(2024, 4, 1, 9, 3, 59);
    expect(exactDateTime(d, sv.card.postedAt)).toBe('1 maj 2024 kl. 09:03');
    expect(exactDateTime(d, en.card.postedAt)).toBe('1 May 2024, 09:03');
    expect(exactDateTime(new Date(2023, 11, 24, 18, 30), sv.card.postedAt)).toBe('24 december 2023 kl. 18:30');
    expect(exactDateTime(new Date(2023, 0, 9, 0, 5), en.card.postedAt)).toBe('9 January 2023, 00:05');
  });

  it('agrees with the date Intl writes, for any date', () => {
    for (let i = 0; i < 200; i++) {
      const d = new Date(Date.UTC(2000, 0, 1) + i * 7_654_321_987);
      const month = d.toLocaleString('en-GB', { month: 'long' });
      expect(exactDateTime(d, en.card.postedAt), d.toISOString()).toBe(
        `${d.getDate()} ${month} ${d.getFullYear()}, ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`,
      );
      expect(exactDateTime(d, sv.card.postedAt), d.toISOString()).toContain(` ${d.toLocaleString('sv-SE', { month: 'long' })} `);
    }
  });

  it('gives nothing for an invalid date', () => {
    expect(exactDateTime(new Date('nonsense'), sv.card.postedAt)).toBeNull();
  });
});

describe('stockholmDay', () => {
  it('writes the day in Swedish time exactly as toLocaleDateString with the time zone did', () => {
    const options = { timeZone: 'Europe/Stockholm', year: 'numeric', month: 'long', day: 'numeric' } as const;
    for (let i = 0; i < 400; i++) {
      // Steps of ~3.7 days and 17 minutes: every month, both sides of midnight and of each change of clocks.
      const d = new Date(Date.UTC(2015, 0, 1) + i * 320_000_000 + (i % 7) * 1_020_000);
      expect(stockholmDay(d, sv.card.day), d.toISOString()).toBe(d.toLocaleDateString('sv-SE', options));
      expect(stockholmDay(d, en.card.day), d.toISOString()).toBe(d.toLocaleDateString('en-GB', options));
    }
  });

  it('counts a UTC evening as the next Swedish day', () => {
    expect(stockholmDay(new Date('2026-11-25T23:30:00Z'), sv.card.day)).toBe('26 november 2026');
    expect(stockholmDay(new Date('2026-06-30T22:10:00Z'), en.card.day)).toBe('1 July 2026');
    expect(stockholmDay(new Date('nonsense'), sv.card.day)).toBeNull();
  });
});
