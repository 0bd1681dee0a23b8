import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { commentRatings, comments, replies, replyRatings } from '../../db/schema';
import type { Deps } from '../deps';
import type { DbOrTx } from './users';
import { AppError } from '../lib/errors';
import type { MessageKey } from '../schemas/messages';
import type { RateInput, RateResult } from '../schemas/comments';
import type { Actor } from './actor';
import { requireActiveFor } from './actor';
import { applyRate, emojiCountsOf, type RatingTally } from './emoji-ratings';
import { consumeLimit } from './rate-limits';

/** Rated things differ only in their tables; the rule below is written once for both. */
type RatingStore = {
  notFound: MessageKey;
  target(tx: DbOrTx, id: string): (RatingTally & { userId: string }) | undefined;
  previous(tx: DbOrTx, id: string, userId: string): number | null;
  put(tx: DbOrTx, id: string, userId: string, rate: number, now: number): void;
  drop(tx: DbOrTx, id: string, userId: string): void;
  save(tx: DbOrTx, id: string, tally: RatingTally): void;
};

const tallyColumns = <T extends typeof comments | typeof replies>(t: T) => ({
  userId: t.userId,
  ratingCount: t.ratingCount,
  ratingAvg: t.ratingAvg,
  rated1: t.rated1,
  rated2: t.rated2,
  rated3: t.rated3,
  rated4: t.rated4,
  rated5: t.rated5,
});

const commentStore: RatingStore = {
  notFound: 'commentNotFound',
  target: (tx, id) => tx.select(tallyColumns(comments)).from(comments).where(eq(comments.id, id)).get(),
  previous: (tx, id, userId) =>
    tx
      .select({ rate: commentRatings.rate })
      .from(commentRatings)
      .where(and(eq(commentRatings.commentId, id), eq(commentRatings.userId, userId)))
      .get()?.rate ?? null,
  put: (tx, id, userId, rate, now) =>
    tx
      .insert(commentRatings)
      .values({ commentId: id, userId, rate, createdAt: now })
      .onConflictDoUpdate({ target: [commentRatings.commentId, commentRatings.userId], set: { rate, createdAt: now } })
      .run(),
  drop: (tx, id, userId) => tx.delete(commentRatings).where(and(eq(commentRatings.commentId, id), eq(commentRatings.userId, userId))).run(),
  save: (tx, id, tally) => tx.update(comments).set(tally).where(eq(comments.id, id)).run(),
};

const replyStore: RatingStore = {
  notFound: 'replyNotFound',
  target: (tx, id) => tx.select(tallyColumns(replies)).from(replies).where(eq(replies.id, id)).get(),
  previous: (tx, id, userId) =>
    tx
      .select({ rate: replyRatings.rate })
      .from(replyRatings)
      .where(and(eq(replyRatings.replyId, id), eq(replyRatings.userId, userId)))
      .get()?.rate ?? null,
  put: (tx, id, userId, rate, now) =>
    tx
      .insert(replyRatings)
      .values({ replyId: id, userId, rate, createdAt: now })
      .onConflictDoUpdate({ target: [replyRatings.replyId, replyRatings.userId], set: { rate, createdAt: now } })
      .run(),
  drop: (tx, id, userId) => tx.delete(replyRatings).where(and(eq(replyRatings.replyId, id), eq(replyRatings.userId, userId))).run(),
  save: (tx, id, tally) => tx.update(replies).set(tally).where(eq(replies.id, id)).run(),
};

/**
 * One user's emoji rate on a comment or reply (PRODUCT.md 4): null takes it back, an existing
 * one is replaced, else it is added; the tally columns move in the same transaction. Nobody
 * rates their own post.
 */
async function rate(deps: Deps, actor: Actor, store: RatingStore, input: RateInput): Promise<RateResult> {
  const rater = requireActiveFor(actor, 'emojiRateLoginRequired');
  await consumeLimit('rate', rater.id);
  return deps.db.transaction((txn) => {
    const tx = txn as unknown as Db;
    const target = store.target(tx, input.id);
    if (!target) throw new AppError('NOT_FOUND', store.notFound);
    if (target.userId === rater.id) throw new AppError('FORBIDDEN', 'emojiRateOwnPost');
    const previous = store.previous(tx, input.id, rater.id);
    if (input.rate === null) store.drop(tx, input.id, rater.id);
    else store.put(tx, input.id, rater.id, input.rate, Date.now());
    const tally = applyRate(target, previous, input.rate);
    store.save(tx, input.id, tally);
    return { rate: tally.ratingAvg, ratingCount: tally.ratingCount, emojiCounts: emojiCountsOf(tally), myRate: input.rate };
  });
}

export const rateComment = (deps: Deps, actor: Actor, input: RateInput) => rate(deps, actor, commentStore, input);
export const rateReply = (deps: Deps, actor: Actor, input: RateInput) => rate(deps, actor, replyStore, input);

export type RatingEntry = { userId: string; rate: number };

/** The documented REST `ratings` lists carry at most this many entries (newest first) each. */
export const RATINGS_LIST_CAP = 100;

/**
 * `ratings` lists of the documented REST shape for several comments or replies in one
 * statement: the newest RATINGS_LIST_CAP of each, plus always the caller's own, so a client
 * that looks itself up in the list finds its rate. The counts per emoji are complete anyway.
 */
export function ratingLists(db: Db, kind: 'comment' | 'reply', ids: string[], me: string | null): Map<string, RatingEntry[]> {
  const lists = new Map<string, RatingEntry[]>();
  if (ids.length === 0) return lists;
  const t = kind === 'comment' ? { table: commentRatings, of: commentRatings.commentId } : { table: replyRatings, of: replyRatings.replyId };
  const ranked = db
    .select({
      of: sql<string>`${t.of}`.as('of'),
      userId: sql<string>`${t.table.userId}`.as('user_id'),
      rate: sql<number>`${t.table.rate}`.as('rate'),
      createdAt: sql<number>`${t.table.createdAt}`.as('created_at'),
      rank: sql<number>`row_number() over (partition by ${t.of} order by ${t.table.createdAt} desc)`.as('rank'),
    })
    .from(t.table)
    .where(inArray(t.of, ids))
    .as('ranked');
  const rows = db
    .select({ of: ranked.of, userId: ranked.userId, rate: ranked.rate })
    .from(ranked)
    .where(sql`${ranked.rank} <= ${RATINGS_LIST_CAP} or ${ranked.userId} = ${me}`)
    .orderBy(desc(ranked.createdAt))
    .all();
  for (const row of rows) {
    const list = lists.get(row.of) ?? [];
    list.push({ userId: row.userId, rate: row.rate });
    lists.set(row.of, list);
  }
  return lists;
}
