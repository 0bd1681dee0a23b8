import type { Db } from '../../db/client';
import type { CommentCard, ReplyCard } from '../schemas/comments';
import type { Actor } from '../services/actor';
import { ratingLists, type RatingEntry } from '../services/comment-ratings';
import { replyPreviews } from '../services/replies';

/** A reply in the documented REST shape (description section 3). */
export type ReplyDocument = ReplyCard & { ratings: RatingEntry[]; isConfirmed: boolean };
/** A comment in the documented REST shape (description section 3). */
export type CommentDocument = CommentCard & { ratings: RatingEntry[]; subComments: ReplyDocument[] };

/** Replies a documented comment carries at most (newest first); replyCount tells the whole. */
export const DOCUMENT_REPLIES_CAP = 50;

/** Replies are published as posted; the legacy field stays for clients that read it. */
const PUBLISHED = true;

/** Adds the documented `ratings` lists to replies, in one query for the whole list. */
export function replyDocuments(db: Db, actor: Actor, cards: ReplyCard[]): ReplyDocument[] {
  const lists = ratingLists(
    db,
    'reply',
    cards.map((r) => r._id),
    actor?.id ?? null,
  );
  return cards.map((r) => ({ ...r, ratings: lists.get(r._id) ?? [], isConfirmed: PUBLISHED }));
}

/**
 * Comments in the documented REST shape. `full` (a business's list, one comment) adds the
 * ratings lists and the newest replies with theirs, each in one batched query. Feed lists stay
 * light: per-emoji counts, the caller's own entry in `ratings`, and no `subComments`.
 */
export function commentDocuments(db: Db, actor: Actor, cards: CommentCard[], full: boolean): CommentDocument[] {
  if (!full) {
    const me = actor?.id;
    return cards.map((c) => ({ ...c, ratings: me && c.myRate !== null ? [{ userId: me, rate: c.myRate }] : [], subComments: [] }));
  }
  const ids = cards.map((c) => c._id);
  const lists = ratingLists(db, 'comment', ids, actor?.id ?? null);
  const previews = replyPreviews(db, actor, ids, DOCUMENT_REPLIES_CAP);
  const replies = replyDocuments(db, actor, [...previews.values()].flat());
  const repliesByComment = new Map<string, ReplyDocument[]>();
  for (const r of replies) repliesByComment.set(r.commentId, [...(repliesByComment.get(r.commentId) ?? []), r]);
  return cards.map((c) => ({ ...c, ratings: lists.get(c._id) ?? [], subComments: repliesByComment.get(c._id) ?? [] }));
}
