import { z } from 'zod';
import type { Db } from '../../db/client';
import {
  clientOnlyCommentFields,
  clientOnlyPostFields,
  commentCardSchema,
  replyCardSchema,
  type CommentCard,
  type ReplyCard,
} from '../../shared/schemas/post-cards';
import type { Actor } from '../services/actor';
import { ratingLists, type RatingEntry } from '../services/comments/comment-ratings';
import { replyPreviews } from '../services/comments/replies';

export const ratingEntrySchema = z.object({ userId: z.string(), rate: z.number().int().min(1).max(5) });
const ratingsSchema = z
  .array(ratingEntrySchema)
  .describe(
    'Who rated how, newest first: at most 100 entries plus always your own; a banned rater is left out, as from the counts. Lists of the feed carry only your own entry.',
  );

/**
 * The documented shape of a card (shared/schemas/post-cards.ts): every field but those only our
 * client reads, with `ratings` after `emojiCounts`, where the documented replies have always
 * written it. A field added to a card is in its REST document too, in the card's order.
 */
function documented<S extends z.core.$ZodLooseShape, K extends keyof S & string>(card: z.ZodObject<S>, clientOnly: Record<K, true>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(card.shape)) {
    if (key in clientOnly) continue;
    shape[key] = field as z.ZodType;
    if (key === 'emojiCounts') shape.ratings = ratingsSchema;
  }
  return z.object(shape) as unknown as z.ZodObject<Omit<S, K> & { ratings: typeof ratingsSchema }>;
}

export const restReplySchema = documented(replyCardSchema, clientOnlyPostFields).extend({ isConfirmed: z.boolean() });

export const restCommentSchema = documented(commentCardSchema, clientOnlyCommentFields).extend({
  subComments: z.array(restReplySchema).describe("The newest replies (at most 50; replyCount tells how many there are). Empty in the feed's lists."),
});

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

/** A reply just posted in the documented shape: nobody has rated it yet, so no list is looked up. */
export const newReplyDocument = (card: ReplyCard): ReplyDocument => ({ ...card, ratings: [], isConfirmed: PUBLISHED });

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
