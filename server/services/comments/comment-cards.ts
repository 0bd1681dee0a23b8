import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { businessOwners, businesses, commentRatings, comments, images, ownerReplies, reports, users } from '../../../db/schema';
import { keptParam } from '../../lib/prepared';
import { uploadUrl } from '../../lib/urls';
import type { CommentCard, OwnerReply } from '../../../shared/schemas/comments';
import { isModeratorActor, type Actor } from '../actor';
import { avatar, photo, postCardOf, postColumns as basePostColumns } from './post-cards';

/**
 * A comment as a card: the columns and joins every list of comments reads, and the card built
 * from a row. comments.ts (the lists and writes) and comment-sorts.ts (the other orders) both
 * read through these.
 */

export const icon = alias(images, 'icon');
const mine = alias(commentRatings, 'mine');
const myReport = alias(reports, 'my_report');

export const rowid = sql<number>`${comments}.rowid`;

export const p = {
  me: sql.placeholder('me'),
  limit: sql.placeholder('limit'),
  t: sql.placeholder('t'),
  k: sql.placeholder('k'),
  businessId: sql.placeholder('businessId'),
  query: sql.placeholder('query'),
  id: sql.placeholder('id'),
  admin: sql.placeholder('admin'),
  branch: sql.placeholder('branch'),
};

/**
 * The viewer compared with a column (their rating, report, ownership; their own hidden posts) as a
 * keptParam: bound to these `column = ?` join terms, `me` made SQLite compile every card statement
 * anew on every run, some 0.3–0.6 ms a card lookup on the bench data (issue 32 item 3;
 * docs/decisions/003 and lib/prepared.ts say why `+?` keeps the compiled statement).
 */
const me = keptParam(p.me);

/** What a card shows of its comment and author: the post base and a comment's own; `cardColumns` adds the business. */
const postColumns = {
  ...basePostColumns(comments, { rate: sql<number | null>`${mine.rate}`, report: sql<string | null>`${myReport.id}` }, p),
  businessLocation: comments.businessLocation,
  branchId: comments.branchId,
  replyCount: comments.replyCount,
  authorRate: comments.authorRate,
  // The business's answer (services/business/owner-replies.ts), one per review by its primary key.
  ownerReplyText: ownerReplies.text,
  ownerReplyCreatedAt: ownerReplies.createdAt,
  ownerReplyUpdatedAt: ownerReplies.updatedAt,
  ownerReplyHiddenAt: ownerReplies.hiddenAt,
  ownerReplyRemovedAt: ownerReplies.removedAt,
  ownerReplyRemovalReason: ownerReplies.removalReason,
  // Only a signed-in reader can have reported it; then one probe of reports_open_owner_reply_idx.
  ownerReplyReported: sql<number>`(${p.me} is not null and ${ownerReplies.commentId} is not null and exists (select 1 from ${reports} where ${reports.ownerReplyId} = ${ownerReplies.commentId} and ${reports.reporterId} = ${me} and ${reports.resolvedAt} is null))`,
};

export const businessColumns = {
  businessTitle: businesses.title,
  businessIsSuggestionBox: businesses.isSuggestionBox,
  iconFile: icon.fileName,
};

const cardColumns = { ...postColumns, ...businessColumns };

// reports_open_comment_idx is partial (resolved_at is null): the ON clause repeats that term.
const reportedByMe = and(eq(myReport.commentId, comments.id), eq(myReport.reporterId, me), isNull(myReport.resolvedAt));

/**
 * The business's answer, unless reports hid it or a moderator removed it: then only moderators
 * and the business's owners get it (issue 31.7). The owners' probe (the business_owners key) runs
 * only for such an answer.
 */
const answerOf = and(
  eq(ownerReplies.commentId, comments.id),
  sql`(${ownerReplies.hiddenAt} is null or ${p.admin} = 1 or exists (select 1 from ${businessOwners} where ${businessOwners.businessId} = ${ownerReplies.businessId} and ${businessOwners.userId} = ${me}))`,
);

/**
 * Comments with everything a card shows in one statement. Every join is a LEFT JOIN on a primary
 * key: SQLite never moves a LEFT JOIN's right side to the outer loop, so `comments` stays outer
 * and each list walks its own index in order and stops at the limit.
 */
export function cards(db: Db) {
  return db
    .select(cardColumns)
    .from(comments)
    .leftJoin(users, eq(users.id, comments.userId))
    .leftJoin(avatar, eq(avatar.id, users.imageId))
    .leftJoin(businesses, eq(businesses.id, comments.businessId))
    .leftJoin(icon, eq(icon.id, businesses.iconId))
    .leftJoin(photo, eq(photo.id, comments.imageId))
    .leftJoin(mine, and(eq(mine.commentId, comments.id), eq(mine.userId, me)))
    .leftJoin(myReport, reportedByMe)
    .leftJoin(ownerReplies, answerOf);
}

/**
 * One business's comments: the cards without the business, which `businessHead` reads once per
 * page instead of once per row (two of the five lookups a row costs).
 */
export function businessCards(db: Db) {
  return db
    .select(postColumns)
    .from(comments)
    .leftJoin(users, eq(users.id, comments.userId))
    .leftJoin(avatar, eq(avatar.id, users.imageId))
    .leftJoin(photo, eq(photo.id, comments.imageId))
    .leftJoin(mine, and(eq(mine.commentId, comments.id), eq(mine.userId, me)))
    .leftJoin(myReport, reportedByMe)
    .leftJoin(ownerReplies, answerOf);
}

/**
 * Hidden comments (reports, server/services/moderation/reports.ts) only for their author and admins. A
 * residual test on the row each list reads anyway while it walks its index in order: no index
 * on hidden_at, so the planner keeps the list's own index and its early stop.
 */
export const visible = sql`(${comments.hiddenAt} is null or ${comments.userId} = ${me} or ${p.admin} = 1)`;

export type CardRow = ReturnType<ReturnType<typeof cards>['all']>[number];
export type PostRow = ReturnType<ReturnType<typeof businessCards>['all']>[number];
/** A card's business fields; null where the card's left join found no business (never, by the foreign key). */
export type BusinessHead = { businessTitle: string | null; businessIsSuggestionBox: boolean | null; iconFile: string | null };

export const toCommentCard = (r: CardRow): CommentCard => cardOf(r, r);

/** A card from a comment row and its business (the same row, or the page's one business). */
export function cardOf(r: PostRow, b: BusinessHead): CommentCard {
  return {
    ...postCardOf(r),
    businessIcon: uploadUrl(b.iconFile),
    businessTitle: b.businessTitle ?? '',
    businessIsSuggestionBox: b.businessIsSuggestionBox ?? false,
    businessLocation: r.businessLocation,
    branchId: r.branchId,
    authorRate: r.authorRate,
    replyCount: r.replyCount,
    ownerReply: ownerReplyOf(r),
  };
}

const iso = (t: number) => new Date(t).toISOString();
const ownerReplyOf = (r: PostRow): OwnerReply | null =>
  r.ownerReplyText === null || r.ownerReplyCreatedAt === null || r.ownerReplyUpdatedAt === null
    ? null
    : {
        text: r.ownerReplyText,
        createdAt: iso(r.ownerReplyCreatedAt),
        updatedAt: iso(r.ownerReplyUpdatedAt),
        hidden: r.ownerReplyHiddenAt !== null,
        removed: r.ownerReplyRemovedAt !== null,
        removalReason: r.ownerReplyRemovalReason,
        reportedByMe: Boolean(r.ownerReplyReported),
      };

/** Who reads a list: their own rate and report, and whether hidden posts are theirs to see (admins). */
export type Viewer = { me: string | null; admin: 0 | 1 };
export const viewerOf = (actor: Actor): Viewer => ({ me: actor?.id ?? null, admin: isModeratorActor(actor) ? 1 : 0 });
