import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { businessRatings, businesses } from '../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import { preparedStatements } from '../lib/prepared';
import type { Actor } from './actor';
import { requireActiveFor } from './actor';
import { consumeLimit } from './rate-limits';
import { noteRatingBurst } from './rating-bursts';

export type RateResult = { rate: number; ratingCount: number; myRate: number };

const p = {
  businessId: sql.placeholder('businessId'),
  userId: sql.placeholder('userId'),
  rate: sql.placeholder('rate'),
  now: sql.placeholder('now'),
  sumDelta: sql.placeholder('sumDelta'),
  countDelta: sql.placeholder('countDelta'),
};

const prepared = preparedStatements((db: Db) => ({
  business: db.select({ isSuggestionBox: businesses.isSuggestionBox }).from(businesses).where(eq(businesses.id, p.businessId)),
  previous: db
    .select({ rate: businessRatings.rate })
    .from(businessRatings)
    .where(and(eq(businessRatings.businessId, p.businessId), eq(businessRatings.userId, p.userId))),
  put: db
    .insert(businessRatings)
    .values({ businessId: p.businessId, userId: p.userId, rate: p.rate, createdAt: p.now, updatedAt: p.now })
    .onConflictDoUpdate({ target: [businessRatings.businessId, businessRatings.userId], set: { rate: sql`${p.rate}`, updatedAt: sql`${p.now}` } }),
  tally: db
    .update(businesses)
    .set({ ratingSum: sql`${businesses.ratingSum} + ${p.sumDelta}`, ratingCount: sql`${businesses.ratingCount} + ${p.countDelta}` })
    .where(eq(businesses.id, p.businessId))
    .returning({ ratingSum: businesses.ratingSum, ratingCount: businesses.ratingCount }),
}));

/**
 * Records `userId`'s star rating (1–5, already validated): one per user and business, a new one
 * replaces the old, and rating_sum / rating_count move with it, so the shown average never needs
 * a scan of the ratings. The suggestion box takes none. Call it inside a transaction the caller opened on `db` (a comment that
 * carries a star rating goes through here too).
 */
export function applyBusinessRating(db: Db, businessId: string, userId: string, rate: number, now = Date.now()): RateResult {
  const q = prepared(db);
  const business = q.business.get({ businessId });
  if (!business) throw new AppError('NOT_FOUND', 'businessNotFound');
  // The suggestion box collects suggestions: it has no rating (PRODUCT.md section 4).
  if (business.isSuggestionBox) throw new AppError('CONFLICT', 'suggestionBoxNotRated');
  const previous = q.previous.get({ businessId, userId });
  q.put.run({ businessId, userId, rate, now });
  const row = q.tally.get({ businessId, sumDelta: rate - (previous?.rate ?? 0), countDelta: previous ? 0 : 1 });
  if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
  // This rating is among them, so the count is at least 1 and the average defined.
  return { rate: row.ratingSum / row.ratingCount, ratingCount: row.ratingCount, myRate: rate };
}

/** The actor rates a business; returns the new shown rate and count. A burst of such ratings from young accounts is noted for the moderators. */
export async function rateBusiness(deps: Deps, actor: Actor, businessId: string, rate: number, now = Date.now()): Promise<RateResult> {
  const me = requireActiveFor(actor, 'businessRateLoginRequired');
  await consumeLimit('rate', me.id);
  const { db } = deps;
  return db.transaction((tx) => {
    const result = applyBusinessRating(db, businessId, me.id, rate, now);
    noteRatingBurst(deps, tx, businessId, me.id, now);
    return result;
  });
}
