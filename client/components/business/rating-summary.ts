import { useI18n } from '../../i18n';

/** '4,3 av 5 · 12 betyg' / '4.3 of 5 · 12 ratings', numbers and plurals by the language. */
export function useRatingSummary() {
  const { t, number, plural } = useI18n();
  return (rate: number, ratingCount: number) =>
    `${t.business.rating.outOf(number(rate, 1))} · ${number(ratingCount)} ${plural(ratingCount, t.business.rating.count)}`;
}
