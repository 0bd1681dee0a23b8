/**
 * The stored count and average columns, derived from the rating rows the seed inserts, so the
 * demo data obeys the same invariant the services keep (docs/product.md §4).
 */
import { applyRate, NO_RATINGS, type RatingTally } from '../services/comments/emoji-ratings';

/** For a comment or reply: the tally the services keep, as if each rate had been given in turn. */
export function emojiRatingColumns(rates: readonly number[]): RatingTally {
  return rates.reduce((tally, rate) => {
    if (!Number.isInteger(rate) || rate < 1 || rate > 5) throw new Error(`emoji rate out of range: ${rate}`);
    return applyRate(tally, null, rate);
  }, NO_RATINGS);
}

/** For a business: how many stars were given, their sum (the average is sum / count) and the count per level. */
export function starRatingColumns(rates: readonly number[]) {
  const per = (stars: number) => rates.filter((rate) => rate === stars).length;
  return {
    ratingCount: rates.length,
    ratingSum: rates.reduce((total, rate) => total + rate, 0),
    stars1: per(1),
    stars2: per(2),
    stars3: per(3),
    stars4: per(4),
    stars5: per(5),
  };
}

/**
 * Groups rows by key; the returned lookup knows every key of `keys`, so a row nobody rated or
 * replied to gets an empty list, and a row pointing at an unknown key is a bug that throws.
 */
export function groupBy<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): (key: string) => T[] {
  const groups = new Map(keys.map((key) => [key, [] as T[]]));
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (!group) throw new Error(`row for unknown key ${keyOf(item)}`);
    group.push(item);
  }
  return (key) => groups.get(key) ?? [];
}
