import { z } from 'zod';
import { idSchema } from './common';

/**
 * What a user is told about (issue 30); `ownerReply`: a business owner answered the user's review
 * (issue 31, services/business/owner-replies.ts); `ownerReplyHidden`, `ownerReplyRemoved`, `ownerReplyRestored`:
 * a moderator's decision on the business's answer, to each of its owners; the decisions on the user's suggestion of a place
 * and claim of a business (issue 31.5–6), the only kinds without a comment.
 */
export const notificationKinds = [
  'reply',
  'threadReply',
  'reaction',
  'favoriteReview',
  'ownerReply',
  'hidden',
  'removed',
  'restored',
  'ownerReplyHidden',
  'ownerReplyRemoved',
  'ownerReplyRestored',
  'reportResolved',
  'suggestionApproved',
  'suggestionRejected',
  'claimApproved',
  'claimRejected',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Entries a page of the list holds unless asked for fewer. */
export const NOTIFICATIONS_PAGE = 20;
/** At most this many ids per mark-as-read request. */
export const READ_IDS_MAX = 100;

export const notificationsInputSchema = z.object({
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(200).optional(),
});
export type NotificationsInput = z.output<typeof notificationsInputSchema>;

/** Marks some of the caller's notifications read, or all of them. */
export const markReadInputSchema = z.union([
  z.object({ ids: z.array(idSchema.max(120)).min(1).max(READ_IDS_MAX) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadInput = z.output<typeof markReadInputSchema>;

export type NotificationItem = {
  _id: string;
  kind: NotificationKind;
  /** ISO 8601; for grouped reactions and replies, the first one. */
  createdAt: string;
  read: boolean;
  /** People who reacted (reaction); replies in the thread from the first one missed on, at most THREAD_COUNT_MAX (reply, threadReply: one entry per thread while unread, linking to that first reply); else 1. */
  count: number;
  /** Who did it (for reply and threadReply the latest replier); null for a moderator's decision. */
  actor: { _id: string; firstName: string; lastName: string } | null;
  /** The thread; null for a decision on a suggestion or a claim. */
  commentId: string | null;
  replyId: string | null;
  /** The business; null for a rejected suggestion (no business was made). */
  businessId: string | null;
  /** The business's name, or the suggested name of a rejected suggestion. */
  businessTitle: string;
  /** The suggestion a decision is about. */
  suggestionId: string | null;
  /** A removal's or a rejection's reason as its author is told it; a report's outcome (`remove` | `dismiss`). */
  reason: string | null;
  /**
   * Where the entry leads: the exact post (/comment/{commentId}#reply-{replyId} or #comment-{commentId});
   * the business page for an approved suggestion or claim; /suggest (the member's suggestions with
   * their reasons) for a rejected suggestion; /user (the member's businesses and claims) for a rejected claim.
   */
  link: string;
};

export type NotificationsPage = { items: NotificationItem[]; nextCursor: string | null; unread: number };

/** The kinds of notification a user chooses e-mail for, each covering some notification kinds. */
export const mailCategories = ['replies', 'reactions', 'reviews', 'moderation'] as const;
export type MailCategory = (typeof mailCategories)[number];
export const mailChoices = ['instant', 'daily', 'off'] as const;
export type MailChoice = (typeof mailChoices)[number];

/** Replies and moderation at once, reactions and new reviews of favourites in the daily digest. */
export const notificationMailDefaults: Record<MailCategory, MailChoice> = { replies: 'instant', reactions: 'daily', reviews: 'daily', moderation: 'instant' };

export const categoryOfKind: Record<NotificationKind, MailCategory> = {
  reply: 'replies',
  threadReply: 'replies',
  ownerReply: 'replies',
  reaction: 'reactions',
  favoriteReview: 'reviews',
  hidden: 'moderation',
  removed: 'moderation',
  restored: 'moderation',
  ownerReplyHidden: 'moderation',
  ownerReplyRemoved: 'moderation',
  ownerReplyRestored: 'moderation',
  reportResolved: 'moderation',
  suggestionApproved: 'moderation',
  suggestionRejected: 'moderation',
  claimApproved: 'moderation',
  claimRejected: 'moderation',
};

export type NotificationSettings = Record<MailCategory, MailChoice>;
/** A change of some of the choices; the others stay. */
export const notificationSettingsInputSchema = z
  .object({
    replies: z.enum(mailChoices),
    reactions: z.enum(mailChoices),
    reviews: z.enum(mailChoices),
    moderation: z.enum(mailChoices),
  })
  .partial()
  .strict();
export type NotificationSettingsInput = z.output<typeof notificationSettingsInputSchema>;

export { THREAD_COUNT_MAX, threadCountText } from './notification-constants';
