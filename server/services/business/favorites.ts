import { and, eq, sql } from 'drizzle-orm';
import { businesses, favorites, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { requireActiveFor, type Actor } from '../actor';
import { favoriteBusinessesOf, type Business } from './business';

export type FavoriteState = { businessId: string; isFavorite: boolean; favoritesCount: number };

/**
 * How many businesses one user may keep among favourites. Each one is an index seek whenever
 * their bell is read (new reviews of favourites are pulled on read,
 * services/notifications/favorite-reviews.ts), so the number is bounded; a town's directory
 * rarely has this many places one follows.
 */
export const FAVORITES_MAX = 300;

/**
 * Adds or removes one of the actor's favourites. `userId` (from a documented REST path) must be
 * the actor: nobody, not even an admin, changes another user's favourites. Adding twice or
 * removing what is not there changes nothing; users.favorites_count moves in the same transaction.
 */
export async function setFavorite(deps: Deps, actor: Actor, input: { userId?: string; businessId: string; favorite: boolean }): Promise<FavoriteState> {
  const me = requireActiveFor(actor, 'favoriteLoginRequired');
  if (input.userId !== undefined && input.userId !== me.id) throw new AppError('FORBIDDEN', 'forbidden');
  await deps.limits.consume('favorite', me.id);
  return deps.db.transaction((tx) => {
    const exists = tx.select({ isSuggestionBox: businesses.isSuggestionBox }).from(businesses).where(eq(businesses.id, input.businessId)).get();
    if (!exists) throw new AppError('NOT_FOUND', 'businessNotFound');
    // The suggestion box is no business to keep (docs/product.md §4); taking one off stays possible.
    if (exists.isSuggestionBox && input.favorite) throw new AppError('CONFLICT', 'suggestionBoxNoFavorite');
    const delta = input.favorite
      ? tx
          .insert(favorites)
          .values({ userId: me.id, businessId: input.businessId, createdAt: Date.now() })
          .onConflictDoNothing()
          .returning({ userId: favorites.userId })
          .all().length
      : -tx
          .delete(favorites)
          .where(and(eq(favorites.userId, me.id), eq(favorites.businessId, input.businessId)))
          .returning({ userId: favorites.userId })
          .all().length;
    const user = tx
      .update(users)
      .set({ favoritesCount: sql`${users.favoritesCount} + ${delta}` })
      .where(eq(users.id, me.id))
      .returning({ favoritesCount: users.favoritesCount })
      .get();
    if (!user) throw new AppError('UNAUTHENTICATED', 'unauthenticated');
    // Thrown inside the transaction: the new favourite and the count roll back.
    if (delta > 0 && user.favoritesCount > FAVORITES_MAX) throw new AppError('CONFLICT', 'favoritesFull');
    return { businessId: input.businessId, isFavorite: input.favorite, favoritesCount: user.favoritesCount };
  });
}

/** A user's favourite businesses: only they (or an admin) may see them. */
export function listFavoriteBusinesses(deps: Deps, actor: Actor, userId: string): Business[] {
  const me = requireActiveFor(actor, 'favoritesLoginRequired');
  if (me.id !== userId && !me.isAdmin) throw new AppError('FORBIDDEN', 'forbidden');
  if (!deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) throw new AppError('NOT_FOUND', 'notFound');
  return favoriteBusinessesOf(deps.db, me, userId);
}
