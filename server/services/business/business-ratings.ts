import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { businessRatings, businesses } from '../../../db/schema';
import type { Deps } from '../deps';
import { businessWrite, starFiguresWrite } from '../../lib/data-stamp';
import { AppError } from '../../lib/errors';
import { inTransaction, preparedStatements } from '../../lib/prepared';
import type { Actor } from '../actor';
import { requireActiveFor } from '../actor';
import { isOwner } from './owners';
import { noteRatingBurst } from '../moderation/rating-bursts';
import { ratingTallyQueries } from '../comments/rating-tally';
import type { DbOrTx } from '../../../db/client';

/** `rate` and `ratingCount` are the public figures; `rate` is null while none counts (a burst holds them all). */
export type RateResult = { rate: number | null; ratingCount: number; myRate: number };
/** After a rating was taken back the business may have none left: its rate is then null. */
export type UnrateResult = { rate: number | null; ratingCount: number; myRate: null };

/** How many ratings gave 1, 2, 3, 4 and 5 stars: index 0 is one star. */
export type StarCounts = [number, number, number, number, number];

const p = {
  businessId: sql.placeholder('businessId'),
  userId: sql.placeholder('userId'),
  rate: sql.placeholder('rate'),
  now: sql.placeholder('now'),
};

/** The rating statements, with placeholders; exported for the query-plan test. */
export const ratingQueries = (db: Db) => ({
  business: db.select({ isSuggestionBox: businesses.isSuggestionBox }).from(businesses).where(eq(businesses.id, p.businessId)),
  previous: db
    .select({ rate: businessRatings.rate, counted: businessRatings.counted })
    .from(businessRatings)
    .where(and(eq(businessRatings.businessId, p.businessId), eq(businessRatings.userId, p.userId))),
  put: db
    .insert(businessRatings)
    .values({ businessId: p.businessId, userId: p.userId, rate: p.rate, createdAt: p.now, updatedAt: p.now })
    .onConflictDoUpdate({ target: [businessRatings.businessId, businessRatings.userId], set: { rate: sql`${p.rate}`, updatedAt: sql`${p.now}` } }),
  drop: db.delete(businessRatings).where(and(eq(businessRatings.businessId, p.businessId), eq(businessRatings.userId, p.userId))),
  // The author's stars on their comments (rating-tally.ts, which also moves them when `counted` flips).
  authorRate: ratingTallyQueries(db).authorRate,
  breakdown: db
    .select({ s1: businesses.stars1, s2: businesses.stars2, s3: businesses.stars3, s4: businesses.stars4, s5: businesses.stars5 })
    .from(businesses)
    .where(eq(businesses.id, p.businessId)),
});

const prepared = preparedStatements(ratingQueries);
const tallyOf = preparedStatements(ratingTallyQueries);

function requireRateable(db: Db, businessId: string) {
  const business = prepared(db).business.get({ businessId });
  if (!business) throw new AppError('NOT_FOUND', 'businessNotFound');
  // The suggestion box collects suggestions: it has no rating (docs/product.md §4).
  if (business.isSuggestionBox) throw new AppError('CONFLICT', 'suggestionBoxNotRated');
}

/**
 * Records `userId`'s star rating (1–5, already validated): one per user and business, a new one
 * replaces the old, and rating_sum / rating_count / stars_1..5 and the author's stars on their
 * comments (comments.author_rate) move with it, so neither the shown average, the breakdown nor
 * a comment list sorted by stars ever needs a scan of the ratings. The suggestion box takes none.
 * Call it inside a transaction the caller opened on `db` (a comment that carries a star rating
 * goes through here too).
 */
export function applyBusinessRating(db: Db, businessId: string, userId: string, rate: number, now = Date.now()): RateResult {
  const q = prepared(db);
  requireRateable(db, businessId);
  const previous = q.previous.get({ businessId, userId });
  q.put.run({ businessId, userId, rate, now });
  // A held rating (or a banned rater's) stays out of the figures when it changes: only its rater sees it.
  const counts = previous ? previous.counted : true;
  const before = previous && counts ? previous.rate : 0;
  const after = counts ? rate : 0;
  const row = tallyOf(db).tally.get({ businessId, sumDelta: after - before, countDelta: previous || !counts ? 0 : 1, before, after });
  if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
  // Their comments show the stars only while they count (a held or banned rating: none).
  const shownBefore = previous?.counted ? previous.rate : null;
  if (shownBefore !== (counts ? rate : null)) q.authorRate.run({ businessId, userId, rate: counts ? rate : null });
  return { rate: shownRate(row), ratingCount: row.ratingCount, myRate: rate };
}

/** The one rule for the shown rate (docs/product.md §4): the average of the ratings that count, null while none does (all held, say). */
export function shownRate(row: { ratingCount: number; ratingSum: number }): number | null {
  return row.ratingCount > 0 ? row.ratingSum / row.ratingCount : null;
}

/**
 * A rating given together with a post (a comment with stars): the same rules as the rating
 * widget, in the post's transaction. The caller has taken the `rate` limit (`deps.limits.consume('rate', …)`).
 */
export function rateAlongsidePost(deps: Deps, tx: DbOrTx, businessId: string, userId: string, rate: number, now = Date.now()): RateResult {
  // An owner's stars would be a vote for themself (issue 31).
  if (isOwner(deps.db, userId, businessId)) throw new AppError('FORBIDDEN', 'ownerCannotRate');
  // Of what the directory shows, only this business's star figures move (a burst holds ratings
  // of this business only): the kept directory reads it again instead of every business.
  return starFiguresWrite(deps.db, businessId, () => {
    const result = applyBusinessRating(deps.db, businessId, userId, rate, now);
    noteRatingBurst(deps, tx, businessId, userId, now);
    return result;
  });
}

/** The actor rates a business; returns the new shown rate and count. A burst of such ratings from young accounts is noted for the moderators. */
export async function rateBusiness(deps: Deps, actor: Actor, businessId: string, rate: number, now = Date.now()): Promise<RateResult> {
  const me = requireActiveFor(actor, 'businessRateLoginRequired');
  await deps.limits.consume('rate', me.id);
  const { db } = deps;
  // rateAlongsidePost's statements run on deps.db, inside this transaction (one connection).
  // Shown by the business's own pages, the directory (its triggers) and the site-wide lists (data-stamp.ts).
  return businessWrite(db, (touches) => {
    touches(businessId);
    return inTransaction(db, () => rateAlongsidePost(deps, db, businessId, me.id, rate, now));
  });
}

/** The actor takes their rating of a business back (the rating widget); nothing happens when there is none. */
export async function unrateBusiness(deps: Deps, actor: Actor, businessId: string): Promise<UnrateResult> {
  const me = requireActiveFor(actor, 'businessRateLoginRequired');
  await deps.limits.consume('rate', me.id);
  const { db } = deps;
  return starFiguresWrite(db, businessId, () =>
    db.transaction(() => {
      const q = prepared(db);
      requireRateable(db, businessId);
      const previous = q.previous.get({ businessId, userId: me.id });
      if (previous) {
        q.drop.run({ businessId, userId: me.id });
        q.authorRate.run({ businessId, userId: me.id, rate: null });
      }
      const counted = previous?.counted === true;
      const before = counted ? previous.rate : 0;
      const row = tallyOf(db).tally.get({ businessId, sumDelta: -before, countDelta: counted ? -1 : 0, before, after: 0 });
      if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
      return { rate: shownRate(row), ratingCount: row.ratingCount, myRate: null };
    }),
  );
}

/** A business's breakdown: the number of ratings per star level, from its columns. */
export function starCountsOf(db: Db, businessId: string): StarCounts {
  const row = prepared(db).breakdown.get({ businessId });
  return row ? [row.s1, row.s2, row.s3, row.s4, row.s5] : [0, 0, 0, 0, 0];
}
