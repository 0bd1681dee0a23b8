import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { comments, favorites, notifications, notificationSettings, replies, users } from '../../../db/schema';
import { keptLimit, preparedStatements } from '../../lib/prepared';
import { notificationMailDefaults } from '../../../shared/schemas/notifications';

/**
 * New reviews of a favourite, fanned out on read (issue 30.4, docs/operations/scaling.md).
 *
 * A new review writes nothing for the business's followers: a review of a business with 3,000
 * followers used to write 3,000 rows inside the review's transaction. Instead, when a user's bell
 * count or list is read, and when the mail job runs for users who get mail about new reviews, the
 * reviews posted on the user's favourites since their watermark (users.favorite_reviews_at) become
 * ordinary notification rows for that user alone, and the watermark moves. Read state, ids, links,
 * pruning and mails then work on those rows as on every other notice.
 *
 * A review counts for a favourite when it was posted after the favourite was made and after the
 * watermark, by someone else who is not banned, and it is neither hidden nor removed at the pull.
 * A favourite made later pulls no older reviews; an unfavoured business pulls nothing more.
 */

/**
 * The next pull looks again at reviews this much older than the watermark (a post in the same
 * millisecond as a pull, a clock stepping back): a review has one row per reader
 * (notifications_favorite_review_idx), so a second look adds nothing twice.
 */
export const PULL_OVERLAP_MS = 2_000;
/** At most this many new reviews become rows in one pull: the newest. */
export const PULL_MAX = 50;
/**
 * Readers the mail job pulls for in one run (it runs every 15 s and holds the one connection while
 * it works): a review on a business with thousands of followers is worked off over a few runs
 * instead of stalling requests. Those already pulled drop out of the next run's selection.
 */
export const MAIL_PULL_READERS = 100;
/**
 * The daily-digest readers are looked for at most this often (each look reads the reviews of the
 * last two days and their followers); the instant ones on every run, over the last run's reviews.
 */
export const DAILY_PULL_EVERY_MS = 60 * 60 * 1000;
/** The mail job looks back this far for the users whose daily digest is due. */
const DIGEST_LOOKBACK_MS = 2 * 24 * 60 * 60 * 1000;

const reader = alias(users, 'reader');
const author = alias(users, 'review_author');
const p = {
  me: sql.placeholder('me'),
  now: sql.placeholder('now'),
  since: sql.placeholder('since'),
  floor: sql.placeholder('floor'),
  daily: sql.placeholder('daily'),
  dailyDue: sql.placeholder('dailyDue'),
};

/** Where a favourite's walk starts: after the favourite was made and after the reader's watermark. */
const walkStart = sql`max(${favorites.createdAt} - 1, coalesce(${reader.favoriteReviewsAt} - ${PULL_OVERLAP_MS}, 0))`;

/** The statements of the pull; exported so the query-plan test checks them. */
export function favoriteReviewQueries(db: Db) {
  const reviews = sql`coalesce(${notificationSettings.reviews}, ${notificationMailDefaults.reviews})`;
  const hasPosted = or(
    sql`exists (select 1 from ${comments} as posted where posted.user_id = ${reader.id})`,
    sql`exists (select 1 from ${replies} as posted where posted.user_id = ${reader.id})`,
  );
  return {
    /**
     * One user's new reviews of their favourites, as rows: the user's favourites by primary key,
     * each walked on comments_business_idx from its start, the newest PULL_MAX kept.
     */
    pull: db
      .insert(notifications)
      .select(
        db
          .select({
            // A rowid of its own; notifications_favorite_review_idx keeps one row per review and reader.
            id: sql<number | null>`null`.as('id'),
            userId: sql<string>`${favorites.userId}`.as('user_id'),
            kind: sql<string>`'favoriteReview'`.as('kind'),
            actorId: sql<string | null>`${comments.userId}`.as('actor_id'),
            commentId: sql<string | null>`${comments.id}`.as('comment_id'),
            businessId: sql<string | null>`null`.as('business_id'),
            suggestionId: sql<string | null>`null`.as('suggestion_id'),
            replyId: sql<string | null>`null`.as('reply_id'),
            groupKey: sql<string | null>`null`.as('group_key'),
            count: sql<number>`1`.as('count'),
            reason: sql<string | null>`null`.as('reason'),
            // The review's own time: the entry sorts where the review happened.
            createdAt: sql<number>`${comments.createdAt}`.as('created_at'),
            readAt: sql<number | null>`null`.as('read_at'),
            mailedAt: sql<number | null>`null`.as('mailed_at'),
          })
          .from(favorites)
          .innerJoin(reader, eq(reader.id, favorites.userId))
          .innerJoin(comments, and(eq(comments.businessId, favorites.businessId), sql`${comments.createdAt} > ${walkStart}`))
          .innerJoin(author, eq(author.id, comments.userId))
          .where(and(eq(favorites.userId, p.me), ne(comments.userId, p.me), isNull(comments.hiddenAt), isNull(comments.removedAt), eq(author.isBanned, false)))
          .orderBy(desc(comments.createdAt))
          .limit(keptLimit(PULL_MAX)),
      )
      .onConflictDoNothing(),
    mark: db
      .update(users)
      .set({ favoriteReviewsAt: sql`${p.now}` })
      .where(eq(users.id, p.me)),
    /**
     * Who the mail job pulls for: followers of a business reviewed since `floor` (instant mail) or
     * within the look-back (daily mail, when the digest is due), who are told of new reviews by
     * mail at all, have posted, and are neither banned nor demo accounts. Read from the newest
     * comments (comments_feed_idx) out to their businesses' followers (favorites_business_idx).
     */
    mailReaders: db
      .selectDistinct({ id: favorites.userId })
      // The few new comments first, whatever the statistics say (a small table's would scan it):
      // on the feed's index, then their followers, then each follower; CROSS JOIN keeps that order.
      .from(sql`${comments} indexed by comments_feed_idx`)
      .crossJoin(favorites)
      .crossJoin(reader)
      .leftJoin(notificationSettings, eq(notificationSettings.userId, favorites.userId))
      .where(
        and(
          gt(comments.createdAt, p.since),
          eq(favorites.businessId, comments.businessId),
          eq(reader.id, favorites.userId),
          ne(comments.userId, favorites.userId),
          sql`${comments.createdAt} > ${walkStart}`,
          eq(reader.isBanned, false),
          eq(reader.isDemo, false),
          or(
            and(sql`${reviews} = 'instant'`, sql`${comments.createdAt} > ${p.floor}`),
            and(
              sql`${p.daily} = 1`,
              sql`${reviews} = 'daily'`,
              or(isNull(notificationSettings.digestAt), sql`${notificationSettings.digestAt} <= ${p.dailyDue}`),
            ),
          ),
          hasPosted,
        ),
      )
      .limit(keptLimit(MAIL_PULL_READERS)),
  };
}

const queries = preparedStatements(favoriteReviewQueries);

/**
 * Turns the user's new reviews of favourites into notification rows (at most PULL_MAX, the
 * newest) and moves the watermark when any were added. Returns how many were added.
 */
export function pullFavoriteReviews(db: Db, userId: string, now = Date.now(), options: { alwaysMark?: boolean } = {}): number {
  const q = queries(db);
  return db.transaction(() => {
    const added = q.pull.run({ me: userId }).changes;
    // A read that found nothing new writes nothing; the mail job marks anyway, so the reader leaves its selection.
    if (added > 0 || options.alwaysMark) q.mark.run({ me: userId, now });
    return added;
  });
}

const mailPulls = new WeakMap<Db, { floor: number; nextDailyAt: number }>();

/**
 * The mail job's pull (services/notifications/notification-mails.ts): for each user who would
 * get a mail about a new review of a favourite (instant: reviews since the job's last run; daily:
 * when the digest is due), the same pull as a read of the bell. Returns the rows added.
 */
export function pullFavoriteReviewsForMail(db: Db, now = Date.now(), digestEveryMs: number): number {
  // After a restart the first run looks back a day, and for the daily readers at once.
  const state = mailPulls.get(db) ?? { floor: now - digestEveryMs, nextDailyAt: now };
  const floor = state.floor - PULL_OVERLAP_MS;
  const daily = now >= state.nextDailyAt;
  const q = queries(db);
  const readers = q.mailReaders.all({
    since: daily ? Math.min(floor, now - DIGEST_LOOKBACK_MS) : floor,
    floor,
    daily: daily ? 1 : 0,
    dailyDue: now - digestEveryMs,
  });
  let added = 0;
  for (const r of readers) added += pullFavoriteReviews(db, r.id, now, { alwaysMark: true });
  // A full batch leaves others for the next run: the window (and a daily look) stays until it is worked off.
  if (readers.length < MAIL_PULL_READERS) mailPulls.set(db, { floor: now, nextDailyAt: daily ? now + DAILY_PULL_EVERY_MS : state.nextDailyAt });
  return added;
}
