import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { commentRatings, comments, replies, replyRatings } from '../../../db/schema';
import type { Deps } from '../deps';
import { businessWrite } from '../../lib/data-stamp';
import { AppError } from '../../lib/errors';
import { inTransaction, keptLimit, keptParam, preparedStatements } from '../../lib/prepared';
import type { MessageKey } from '../../../shared/schemas/messages';
import type { RateInput, RateResult } from '../../../shared/schemas/comments';
import type { Actor } from '../actor';
import { requireActiveFor } from '../actor';
import { applyRate, emojiCountsOf } from './emoji-ratings';
import { notifyReaction } from '../notifications/notifications';
import { isYoungRater, noteEmojiBurst } from '../moderation/rating-bursts';

/** The documented REST `ratings` lists carry at most this many entries (newest first) each. */
export const RATINGS_LIST_CAP = 100;

const p = {
  id: sql.placeholder('id'),
  userId: sql.placeholder('userId'),
  rate: sql.placeholder('rate'),
  now: sql.placeholder('now'),
  count: sql.placeholder('count'),
  avg: sql.placeholder('avg'),
  r1: sql.placeholder('r1'),
  r2: sql.placeholder('r2'),
  r3: sql.placeholder('r3'),
  r4: sql.placeholder('r4'),
  r5: sql.placeholder('r5'),
};

const tallyColumns = <T extends typeof comments | typeof replies>(t: T) => ({
  userId: t.userId,
  businessId: t.businessId,
  ratingCount: t.ratingCount,
  ratingAvg: t.ratingAvg,
  rated1: t.rated1,
  rated2: t.rated2,
  rated3: t.rated3,
  rated4: t.rated4,
  rated5: t.rated5,
});

const newTally = {
  ratingCount: sql`${p.count}`,
  ratingAvg: sql`${p.avg}`,
  rated1: sql`${p.r1}`,
  rated2: sql`${p.r2}`,
  rated3: sql`${p.r3}`,
  rated4: sql`${p.r4}`,
  rated5: sql`${p.r5}`,
};

/** A rated post kind: its table, its ratings table and that table's column naming the post. */
export type RatedKind =
  | { posts: typeof comments; ratings: typeof commentRatings; postId: typeof commentRatings.commentId; key: 'commentId' }
  | { posts: typeof replies; ratings: typeof replyRatings; postId: typeof replyRatings.replyId; key: 'replyId' };

/**
 * Rated things differ only in their tables; the rule below is written once for both. Every
 * statement is compiled once (a rating is the most frequent write of the site).
 */
function ratingStatements(kind: RatedKind) {
  const { posts, ratings, postId } = kind;
  const ofPost = eq(postId, p.id);
  return preparedStatements((db: Db) => ({
    target: db.select(tallyColumns(posts)).from(posts).where(eq(posts.id, p.id)),
    previous: db
      .select({ rate: ratings.rate, counted: ratings.counted })
      .from(ratings)
      .where(and(ofPost, eq(ratings.userId, p.userId))),
    put: db
      .insert(ratings)
      // The column naming the post differs by kind; the values are placeholders bound at run time.
      .values({ [kind.key]: p.id, userId: p.userId, rate: p.rate, createdAt: p.now } as unknown as typeof ratings.$inferInsert)
      .onConflictDoUpdate({ target: [postId, ratings.userId], set: { rate: sql`${p.rate}`, createdAt: sql`${p.now}` } }),
    drop: db.delete(ratings).where(and(ofPost, eq(ratings.userId, p.userId))),
    save: db.update(posts).set(newTally).where(eq(posts.id, p.id)),
    newest: newestRatings(db, kind),
  }));
}

/**
 * A post's newest RATINGS_LIST_CAP ratings, from *_ratings_newest_idx alone (it ends with `counted`,
 * migration 0038). The post's id is a keptParam:
 * with its ORDER BY, SQLite plans the statement in full and would compile it again on every run
 * (16 against 7 µs on the bench data); the REST reply of a reaction and every REST comment list
 * run it once per post. Exported for the query-plan test.
 */
export function newestRatings(db: Db, kind: Pick<RatedKind, 'ratings' | 'postId'>) {
  const { ratings, postId } = kind;
  return (
    db
      .select({ userId: ratings.userId, rate: ratings.rate })
      .from(ratings)
      // Counted ratings only: a banned rater's are out of the post's numbers and of its list too
      // (docs/product.md "What is held out of the public numbers").
      .where(and(sql`${postId} = ${keptParam(p.id)}`, eq(ratings.counted, true)))
      .orderBy(desc(ratings.createdAt))
      .limit(keptLimit(RATINGS_LIST_CAP))
  );
}

const commentStatements = ratingStatements({ posts: comments, ratings: commentRatings, postId: commentRatings.commentId, key: 'commentId' });
const replyStatements = ratingStatements({ posts: replies, ratings: replyRatings, postId: replyRatings.replyId, key: 'replyId' });

// Replies' statements have the same type as comments' (ratingStatements is generic over the table).
type RatingStore = { kind: 'comment' | 'reply'; notFound: MessageKey; statements: typeof commentStatements };
const commentStore: RatingStore = { kind: 'comment', notFound: 'commentNotFound', statements: commentStatements };
const replyStore: RatingStore = { kind: 'reply', notFound: 'replyNotFound', statements: replyStatements };

/**
 * One user's emoji rate on a comment or reply (docs/product.md §4): null takes it back, an existing
 * one is replaced, else it is added; the tally columns move in the same transaction. Nobody
 * rates their own post.
 */
async function rate(deps: Deps, actor: Actor, store: RatingStore, input: RateInput): Promise<RateResult> {
  const rater = requireActiveFor(actor, 'emojiRateLoginRequired');
  await deps.limits.consume('rate', rater.id);
  const { db } = deps;
  const q = store.statements(db);
  const now = Date.now();
  // Only a young account's rating can start or join an emoji-rating burst; an established rater's
  // age comes with the session (no query).
  const young = input.rate !== null && isYoungRater(deps, rater, now);
  let first = false;
  // Shown only by the post's business's pages and the site-wide lists (data-stamp.ts).
  const result = businessWrite(db, (touches) =>
    inTransaction(db, () => {
      const target = q.target.get({ id: input.id });
      if (!target) throw new AppError('NOT_FOUND', store.notFound);
      touches(target.businessId);
      if (target.userId === rater.id) throw new AppError('FORBIDDEN', 'emojiRateOwnPost');
      const mine = q.previous.get({ id: input.id, userId: rater.id });
      const previous = mine?.rate ?? null;
      if (input.rate === null) q.drop.run({ id: input.id, userId: rater.id });
      else q.put.run({ id: input.id, userId: rater.id, rate: input.rate, now });
      // A first reaction is news to the author; a changed or withdrawn one is not.
      first = previous === null && input.rate !== null;
      // A rating held by a burst (or of a banned rater) is out of the columns, changed or not.
      const counts = mine === undefined || mine.counted;
      let tally = applyRate(target, counts ? previous : null, counts ? input.rate : null);
      if (young) tally = noteEmojiBurst(deps, store.kind, { id: input.id, businessId: target.businessId }, tally, now);
      q.save.run({
        id: input.id,
        count: tally.ratingCount,
        avg: tally.ratingAvg,
        r1: tally.rated1,
        r2: tally.rated2,
        r3: tally.rated3,
        r4: tally.rated4,
        r5: tally.rated5,
      });
      return { rate: tally.ratingAvg, ratingCount: tally.ratingCount, emojiCounts: emojiCountsOf(tally), myRate: input.rate } satisfies RateResult;
    }),
  );
  // After the commit (a reaction rolled back is never announced): the notice is written by the
  // next batch of notifications, which every read of them runs first (docs/decisions/020).
  if (first) notifyReaction(db, rater.id, store.kind, input.id, now);
  return result;
}

export const rateComment = (deps: Deps, actor: Actor, input: RateInput) => rate(deps, actor, commentStore, input);
export const rateReply = (deps: Deps, actor: Actor, input: RateInput) => rate(deps, actor, replyStore, input);

export type RatingEntry = { userId: string; rate: number };

/**
 * `ratings` lists of the documented REST shape for several comments or replies: the newest RATINGS_LIST_CAP of each, plus always the caller's own, so a client
 * that looks itself up in the list finds its rate. The counts per emoji are complete anyway. A
 * banned rater is left out, as from the counts (setEmojiRatingsCounted).
 */
export function ratingLists(db: Db, kind: 'comment' | 'reply', ids: string[], me: string | null): Map<string, RatingEntry[]> {
  const q = (kind === 'comment' ? commentStatements : replyStatements)(db);
  const lists = new Map<string, RatingEntry[]>();
  // One short index walk per post (rating tables are indexed by (post, created_at)): each stops
  // after RATINGS_LIST_CAP rows, where ranking all of a popular post's ratings in one
  // window-function statement read thousands. In-process SQLite makes many small queries cheap.
  for (const id of new Set(ids)) {
    const list = q.newest.all({ id });
    if (me && list.length === RATINGS_LIST_CAP && !list.some((r) => r.userId === me)) {
      const mine = q.previous.get({ id, userId: me });
      if (mine) list.push({ userId: me, rate: mine.rate });
    }
    lists.set(id, list);
  }
  return lists;
}
