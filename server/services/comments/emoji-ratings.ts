import type { EmojiCounts } from '../../../shared/schemas/comments';

/** The rating columns comments and replies share (db/schema/comments.ts ratingColumns). */
export type RatingTally = {
  ratingCount: number;
  ratingAvg: number | null;
  rated1: number;
  rated2: number;
  rated3: number;
  rated4: number;
  rated5: number;
};

/** A post nobody has rated. */
export const NO_RATINGS: RatingTally = { ratingCount: 0, ratingAvg: null, rated1: 0, rated2: 0, rated3: 0, rated4: 0, rated5: 0 };

const countKeys = ['rated1', 'rated2', 'rated3', 'rated4', 'rated5'] as const;

/**
 * The tally after one user's rate moves from `previous` to `next` (either may be null: no
 * rating). Null `next` takes the rating back, a previous one is replaced, else one is added;
 * the average is over the remaining rates and null when none remain. Pure, so both comment and
 * reply ratings use the same maths and it can be tested on its own.
 */
export function applyRate(tally: RatingTally, previous: number | null, next: number | null): RatingTally {
  const counts = countKeys.map((k) => tally[k]);
  if (previous !== null) counts[previous - 1] = Math.max(0, counts[previous - 1] - 1);
  if (next !== null) counts[next - 1] += 1;
  const ratingCount = counts.reduce((a, b) => a + b, 0);
  const sum = counts.reduce((acc, n, i) => acc + n * (i + 1), 0);
  return {
    ratingCount,
    // Computed from integer counts, so the average never drifts however often rates change.
    ratingAvg: ratingCount === 0 ? null : sum / ratingCount,
    rated1: counts[0],
    rated2: counts[1],
    rated3: counts[2],
    rated4: counts[3],
    rated5: counts[4],
  };
}

export function emojiCountsOf(t: Pick<RatingTally, (typeof countKeys)[number]>): EmojiCounts {
  return { '1': t.rated1, '2': t.rated2, '3': t.rated3, '4': t.rated4, '5': t.rated5 };
}
