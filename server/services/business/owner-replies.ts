import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { comments, ownerReplies } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import type { CommentCard } from '../../../shared/schemas/comments';
import type { OwnerReplyInput } from '../../../shared/schemas/owners';
import { isModeratorActor, requireActive, requireActiveFor, type Actor } from '../actor';
import { getCommentCard } from '../comments/comments';
import { recordModAction } from '../moderation/mod-log';
import { notifyOwnerReply, notifyOwnerReplyModerated } from '../notifications/notifications';
import { isOwner } from './owners';
import { checkEditedPost, checkNewPost } from '../moderation/spam';

/**
 * A business owner's answer to a review (issue 31): one per review (the table's primary key),
 * written, edited and deleted by any of the business's owners, shown under the review as the
 * business's. A new answer passes the spam rules and the `post` limit like any post; an edit
 * the edit's. The review's author is notified of a new answer. Members report answers like posts
 * (services/moderation/reports.ts, kind 'ownerReply'); an edit keeps a hidden answer hidden.
 */

type Review = { id: string; businessId: string; userId: string; text: string };

function reviewFor(db: DbOrTx, commentId: string): Review & { hiddenAt: number | null; removedAt: number | null } {
  const row = db
    .select({
      id: comments.id,
      businessId: comments.businessId,
      userId: comments.userId,
      text: comments.text,
      hiddenAt: comments.hiddenAt,
      removedAt: comments.removedAt,
    })
    .from(comments)
    .where(eq(comments.id, commentId))
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'commentNotFound');
  return row;
}

/** Writes or replaces the business's answer to a review (PUT /api/comment/{id}/owner-reply). */
export async function putOwnerReply(deps: Deps, actor: Actor, input: OwnerReplyInput, now = Date.now()): Promise<CommentCard> {
  const me = requireActiveFor(actor, 'ownerReplyLoginRequired');
  const { db } = deps;
  const check = (d: DbOrTx) => {
    const review = reviewFor(d, input.commentId);
    if (!isOwner(d, me.id, review.businessId)) throw new AppError('FORBIDDEN', 'notOwner');
    // A removed review takes no answer, as it takes no reply; a hidden one waits for the moderators.
    if (review.removedAt !== null) throw new AppError('FORBIDDEN', 'postRemovedNoReplies');
    if (review.hiddenAt !== null) throw new AppError('NOT_FOUND', 'commentNotFound');
    const existing = d
      .select({ createdAt: ownerReplies.createdAt, removedAt: ownerReplies.removedAt })
      .from(ownerReplies)
      .where(eq(ownerReplies.commentId, input.commentId))
      .get();
    // A moderator's removal is not undone by editing: the owners delete it and answer anew.
    if (existing?.removedAt != null) throw new AppError('FORBIDDEN', 'ownerReplyRemoved');
    return { review, existing };
  };
  const { existing } = check(db);
  if (existing) {
    await deps.limits.consume('edit', me.id);
    checkEditedPost(deps, me.id, input.text, now);
  } else {
    await deps.limits.consume('post', me.id);
    checkNewPost(deps, me.id, input.text, now);
  }
  db.transaction((tx) => {
    const { review, existing: still } = check(tx);
    tx.insert(ownerReplies)
      .values({ commentId: review.id, businessId: review.businessId, userId: me.id, text: input.text, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: ownerReplies.commentId, set: { text: input.text, userId: me.id, updatedAt: now } })
      .run();
    if (!still) notifyOwnerReply(db, me.id, review.id, now);
  });
  return getCommentCard(db, actor, input.commentId);
}

/**
 * Deletes the business's answer to a review: any of its owners, or a moderator (logged as a
 * removal). DELETE /api/comment/{id}/owner-reply. While reports keep it hidden, only a moderator
 * may (the owners may still edit it; it stays hidden until the reports are decided). A
 * moderator's delete tells the business's owners, as a removal does.
 */
export async function deleteOwnerReply(deps: Deps, actor: Actor, commentId: string, now = Date.now()): Promise<void> {
  const me = requireActive(actor);
  await deps.limits.consume('delete', me.id);
  const { db } = deps;
  db.transaction((tx) => {
    const review = reviewFor(tx, commentId);
    const owner = isOwner(tx, me.id, review.businessId);
    const moderator = isModeratorActor(actor);
    if (!owner && !moderator) throw new AppError('FORBIDDEN', 'notOwner');
    // Reports hid it and a moderator has not decided yet: deleting it would take it out of the
    // queue with its reports, and the same text could then be posted again, shown to everyone.
    const held = tx
      .select({ hiddenAt: ownerReplies.hiddenAt, removedAt: ownerReplies.removedAt })
      .from(ownerReplies)
      .where(eq(ownerReplies.commentId, commentId))
      .get();
    if (!moderator && held?.hiddenAt != null && held.removedAt == null) throw new AppError('FORBIDDEN', 'ownerReplyHidden');
    // A moderator's delete is a removal: the owners hear of it (before the row goes), unless a
    // removal already told them. There is no reason to show: it names none.
    if (!owner && held && held.removedAt == null) notifyOwnerReplyModerated(db, 'removed', commentId, me.id, now);
    const gone = tx.delete(ownerReplies).where(eq(ownerReplies.commentId, commentId)).returning({ text: ownerReplies.text }).all();
    if (gone.length === 0) throw new AppError('NOT_FOUND', 'ownerReplyNotFound');
    if (!owner) recordModAction(tx, me, { action: 'remove', targetKind: 'ownerReply', targetId: commentId, excerpt: gone[0].text });
  });
}
