/**
 * The stored count and average columns, derived from the rating rows the seed inserts, so the
 * demo data obeys the same invariant the services keep (PRODUCT.md section 4).
 */

export type EmojiRatingColumns = {
  ratingCount: number;
  ratingAvg: number | null;
  rated1: number;
  rated2: number;
  rated3: number;
  rated4: number;
  rated5: number;
};

/** For a comment or reply: count per emoji, total, and the average (null when nobody rated). */
export function emojiRatingColumns(rates: readonly number[]): EmojiRatingColumns {
  const per = [0, 0, 0, 0, 0];
  for (const rate of rates) {
    if (!Number.isInteger(rate) || rate < 1 || rate > 5) throw new Error(`emoji rate out of range: ${rate}`);
    per[rate - 1]++;
  }
  const sum = rates.reduce((total, rate) => total + rate, 0);
  return {
    ratingCount: rates.length,
    ratingAvg: rates.length > 0 ? sum / rates.length : null,
    rated1: per[0],
    rated2: per[1],
    rated3: per[2],
    rated4: per[3],
    rated5: per[4],
  };
}

/** For a business: how many stars were given and their sum (the average is sum / count). */
export function starRatingColumns(rates: readonly number[]): { ratingCount: number; ratingSum: number } {
  return { ratingCount: rates.length, ratingSum: rates.reduce((total, rate) => total + rate, 0) };
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
