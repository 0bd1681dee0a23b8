import { useI18n } from '../../i18n';

/**
 * '4,3 av 5 · 12 betyg' / '4.3 of 5 · 12 ratings', numbers and plurals by the language;
 * 'Inga betyg än' / 'No ratings yet' while nobody has rated (PRODUCT.md section 4).
 */
export function useRatingSummary() {
  const { t, number, plural } = useI18n();
  return (rate: number | null, ratingCount: number) =>
    rate === null || ratingCount === 0
      ? t.business.rating.none
      : `${t.business.rating.outOf(number(rate, 1))} · ${number(ratingCount)} ${plural(ratingCount, t.business.rating.count)}`;
}
