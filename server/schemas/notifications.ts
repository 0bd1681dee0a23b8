import { z } from 'zod';
import { idSchema } from './common';

/**
 * What a user is told about (issue 30). `ownerReply` is kept for a business owner's reply to a
 * review, which does not exist yet: nothing writes it, the list and the client already show it.
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
  'reportResolved',
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
  /** ISO 8601; for grouped reactions, the latest one. */
  createdAt: string;
  read: boolean;
  /** People who reacted (reaction), else 1. */
  count: number;
  /** Who did it; null for a moderator's decision. */
  actor: { _id: string; firstName: string; lastName: string } | null;
  commentId: string;
  replyId: string | null;
  businessId: string;
  businessTitle: string;
  /** A removal's reason as its author is told it; a report's outcome (`remove` | `dismiss`). */
  reason: string | null;
  /** The page of the exact post: /comment/{commentId}#reply-{replyId} or #comment-{commentId}. */
  link: string;
};

export type NotificationsPage = { items: NotificationItem[]; nextCursor: string | null; unread: number };
