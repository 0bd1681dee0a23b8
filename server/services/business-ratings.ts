import { and, eq, sql } from 'drizzle-orm';
import { businessRatings, businesses } from '../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import type { Actor } from './actor';
import { requireActiveFor } from './actor';
import { shownRate, type Tx } from './business';
import { consumeLimit } from './rate-limits';

export type RateResult = { rate: number; ratingCount: number; myRate: number };

/**
 * Records `userId`'s star rating (1–5, already validated) inside the caller's transaction: one
 * per user and business, a new one replaces the old, and rating_sum / rating_count move with it,
 * so the shown average never needs a scan of the ratings. A comment that carries a star rating
 * goes through here too.
 */
export function applyBusinessRating(tx: Tx, businessId: string, userId: string, rate: number): RateResult {
  if (!tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).get()) {
    throw new AppError('NOT_FOUND', 'businessNotFound');
  }
  const previous = tx
    .select({ rate: businessRatings.rate })
    .from(businessRatings)
    .where(and(eq(businessRatings.businessId, businessId), eq(businessRatings.userId, userId)))
    .get();
  const now = Date.now();
  tx.insert(businessRatings)
    .values({ businessId, userId, rate, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [businessRatings.businessId, businessRatings.userId], set: { rate, updatedAt: now } })
    .run();
  const row = tx
    .update(businesses)
    .set({
      ratingSum: sql`${businesses.ratingSum} + ${rate - (previous?.rate ?? 0)}`,
      ratingCount: sql`${businesses.ratingCount} + ${previous ? 0 : 1}`,
    })
    .where(eq(businesses.id, businessId))
    .returning({ ratingSum: businesses.ratingSum, ratingCount: businesses.ratingCount, adminRate: businesses.adminRate })
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
  return { rate: shownRate(row), ratingCount: row.ratingCount, myRate: rate };
}

/** The actor rates a business; returns the new shown rate and count. */
export async function rateBusiness(deps: Deps, actor: Actor, businessId: string, rate: number): Promise<RateResult> {
  const me = requireActiveFor(actor, 'businessRateLoginRequired');
  await consumeLimit('rate', me.id);
  return deps.db.transaction((tx) => applyBusinessRating(tx, businessId, me.id, rate));
}
