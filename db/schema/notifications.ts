import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { businessSuggestions, businesses } from './businesses';
import { comments } from './comments';
import { users } from './users';

/**
 * What a user is told about (services/notifications/notifications.ts, issue 30): one row per recipient and
 * event. A reaction notice is one row per post while unread (`count` people reacted); reading it
 * starts a new one. Rows go with their recipient and their comment (cascades); a deleted
 * reply's rows, and a deleted actor's, are deleted by the code that deletes them
 * (services/comments/replies.ts, accounts/accounts-delete.ts) on the (comment, reply) index.
 *
 * Kept cheap to write (docs/decisions/020, "Cheaper rows"): an integer key (the rowid, so the
 * table itself grows at its end), and a new row enters three indexes (four for a reaction): the
 * unread list, the mail queue (appended) and its thread; one foreign key is checked (two with a
 * comment). The list of read rows is an
 * index of its own, written when a row is read, not when it is made.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    /** The rowid: the REST and tRPC `_id` is its decimal text. */
    id: integer('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of notificationKinds (shared/schemas/notifications.ts). */
    kind: text('kind').notNull(),
    /**
     * Who did it; null for a moderator's decision (moderators stay anonymous to authors). No
     * foreign key (a check and an index entry per row): a deleted account's notices go with its
     * replies, its comments and its reactions (accounts/accounts-delete.ts), and a row whose
     * actor is gone is never shown.
     */
    actorId: text('actor_id'),
    /** The thread the entry links to (/comment/{commentId}); null for a notice about a suggestion or a claim. */
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** The business of a notice without a comment (a decided claim, an approved suggestion). */
    businessId: text('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    /** The member's suggestion a decision is about (issue 31.5). */
    suggestionId: text('suggestion_id').references(() => businessSuggestions.id, { onDelete: 'cascade' }),
    /**
     * The reply it is about, when it is about one (#reply-{replyId}). No foreign key: a check
     * per row on every reply's notices; deleting a reply deletes its rows (see above).
     */
    replyId: text('reply_id'),
    /** The reacted post (comment or reply id) of a reaction notice, the key its unread row is grouped by. */
    groupKey: text('group_key'),
    /** Reactions grouped in this row (1 for every other kind). */
    count: integer('count').notNull().default(1),
    /** A removal's reason as its author is told it; a report's outcome ('remove' | 'dismiss'). */
    reason: text('reason'),
    createdAt: integer('created_at').notNull(),
    readAt: integer('read_at'),
    /** Set once its e-mail went into the outbox, or when it needs none. */
    mailedAt: integer('mailed_at'),
    /**
     * When the mail job should look at it again, for a row it held back: a digest that is not due
     * yet, or a thread mailed to the user within the hour. Null: when it was made.
     */
    mailDueAt: integer('mail_due_at'),
  },
  (t) => [
    // The bell's list, newest first, is two disjoint partial indexes read in one merge: the unread
    // rows (which the count reads too) and the read ones. A new row enters only the first; SQLite
    // appends the rowid, the cursor's tie-breaker.
    index('notifications_unread_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.readAt} IS NULL`),
    index('notifications_read_list_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.readAt} IS NOT NULL`),
    // One unread reaction notice per post and recipient: further reactions raise its count.
    uniqueIndex('notifications_reaction_group_idx')
      .on(t.userId, t.groupKey)
      .where(sql`${t.groupKey} IS NOT NULL AND ${t.readAt} IS NULL`),
    // A new review of a favourite becomes one row per review and reader, however often it is pulled.
    uniqueIndex('notifications_favorite_review_idx')
      .on(t.userId, t.commentId)
      .where(sql`${t.kind} = 'favoriteReview'`),
    // The mail job's queue (services/notifications/notification-mails.ts): rows not yet mailed or
    // passed over, in the order they become due; held rows wait further on without being read again.
    index('notifications_mail_due_idx')
      .on(sql`coalesce(${t.mailDueAt}, ${t.createdAt})`)
      .where(sql`${t.mailedAt} IS NULL`),
    // Pruning old read rows (services/ops/maintenance.ts).
    index('notifications_read_idx')
      .on(t.readAt)
      .where(sql`${t.readAt} IS NOT NULL`),
    // The cascades from deleted comments, businesses and suggestions. Partial where the column
    // may be null (migration 0019); a cascade's `= ?` implies the condition. The thread's index
    // also finds a deleted reply's rows and a deleted account's reactions.
    index('notifications_comment_idx')
      .on(t.commentId, t.replyId)
      .where(sql`${t.commentId} IS NOT NULL`),
    index('notifications_business_idx')
      .on(t.businessId)
      .where(sql`${t.businessId} IS NOT NULL`),
    index('notifications_suggestion_idx')
      .on(t.suggestionId)
      .where(sql`${t.suggestionId} IS NOT NULL`),
  ],
);

/**
 * A user's e-mail choice per kind of notification (replies, reactions, reviews of favourites,
 * moderation): 'instant' | 'daily' | 'off'. No row: the defaults (notificationMailDefaults).
 * `token` is the secret of the List-Unsubscribe links in their mails; `digest_at` when the
 * daily digest was last sent (or its clock started).
 */
export const notificationSettings = sqliteTable(
  'notification_settings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    replies: text('replies'),
    reactions: text('reactions'),
    reviews: text('reviews'),
    moderation: text('moderation'),
    token: text('token').notNull(),
    digestAt: integer('digest_at'),
  },
  // The mail job's hourly look for the digests that came due since its last look
  // (services/notifications/favorite-reviews.ts): a range of this index, not every follower.
  (t) => [
    index('notification_settings_digest_idx')
      .on(t.digestAt)
      .where(sql`${t.digestAt} IS NOT NULL`),
  ],
);

/**
 * Where the mail job's favourite pull stands (services/notifications/favorite-reviews.ts), so a
 * restart goes on from there instead of looking back a day at every follower: `name` is the
 * window ('instant', 'daily'), `at` the time up to which its reviews (and, for 'daily', the
 * digests that came due) have been worked off.
 */
export const mailPullMarks = sqliteTable('mail_pull_marks', {
  name: text('name').primaryKey(),
  at: integer('at').notNull(),
});

/** When a user was last mailed about a thread: at most one instant mail per thread an hour. */
export const notificationThreads = sqliteTable(
  'notification_threads',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    mailedAt: integer('mailed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.commentId] }), index('notification_threads_comment_idx').on(t.commentId)],
);

/**
 * Replies and first reactions waiting to become notifications (services/notifications/notification-events.ts,
 * docs/decisions/020): the write appends one small row here in its own transaction, and the
 * fan-out to recipients runs later in batches (on the next read of any bell or list, and every
 * second). No foreign keys and no secondary index: an append touches the table's last page only,
 * and the batch deletes what it worked off, so the table stays a page or two. The fan-out checks
 * that the post, the reply and the actor still exist.
 */
export const notificationEvents = sqliteTable('notification_events', {
  /** The order the writes committed in (a rowid; the batch works in this order). */
  seq: integer('seq').primaryKey(),
  /** 'reply' | 'commentReaction' | 'replyReaction'. */
  kind: text('kind').notNull(),
  actorId: text('actor_id').notNull(),
  /** The reply (for 'reply' and 'replyReaction') or the comment reacted to. */
  postId: text('post_id').notNull(),
  /** The thread of a reply. */
  commentId: text('comment_id'),
  /** Unused since migration 0031 (notification ids are rowids); kept to spare a table rebuild. */
  key: text('key').notNull(),
  createdAt: integer('created_at').notNull(),
});
