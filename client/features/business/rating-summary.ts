import { useI18n } from '../../i18n';

/**
 * '4,3 av 5 · 12 betyg' / '4.3 of 5 · 12 ratings', numbers and plurals by the language;
 * 'Inga betyg än' / 'No ratings yet' while nobody has rated (docs/product.md §4). With
 * `reviewCount` (the business page) the written reviews follow, so stars and reviews are not
 * read as one number: '4,3 av 5 · 7 betyg · 1 recension' (issue 29.1).
 */
export function useRatingSummary() {
  const { t, number, plural } = useI18n();
  const r = t.business.rating;
  return (rate: number | null, ratingCount: number, reviewCount?: number) => {
    const stars = rate === null || ratingCount === 0 ? r.none : `${r.outOf(number(rate, 1))} · ${number(ratingCount)} ${plural(ratingCount, r.count)}`;
    return reviewCount === undefined || reviewCount === 0 ? stars : `${stars} · ${number(reviewCount)} ${plural(reviewCount, r.reviews)}`;
  };
}
