import { and, avg, count, eq, inArray, isNull, or, sql, sum, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { businesses, businessRatings, commentRatings, comments, replies, replyRatings, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { requireSelfOrAdmin, type Actor } from '../actor';
import { releaseImages } from '../comments/images';
import { recordModAction } from '../moderation/mod-log';
import { deleteActorNotifications, deleteReplyNotifications } from '../notifications/notifications';
import type { DbOrTx } from '../../../db/client';
import { assertNotLastAdmin } from './users';

/** Stays well below SQLite's bound-parameter limit however much a user wrote. */
const CHUNK = 500;

function inChunks(ids: Iterable<string>, work: (chunk: string[]) => void) {
  const all = [...new Set(ids)];
  for (let i = 0; i < all.length; i += CHUNK) work(all.slice(i, i + CHUNK));
}

/** A correlated scalar subquery as a value for UPDATE … SET (Drizzle adds the parentheses). */
const scalar = (query: { getSQL(): SQL }) => sql`${query}`;

/** The emoji-rating columns of comments and replies, recomputed from the counted rating rows left (a banned rater's are out). */
function emojiRatingColumns(db: DbOrTx, ratings: typeof commentRatings | typeof replyRatings, owner: SQLiteColumn, ownerId: SQLiteColumn) {
  const of = (where?: SQL) =>
    db
      .select({ n: count() })
      .from(ratings)
      .where(and(eq(owner, ownerId), eq(ratings.counted, true), where));
  const byRate = (rate: number) => scalar(of(eq(ratings.rate, rate)));
  return {
    ratingCount: scalar(of()),
    ratingAvg: scalar(
      db
        .select({ a: avg(ratings.rate) })
        .from(ratings)
        .where(and(eq(owner, ownerId), eq(ratings.counted, true))),
    ),
    rated1: byRate(1),
    rated2: byRate(2),
    rated3: byRate(3),
    rated4: byRate(4),
    rated5: byRate(5),
  };
}

function recomputeBusinesses(db: DbOrTx, ids: Iterable<string>) {
  const stars = (rate: number) =>
    scalar(
      db
        .select({ n: count() })
        .from(businessRatings)
        .where(and(eq(businessRatings.businessId, businesses.id), eq(businessRatings.counted, true), eq(businessRatings.rate, rate))),
    );
  const set = {
    stars1: stars(1),
    stars2: stars(2),
    stars3: stars(3),
    stars4: stars(4),
    stars5: stars(5),
    // Only counted ratings: none a rating burst holds, none of a banned user (services/comments/rating-tally.ts).
    ratingCount: scalar(
      db
        .select({ n: count() })
        .from(businessRatings)
        .where(and(eq(businessRatings.businessId, businesses.id), eq(businessRatings.counted, true))),
    ),
    ratingSum: scalar(
      db
        .select({ s: sql`coalesce(${sum(businessRatings.rate)}, 0)` })
        .from(businessRatings)
        .where(and(eq(businessRatings.businessId, businesses.id), eq(businessRatings.counted, true))),
    ),
    // Hidden posts (reports) are not counted, as in reports.ts.
    commentCount: scalar(
      db
        .select({ n: count() })
        .from(comments)
        .where(and(eq(comments.businessId, businesses.id), isNull(comments.hiddenAt))),
    ),
  };
  inChunks(ids, (chunk) => db.update(businesses).set(set).where(inArray(businesses.id, chunk)).run());
}

function recomputeComments(db: DbOrTx, ids: Iterable<string>) {
  const set = {
    replyCount: scalar(
      db
        .select({ n: count() })
        .from(replies)
        .where(and(eq(replies.commentId, comments.id), isNull(replies.hiddenAt))),
    ),
    ...emojiRatingColumns(db, commentRatings, commentRatings.commentId, comments.id),
  };
  inChunks(ids, (chunk) => db.update(comments).set(set).where(inArray(comments.id, chunk)).run());
}

function recomputeReplies(db: DbOrTx, ids: Iterable<string>) {
  const set = emojiRatingColumns(db, replyRatings, replyRatings.replyId, replies.id);
  inChunks(ids, (chunk) => db.update(replies).set(set).where(inArray(replies.id, chunk)).run());
}

/**
 * Deletes an account (your own, or any for an admin) in one transaction: the user row, and by
 * ON DELETE CASCADE their sessions, mail tokens, Google links, favourites, ratings, comments,
 * replies and the replies under their comments. The counts and averages those rows fed on
 * other people's businesses, comments and replies are then recomputed from what is left. The
 * image files go afterwards, once nothing references them. The last admin cannot go.
 */
export async function deleteAccount(deps: Deps, actor: Actor, userId: string): Promise<{ success: true }> {
  const who = requireSelfOrAdmin(actor, userId);
  await deps.limits.consume('delete', who.id);
  const imageIds = deps.db.transaction((tx) => {
    const user = tx.select().from(users).where(eq(users.id, userId)).get();
    if (!user) throw new AppError('NOT_FOUND', 'userNotFound');
    assertNotLastAdmin(tx, user);
    // An admin deleting someone else's account is a moderator action; deleting your own is not.
    if (who.id !== userId)
      recordModAction(tx, who, { action: 'deleteUser', targetKind: 'user', targetId: userId, excerpt: `${user.firstName} ${user.lastName}`.trim() });

    const ownComments = tx
      .select({ id: comments.id, businessId: comments.businessId, imageId: comments.imageId })
      .from(comments)
      .where(eq(comments.userId, userId))
      .all();
    const ownCommentIds = tx.select({ id: comments.id }).from(comments).where(eq(comments.userId, userId));
    const goneReplies = tx
      .select({ id: replies.id, commentId: replies.commentId, imageId: replies.imageId })
      .from(replies)
      .where(or(eq(replies.userId, userId), inArray(replies.commentId, ownCommentIds)))
      .all();
    const ratedBusinesses = tx.select({ id: businessRatings.businessId }).from(businessRatings).where(eq(businessRatings.userId, userId)).all();
    const ratedComments = tx.select({ id: commentRatings.commentId }).from(commentRatings).where(eq(commentRatings.userId, userId)).all();
    const ratedReplies = tx
      .select({ id: replyRatings.replyId, commentId: replies.commentId })
      .from(replyRatings)
      .innerJoin(replies, eq(replies.id, replyRatings.replyId))
      .where(eq(replyRatings.userId, userId))
      .all();

    // Notices about these replies (a reporter's outcome too), and of the user's reactions, have
    // no cascade (db/schema/notifications.ts).
    deleteReplyNotifications(tx, goneReplies);
    deleteActorNotifications(tx, userId, [
      ...ratedComments.map((r) => ({ commentId: r.id, replyId: null })),
      ...ratedReplies.map((r) => ({ commentId: r.commentId, replyId: r.id })),
    ]);
    tx.delete(users).where(eq(users.id, userId)).run();

    // Rows that went with the user match no id any more, so only survivors are updated.
    recomputeBusinesses(tx, [...ratedBusinesses.map((r) => r.id), ...ownComments.map((c) => c.businessId)]);
    recomputeComments(tx, [...ratedComments.map((r) => r.id), ...goneReplies.map((r) => r.commentId)]);
    recomputeReplies(
      tx,
      ratedReplies.map((r) => r.id),
    );

    return [user.imageId, ...ownComments.map((c) => c.imageId), ...goneReplies.map((r) => r.imageId)];
  });
  await releaseImages(deps, [...new Set(imageIds)]);
  return { success: true };
}
