import { describe, expect, it } from 'vitest';
import { applyRate, emojiCountsOf, type RatingTally } from './emoji-ratings';

const empty: RatingTally = { ratingCount: 0, ratingAvg: null, rated1: 0, rated2: 0, rated3: 0, rated4: 0, rated5: 0 };

/** Replays a history of (previous, next) moves from an empty tally. */
const replay = (moves: Array<[number | null, number | null]>) => moves.reduce((t, [prev, next]) => applyRate(t, prev, next), empty);

describe('applyRate (the emoji rating maths of comments and replies)', () => {
  it('adds a first rating: count 1, average equal to it', () => {
    const t = applyRate(empty, null, 4);
    expect(t).toEqual({ ...empty, ratingCount: 1, ratingAvg: 4, rated4: 1 });
  });

  it('averages over all rates', () => {
    const t = replay([
      [null, 5],
      [null, 2],
      [null, 2],
    ]);
    expect(t.ratingCount).toBe(3);
    expect(t.ratingAvg).toBeCloseTo(3);
    expect(emojiCountsOf(t)).toEqual({ '1': 0, '2': 2, '3': 0, '4': 0, '5': 1 });
  });

  it('replaces an existing rating instead of adding another', () => {
    const t = replay([
      [null, 1],
      [null, 5],
      [1, 3],
    ]);
    expect(t.ratingCount).toBe(2);
    expect(t.ratingAvg).toBe(4);
    expect(t.rated1).toBe(0);
    expect(t.rated3).toBe(1);
  });

  it('null removes the rating; the average is over what remains', () => {
    const t = replay([
      [null, 1],
      [null, 5],
      [5, null],
    ]);
    expect(t.ratingCount).toBe(1);
    expect(t.ratingAvg).toBe(1);
  });

  it('the average is null when no rating remains', () => {
    const t = replay([
      [null, 3],
      [3, null],
    ]);
    expect(t).toEqual(empty);
  });

  it('taking back a rating nobody has is a no-op', () => {
    expect(applyRate(empty, null, null)).toEqual(empty);
  });

  it('never drifts: a long history ends at the exact average of the final rates', () => {
    let t = empty;
    const current = new Map<number, number>();
    // A deterministic pseudo-random history of 20 users changing their minds 2000 times.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 2000; i++) {
      const user = next() % 20;
      const choice = next() % 6;
      const rate = choice === 0 ? null : choice;
      t = applyRate(t, current.get(user) ?? null, rate);
      if (rate === null) current.delete(user);
      else current.set(user, rate);
    }
    const rates = [...current.values()];
    expect(t.ratingCount).toBe(rates.length);
    expect(t.ratingAvg).toBe(rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null);
    for (let r = 1; r <= 5; r++) expect(emojiCountsOf(t)[String(r) as '1']).toBe(rates.filter((x) => x === r).length);
  });
});
