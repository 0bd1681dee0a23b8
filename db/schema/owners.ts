import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { businesses } from './businesses';
import { comments } from './comments';
import { users } from './users';

/**
 * Who owns a business (issue 31, services/business/owners.ts): several owners per business, added when an
 * admin approves a claim (or at once when the claimant's confirmed address is at the business's
 * website's domain); an admin removes one by deleting the row.
 */
export const businessOwners = sqliteTable(
  'business_owners',
  {
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  // The profile's "Your business" list reads by user.
  (t) => [primaryKey({ columns: [t.businessId, t.userId] }), index('business_owners_user_idx').on(t.userId)],
);

/**
 * A member's request to own a business: 'pending' until an admin decides ('approved' |
 * 'rejected'); 'approved' at once on a matching e-mail domain. One pending claim per member and
 * business (the partial unique index).
 */
export const businessClaims = sqliteTable(
  'business_claims',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    note: text('note').notNull().default(''),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    createdAt: integer('created_at').notNull(),
    decidedAt: integer('decided_at'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** Why it was rejected, as the member is told it (optional). */
    reason: text('reason'),
  },
  (t) => [
    uniqueIndex('business_claims_pending_idx')
      .on(t.businessId, t.userId)
      .where(sql`status = 'pending'`),
    // The admins' queue: by status, oldest first.
    index('business_claims_status_idx').on(t.status, t.createdAt),
    index('business_claims_user_idx').on(t.userId),
  ],
);

/**
 * A business owner's answer to a review (issue 31): at most one per review (the primary key), shown
 * under it as "Svar från {business}"; reported and moderated like a post (its id is the review's). `user_id` is the owner who wrote or last edited it; it goes
 * with the review, and with its writer's account.
 */
export const ownerReplies = sqliteTable(
  'owner_replies',
  {
    commentId: text('comment_id')
      .primaryKey()
      .references(() => comments.id, { onDelete: 'cascade' }),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /**
     * Reports hid it (services/moderation/reports.ts), or a moderator removed it (then also
     * removed_at, and the text is gone): out of sight for all but the business's owners and moderators.
     */
    hiddenAt: integer('hidden_at'),
    removedAt: integer('removed_at'),
    /** What the owners are told of a removal (as a post's removal_reason). */
    removalReason: text('removal_reason'),
  },
  (t) => [index('owner_replies_business_idx').on(t.businessId, t.createdAt), index('owner_replies_user_idx').on(t.userId)],
);
