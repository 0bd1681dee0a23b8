import { and, count, eq, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { businessRatings, comments } from '../../../db/schema';
import { preparedStatements } from '../../lib/prepared';

/**
 * A branch's own rating. Star ratings are one per user and business (docs/product.md §4), not per
 * branch, so a branch's figure is the current star ratings of the people who wrote publicly
 * about that branch: each author once however often they wrote there, a rating that changes
 * moves every branch they wrote about, and a hidden or removed comment does not count, nor does a
 * rating held by a rating burst or given by a banned user. Someone who wrote about two branches
 * counts for both.
 */
export type BranchRating = { rate: number | null; ratingCount: number };

const p = { businessId: sql.placeholder('businessId') };

/**
 * Exported for the query-plan test. One row per branch and author who rated, in the order of
 * comments_branch_authors_idx (partial: linked, public comments), so the grouping needs no sort
 * and each author's rating is a primary-key lookup; branchRatingsOf adds them up per branch. Its
 * cost grows with the business's linked comments, not with the table.
 */
export function branchRatingQueries(db: Db) {
  return {
    authorRatings: db
      .select({ branchId: comments.branchId, rate: businessRatings.rate })
      .from(comments)
      .innerJoin(
        businessRatings,
        // Only ratings in the business's public figures: none a rating burst holds, none of a banned user.
        and(eq(businessRatings.businessId, comments.businessId), eq(businessRatings.userId, comments.userId), eq(businessRatings.counted, true)),
      )
      .where(and(eq(comments.businessId, p.businessId), isNotNull(comments.branchId), isNull(comments.hiddenAt), isNull(comments.removedAt)))
      .groupBy(comments.branchId, comments.userId),
    // The branch filter's counts (issue 29.4): public comments per branch, on the same partial index.
    branchCounts: db
      .select({ branchId: comments.branchId, n: count() })
      .from(comments)
      .where(and(eq(comments.businessId, p.businessId), isNotNull(comments.branchId), isNull(comments.hiddenAt), isNull(comments.removedAt)))
      .groupBy(comments.branchId),
    // The other places authors typed, on comments_place_idx: each key once, named as its newest
    // public comment spells it (SQLite takes the bare column from the max() row), with its count.
    places: db
      .select({ key: comments.placeKey, name: comments.businessLocation, newest: max(comments.createdAt), n: count() })
      .from(comments)
      .where(and(eq(comments.businessId, p.businessId), isNotNull(comments.placeKey), isNull(comments.hiddenAt), isNull(comments.removedAt)))
      .groupBy(comments.placeKey),
  };
}

const prepared = preparedStatements(branchRatingQueries);

/** Every branch of a business with a rating, by branch id; a branch not in it has none. */
export function branchRatingsOf(db: Db, businessId: string): Map<string, BranchRating> {
  const sums = new Map<string, { sum: number; count: number }>();
  for (const r of prepared(db).authorRatings.all({ businessId })) {
    if (r.branchId === null) continue;
    const s = sums.get(r.branchId) ?? { sum: 0, count: 0 };
    s.sum += r.rate;
    s.count += 1;
    sums.set(r.branchId, s);
  }
  return new Map([...sums].map(([id, s]) => [id, { rate: s.sum / s.count, ratingCount: s.count }]));
}

/**
 * Another place than the business's branches, as authors typed it (issue 29.4): `name` as its
 * newest public comment spells it, `commentCount` its public comments. The branch filter lists
 * them after the branches; `?place=name` (any spelling of it) lists their comments.
 */
export type OtherPlace = { name: string; commentCount: number };

/** Public comments per branch, by branch id (a branch not in it has none). */
export function branchCommentCountsOf(db: Db, businessId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of prepared(db).branchCounts.all({ businessId })) if (r.branchId !== null) counts.set(r.branchId, r.n);
  return counts;
}

/**
 * How many other places a business page lists at most: one author per place could otherwise
 * grow every reply of the page (and its filter) with each new spelling.
 */
export const OTHER_PLACES_MAX = 50;

/** The other places of a business's public comments, most written about first, then by name; at most OTHER_PLACES_MAX. */
export function otherPlacesOf(db: Db, businessId: string): OtherPlace[] {
  return prepared(db)
    .places.all({ businessId })
    .map((r) => ({ name: r.name.trim(), commentCount: r.n }))
    .sort((a, b) => b.commentCount - a.commentCount || a.name.localeCompare(b.name, 'sv'))
    .slice(0, OTHER_PLACES_MAX);
}
