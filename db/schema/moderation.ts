import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { comments, replies } from './comments';
import { users } from './users';

/**
 * A user's report of a comment (comment_id) or a reply (reply_id); exactly one of the two is set.
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
    reporterId: text('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of reportReasons (server/schemas/moderation.ts). */
    reason: text('reason').notNull(),
    note: text('note'),
    createdAt: integer('created_at').notNull(),
    resolvedAt: integer('resolved_at'),
    /** 'remove' | 'dismiss' once resolved. */
    resolution: text('resolution'),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('reports_open_comment_idx').on(t.commentId, t.reporterId).where(sql`resolved_at is null`),
    uniqueIndex('reports_open_reply_idx').on(t.replyId, t.reporterId).where(sql`resolved_at is null`),
    index('reports_queue_idx').on(t.resolvedAt, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId),
  ],
);

/**
 * Every moderator action (PRODUCT.md 11): who (kept by name after the account is gone), what,
 * on what, when, why, and a short excerpt of the item that may no longer exist.
 */
export const modLog = sqliteTable(
  'mod_log',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    /** One of modActions (server/schemas/moderation.ts). */
    action: text('action').notNull(),
    /** 'comment' | 'reply' | 'user' | 'business'. */
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    excerpt: text('excerpt').notNull().default(''),
    reason: text('reason'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mod_log_created_idx').on(t.createdAt)],
);
