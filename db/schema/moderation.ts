import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { businesses } from './businesses';
import { comments, replies } from './comments';
import { ownerReplies } from './owners';
import { users } from './users';

/**
 * A user's report of a comment (comment_id), a reply (reply_id) or a business's answer to a review
 * (owner_reply_id); exactly one of the three is set.
 * Open while resolved_at is null: one open report per reporter and item (the partial unique
 * indexes), and an item with REPORT_HIDE_THRESHOLD open reports is hidden. Reports go with their
 * item (cascade); the moderation log keeps what was removed.
 */
export const reports = sqliteTable(
  'reports',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    replyId: text('reply_id').references(() => replies.id, { onDelete: 'cascade' }),
    /** A business's answer to a review (owner_replies, keyed by the review's id). */
    ownerReplyId: text('owner_reply_id').references(() => ownerReplies.commentId, { onDelete: 'cascade' }),
    reporterId: text('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of reportReasons (shared/schemas/moderation.ts). */
    reason: text('reason').notNull(),
    note: text('note'),
    createdAt: integer('created_at').notNull(),
    /**
     * Whether the reporter was established when reporting (services/moderation/reports.ts: account older than
     * REPORT_TRUST_AGE with a public post older than a day). Only such reports count towards a hide.
     */
    established: integer('established', { mode: 'boolean' }).notNull().default(false),
    resolvedAt: integer('resolved_at'),
    /** 'remove' | 'dismiss' once resolved. */
    resolution: text('resolution'),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('reports_open_comment_idx')
      .on(t.commentId, t.reporterId)
      .where(sql`resolved_at is null`),
    uniqueIndex('reports_open_reply_idx')
      .on(t.replyId, t.reporterId)
      .where(sql`resolved_at is null`),
    index('reports_queue_idx').on(t.resolvedAt, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId),
    // Whether a reporter's earlier report of the item was dismissed: they cannot hide it again.
    index('reports_comment_reporter_idx').on(t.commentId, t.reporterId, t.resolution),
    index('reports_reply_reporter_idx').on(t.replyId, t.reporterId, t.resolution),
    // "is not null" too: without it, after ANALYZE the planner stopped choosing the two indexes
    // above for a card's "reported by me" (comment-plans.test.ts); answers' terms imply it anyway.
    uniqueIndex('reports_open_owner_reply_idx')
      .on(t.ownerReplyId, t.reporterId)
      .where(sql`resolved_at is null and owner_reply_id is not null`),
    index('reports_owner_reply_reporter_idx').on(t.ownerReplyId, t.reporterId, t.resolution),
  ],
);

/**
 * Every moderator action (docs/product.md §11): who (kept by name after the account is gone), what,
 * on what, when, why, and a short excerpt of the item that may no longer exist.
 */
export const modLog = sqliteTable(
  'mod_log',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    /** One of modActions (shared/schemas/moderation.ts). */
    action: text('action').notNull(),
    /** 'comment' | 'reply' | 'user' | 'business'. */
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    excerpt: text('excerpt').notNull().default(''),
    reason: text('reason'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('mod_log_created_idx').on(t.createdAt),
    // The log page's filters, each newest first without a sort.
    index('mod_log_action_idx').on(t.action, t.createdAt),
    index('mod_log_target_kind_idx').on(t.targetKind, t.createdAt),
  ],
);

/**
 * Posts hidden by reports (auto-hides), newest last: what the admins' digest mail lists. Rows go
 * with their post, so the digest never quotes a text its author deleted.
 */
export const autoHides = sqliteTable(
  'auto_hides',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    replyId: text('reply_id').references(() => replies.id, { onDelete: 'cascade' }),
    hiddenAt: integer('hidden_at').notNull(),
  },
  (t) => [
    index('auto_hides_hidden_at_idx').on(t.hiddenAt),
    // Deleting a post looks its rows up here (the cascade).
    index('auto_hides_comment_idx').on(t.commentId),
    index('auto_hides_reply_idx').on(t.replyId),
  ],
);

/**
 * Each opted-in admin's latest digest mail: the auto-hides from `from_at` on, sent (or to be
 * sent) at `send_at` as the outbox row `mail_id`. While `send_at` is ahead, the row is still
 * waiting and later auto-hides are added to it; so at most one digest goes out an hour.
 */
export const modDigests = sqliteTable('mod_digests', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  fromAt: integer('from_at').notNull(),
  sendAt: integer('send_at').notNull(),
  mailId: text('mail_id').notNull(),
});

/**
 * A burst of ratings from young accounts (services/moderation/rating-bursts.ts), in the moderation
 * queue until a moderator accepts or rejects it: star ratings of one business, or emoji ratings of
 * one comment (comment_id) or reply (reply_id) of that business. One open entry per business and
 * one per post (partial indexes).
 */
export const ratingBursts = sqliteTable(
  'rating_bursts',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** Set for a burst of emoji ratings of this comment; null (and reply_id null) for star ratings of the business. */
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** Set for a burst of emoji ratings of this reply. */
    replyId: text('reply_id').references(() => replies.id, { onDelete: 'cascade' }),
    /** Young accounts' ratings in the window when it was last seen. */
    ratings: integer('ratings').notNull(),
    firstAt: integer('first_at').notNull(),
    detectedAt: integer('detected_at').notNull(),
    lastAt: integer('last_at').notNull(),
    resolvedAt: integer('resolved_at'),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    /** 'accept' (its ratings count) | 'reject' (they stay out) once resolved; 'dismiss' before holds existed. */
    resolution: text('resolution'),
  },
  (t) => [
    uniqueIndex('rating_bursts_open_idx')
      .on(t.businessId)
      .where(sql`resolved_at is null and comment_id is null and reply_id is null`),
    index('rating_bursts_business_idx').on(t.businessId, t.resolvedAt),
    index('rating_bursts_queue_idx').on(t.resolvedAt, t.detectedAt),
    // A post's open burst and its last decision (the emoji-rating check), read from the index alone.
    index('rating_bursts_comment_idx')
      .on(t.commentId, t.resolvedAt)
      .where(sql`comment_id is not null`),
    index('rating_bursts_reply_idx')
      .on(t.replyId, t.resolvedAt)
      .where(sql`reply_id is not null`),
  ],
);
