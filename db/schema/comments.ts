import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { BAYES_PRIOR_COUNT, BAYES_PRIOR_MEAN, branches, businesses } from './businesses';
import { images } from './images';
import { users } from './users';

/**
 * Emoji rating columns shared by comments and replies: a count per emoji (1–5), their total and
 * the average over them (null when there are none). Kept in the same transaction as the rating.
 */
const ratingColumns = () => ({
  ratingCount: integer('rating_count').notNull().default(0),
  ratingAvg: real('rating_avg'),
  rated1: integer('rated_1').notNull().default(0),
  rated2: integer('rated_2').notNull().default(0),
  rated3: integer('rated_3').notNull().default(0),
  rated4: integer('rated_4').notNull().default(0),
  rated5: integer('rated_5').notNull().default(0),
});

export const comments = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The branch as written: the branch's own location when linked, else the author's free text. */
    businessLocation: text('business_location').notNull(),
    /**
     * The business's branch it is about (services/comments/comment-branches.ts), null for a place that is
     * none of them. A deleted branch unlinks its comments; their location text stays.
     */
    branchId: text('branch_id').references(() => branches.id, { onDelete: 'set null' }),
    /**
     * Another place than a branch (issue 29.4), as the branch filter groups it: the location text
     * folded by Swedish rules with its spaces collapsed ("Umeå " and "umeå" are one), set with the
     * place (services/comments/comment-branches.ts placeKeyOf); null while the comment is at a branch.
     */
    placeKey: text('place_key'),
    text: text('text').notNull(),
    imageId: text('image_id').references(() => images.id, { onDelete: 'set null' }),
    replyCount: integer('reply_count').notNull().default(0),
    /**
     * The author's current star rating of the business (business_ratings), null while they have
     * none: a copy kept in the same transaction as every change of that rating
     * (services/business/business-ratings.ts), so a business's comments sort and filter by it on an index.
     */
    authorRate: integer('author_rate'),
    ...ratingColumns(),
    /**
     * The home feed's TOP RATED order (issue 30): the emoji reactions' Bayesian average with the
     * directory's prior (BAYES_PRIOR_COUNT imagined reactions of BAYES_PRIOR_MEAN), so one
     * reaction of 5 (3.33) does not beat five averaging 4.2 (3.6). Null without reactions.
     * Computed by SQLite from the average and count, so it moves in the same statement and cannot drift.
     */
    bayesScore: real('bayes_score').generatedAlwaysAs(
      sql.raw(
        `CASE WHEN rating_count > 0 THEN (${BAYES_PRIOR_COUNT * BAYES_PRIOR_MEAN}.0 + rating_avg * rating_count) / (${BAYES_PRIOR_COUNT}.0 + rating_count) END`,
      ),
      { mode: 'virtual' },
    ),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** Set while enough users' open reports hide it (server/services/moderation/reports.ts); null: public. */
    hiddenAt: integer('hidden_at'),
    /**
     * Set when a moderator removed it: text and picture are gone. With replies it stays public as
     * a placeholder; without, it stays hidden, so only its author (and admins) see the notice.
     */
    removedAt: integer('removed_at'),
    /**
     * When a moderator last showed it again after reports had hidden it (services/moderation/reports.ts):
     * a review that becomes visible is then news to its business's followers whose look passed it
     * while it was hidden (services/notifications/favorite-reviews.ts). Null for most reviews.
     */
    restoredAt: integer('restored_at'),
    /** The moderator's note, or the reports' reason keys (comma-separated): what the author is told. */
    removalReason: text('removal_reason'),
    /**
     * The comment's row in the search index (comments_fts, migration 0011): given in posting
     * order when it is first indexed, null while it waits in the queue. An explicit column, not
     * the rowid, so VACUUM or a table rebuild that renumbers rows cannot mismatch the index.
     */
    searchRowid: integer('search_rowid'),
  },
  (t) => [
    uniqueIndex('comments_search_rowid_idx').on(t.searchRowid),
    index('comments_feed_idx').on(t.createdAt, t.id),
    // The home feed's MOST REPLIED and TOP RATED (services/comments/comments.ts): partial since
    // migration 0030, on the very terms those lists filter by, so a new comment (no replies, no
    // reactions) adds no entry to either, and its first reply or reaction adds one instead of moving it.
    index('comments_most_replied_idx')
      .on(t.replyCount, t.createdAt)
      .where(sql`${t.replyCount} > 0`),
    index('comments_top_rated_idx')
      .on(t.bayesScore, t.ratingCount, t.createdAt)
      .where(sql`${t.bayesScore} IS NOT NULL`),
    index('comments_business_idx').on(t.businessId, t.createdAt),
    // Restored reviews, per business and in all (favorite-reviews.ts: a follower's pull, the mail
    // job's window). Partial: only a restore adds an entry; a new comment none.
    index('comments_restored_business_idx')
      .on(t.businessId, t.restoredAt)
      .where(sql`${t.restoredAt} IS NOT NULL`),
    index('comments_restored_idx')
      .on(t.restoredAt)
      .where(sql`${t.restoredAt} IS NOT NULL`),
    // A business's comments by the author's stars, by emoji ratings, by replies
    // (services/comments/comment-sorts.ts); SQLite appends the rowid, the tie-breaker of each.
    index('comments_business_stars_idx').on(t.businessId, t.authorRate, t.createdAt),
    // Partial since migration 0031 (issue 32 item 3), on the very terms the walks filter by: a new
    // comment (no reactions, no replies) adds no entry to either, and its first reaction or reply
    // adds one instead of moving it. The comments without any come after, newest first, along
    // comments_business_idx (comment-sorts.ts, the 'unrated' and 'unreplied' walks).
    index('comments_business_helpful_idx')
      .on(t.businessId, t.ratingAvg, t.ratingCount, t.createdAt)
      .where(sql`${t.ratingAvg} IS NOT NULL`),
    index('comments_business_replied_idx')
      .on(t.businessId, t.replyCount, t.createdAt)
      .where(sql`${t.replyCount} > 0`),
    // A business's comments at one branch, newest first (the branch filter); rowid appended.
    index('comments_branch_idx').on(t.branchId, t.createdAt),
    // A business's comments at a typed place (the branch filter's other places), newest first, and
    // their counts. Partial: most comments are at a branch and add no entry.
    index('comments_place_idx')
      .on(t.businessId, t.placeKey, t.createdAt)
      .where(sql`${t.placeKey} IS NOT NULL`),
    // Who wrote publicly about each branch of a business: the branches' own averages (branch-ratings.ts).
    index('comments_branch_authors_idx')
      .on(t.businessId, t.branchId, t.userId)
      .where(sql`${t.branchId} IS NOT NULL AND ${t.hiddenAt} IS NULL AND ${t.removedAt} IS NULL`),
    // A user's comments: a star rating moves its author's stars along them (business-ratings.ts),
    // and their public reviews are read newest first (services/accounts/profiles.ts; rowid appended, the
    // tie-breaker; the few hidden ones are skipped on the way). One index for both since
    // migration 0019: every new comment wrote both before, and the write path paid for it.
    // `business_id` last (migration 0040): the star rating's walk picks the rated business's
    // comments on the index entries alone, instead of reading every comment row of the rater
    // (157 µs a rating for a rater with 220 comments, 26 µs with it).
    index('comments_user_idx').on(t.userId, t.createdAt, t.businessId),
    // The upload sweep asks whether any post still uses an image. Partial: most comments have
    // none, and they add no entry (`image_id = ?` implies the condition).
    index('comments_image_idx')
      .on(t.imageId)
      .where(sql`${t.imageId} IS NOT NULL`),
    // A business's photo gallery (services/comments/photos.ts): its public comments with a picture.
    index('comments_photos_idx')
      .on(t.businessId, t.createdAt, t.id)
      .where(sql`${t.imageId} IS NOT NULL AND ${t.hiddenAt} IS NULL AND ${t.removedAt} IS NULL`),
  ],
);

/**
 * Comments waiting to be (re)indexed for search (comments_fts, migration 0004): the triggers queue
 * a comment's rowid here when it is posted (migration 0005), when a public comment's text, branch
 * or business changes, and when its author is renamed (migration 0011); indexQueuedComments
 * (server/services/comments/comment-search.ts) indexes the queue in one batch, shortly after posting and
 * always before a search reads the index.
 */
export const commentsFtsQueue = sqliteTable('comments_fts_queue', {
  commentRowid: integer('comment_rowid').primaryKey(),
});

export const replies = sqliteTable(
  'replies',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    imageId: text('image_id').references(() => images.id, { onDelete: 'set null' }),
    ...ratingColumns(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** Set while enough users' open reports hide it; null: public. */
    hiddenAt: integer('hidden_at'),
    /** Set when a moderator removed it; it then stays hidden, a notice for its author. */
    removedAt: integer('removed_at'),
    removalReason: text('removal_reason'),
  },
  (t) => [
    index('replies_comment_idx').on(t.commentId, t.createdAt),
    // A thread's latest repliers, newest first, read from the index alone: the fan-out of a new
    // reply (services/notifications/notifications.ts) walks its last 200 entries.
    index('replies_comment_repliers_idx').on(t.commentId, t.createdAt, t.userId),
    index('replies_user_idx').on(t.userId),
    index('replies_created_at_idx').on(t.createdAt),
    index('replies_image_idx').on(t.imageId),
    index('replies_photos_idx')
      .on(t.businessId, t.createdAt, t.id)
      .where(sql`${t.imageId} IS NOT NULL AND ${t.hiddenAt} IS NULL AND ${t.removedAt} IS NULL`),
  ],
);

export const commentRatings = sqliteTable(
  'comment_ratings',
  {
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rate: integer('rate').notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * The rating burst (rating_bursts, an emoji one) holding this rating out of the post's rating
     * columns until a moderator accepts it (services/moderation/rating-bursts.ts); stays set when rejected.
     */
    heldBy: text('held_by'),
    /** False while held by a burst or its rater is banned: out of the post's rating columns (services/comments/rating-tally.ts). */
    counted: integer('counted', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index('comment_ratings_held_idx')
      .on(t.heldBy)
      .where(sql`held_by is not null`),
    index('comment_ratings_user_idx').on(t.userId),
    // The newest ratings of a comment (REST `ratings` lists) without a sort or a table lookup:
    // `counted` last, since migration 0038, so the list skips the ones out of the numbers from the
    // index alone; the burst check's (comment, created_at) range walks it too.
    index('comment_ratings_newest_idx').on(t.commentId, t.createdAt, t.userId, t.rate, t.counted),
  ],
);

export const replyRatings = sqliteTable(
  'reply_ratings',
  {
    replyId: text('reply_id')
      .notNull()
      .references(() => replies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rate: integer('rate').notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * The rating burst (rating_bursts, an emoji one) holding this rating out of the post's rating
     * columns until a moderator accepts it (services/moderation/rating-bursts.ts); stays set when rejected.
     */
    heldBy: text('held_by'),
    /** False while held by a burst or its rater is banned: out of the post's rating columns (services/comments/rating-tally.ts). */
    counted: integer('counted', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.replyId, t.userId] }),
    index('reply_ratings_held_idx')
      .on(t.heldBy)
      .where(sql`held_by is not null`),
    index('reply_ratings_user_idx').on(t.userId),
    // As comment_ratings_newest_idx.
    index('reply_ratings_newest_idx').on(t.replyId, t.createdAt, t.userId, t.rate, t.counted),
  ],
);
