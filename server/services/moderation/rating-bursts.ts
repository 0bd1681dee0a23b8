import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, max, min, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { businessRatings, businesses, commentRatings, comments, ratingBursts, replies, replyRatings, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { preparedStatements } from '../../lib/prepared';
import type { Page } from '../../../shared/schemas/comments';
import type { BurstResolution, BurstResolveInput, RatingBurst, ReportsPageInput } from '../../../shared/schemas/moderation';
import { requireModerator, type Actor } from '../actor';
import { moveRatingTally, setAuthorStars, releaseHeldRatings, releaseHeldEmojiRatings } from '../comments/rating-tally';
import { applyRate, type RatingTally } from '../comments/emoji-ratings';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { excerptOf, recordModAction } from './mod-log';

/** Entries a page of the queue's rating bursts shows unless asked for fewer. */
export const BURSTS_PAGE = 20;

/** A burst of star ratings of the business, not of emoji ratings of one of its posts. */
const ofStars = and(isNull(ratingBursts.commentId), isNull(ratingBursts.replyId));

const p = {
  businessId: sql.placeholder('businessId'),
  userId: sql.placeholder('userId'),
  since: sql.placeholder('since'),
  bornAfter: sql.placeholder('bornAfter'),
};

/**
 * The statements a star rating runs (every rating the first, a young account's the rest), inside
 * the rating's transaction. Exported so the query-plan test checks exactly these.
 */
export const ratingBurstQueries = (db: Db) => ({
  joined: db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, p.userId)),
  lastResolved: db
    .select({ at: max(ratingBursts.resolvedAt) })
    .from(ratingBursts)
    .where(and(eq(ratingBursts.businessId, p.businessId), ofStars)),
  // business_ratings_recent_idx finds the window's ratings; each rater is one primary-key lookup.
  young: db
    .select({ n: count(), first: min(businessRatings.updatedAt) })
    .from(businessRatings)
    .innerJoin(users, eq(users.id, businessRatings.userId))
    .where(and(eq(businessRatings.businessId, p.businessId), gt(businessRatings.updatedAt, p.since), gt(users.createdAt, p.bornAfter))),
  open: db
    .select({ id: ratingBursts.id, firstAt: ratingBursts.firstAt })
    .from(ratingBursts)
    .where(and(eq(ratingBursts.businessId, p.businessId), isNull(ratingBursts.resolvedAt), ofStars)),
  // The same walk as `young`, for the ratings to hold: those no burst has caught yet.
  toHold: db
    .select({ userId: businessRatings.userId, rate: businessRatings.rate, counted: businessRatings.counted })
    .from(businessRatings)
    .innerJoin(users, eq(users.id, businessRatings.userId))
    .where(
      and(
        eq(businessRatings.businessId, p.businessId),
        gt(businessRatings.updatedAt, p.since),
        gt(users.createdAt, p.bornAfter),
        isNull(businessRatings.heldBy),
      ),
    ),
  hold: db
    .update(businessRatings)
    .set({ heldBy: sql`${sql.placeholder('burstId')}`, counted: false })
    .where(and(eq(businessRatings.businessId, p.businessId), eq(businessRatings.userId, p.userId))),
  heldCount: db
    .select({ n: count() })
    .from(businessRatings)
    .where(eq(businessRatings.heldBy, sql.placeholder('burstId'))),
});
const prepared = preparedStatements(ratingBurstQueries);

/**
 * After a star rating (docs/product.md §11): when accounts
 * younger than RATING_BURST_ACCOUNT_AGE have rated the business RATING_BURST_RATINGS times within
 * RATING_BURST_WINDOW, the moderation queue gets a "rating burst" entry for it, and every one of
 * those ratings is held out of the public figures (average, count, breakdown, directory order)
 * until a moderator accepts or rejects the burst. One open entry per business: a young account's
 * rating while it is open joins it (and is held). After a decision, only ratings made after it
 * count towards the next burst. Runs in the rating's transaction; SPAM_RULES=0 turns it off.
 */
export function noteRatingBurst(deps: Deps, tx: DbOrTx, businessId: string, userId: string, now = Date.now()): void {
  const { env } = deps;
  if (!env.SPAM_RULES) return;
  const q = prepared(deps.db);
  const rater = q.joined.get({ userId });
  const bornAfter = now - env.RATING_BURST_ACCOUNT_AGE;
  if (!rater || rater.createdAt <= bornAfter) return;
  workBurst(env, now, {
    lastResolved: () => q.lastResolved.get({ businessId })?.at,
    open: () => q.open.get({ businessId }),
    young: (since) => q.young.get({ businessId, since, bornAfter }),
    start: (id, young) =>
      tx
        .insert(ratingBursts)
        .values({ id, businessId, ratings: young.n, firstAt: young.first ?? now, detectedAt: now, lastAt: now })
        .run(),
    toHold: (since) => q.toHold.all({ businessId, since, bornAfter }),
    hold: (burstId, r) => {
      q.hold.run({ businessId, userId: r.userId, burstId });
      if (r.counted) {
        moveRatingTally(deps.db, businessId, r.rate, false);
        setAuthorStars(tx, businessId, r.userId, null);
      }
    },
    heldCount: (burstId) => q.heldCount.get({ burstId })?.n ?? 0,
    save: (burstId, held) => tx.update(ratingBursts).set({ ratings: held, lastAt: now }).where(eq(ratingBursts.id, burstId)).run(),
  });
}

/** A young rating the burst rule holds: who rated, how, and whether it is in the public figures. */
type Held = { userId: string; rate: number; counted: boolean };

/**
 * The burst rule, the same for a business's star ratings and a post's emoji ratings (each caller
 * gives its own statements): when RATING_BURST_RATINGS ratings from young accounts fall within
 * RATING_BURST_WINDOW (and after the last decision), a burst opens and holds them; while one is
 * open, it holds every young rating since it began too, not only the window's.
 */
function workBurst(
  env: Deps['env'],
  now: number,
  s: {
    lastResolved(): number | null | undefined;
    open(): { id: string; firstAt: number } | undefined;
    young(since: number): { n: number; first: number | null } | undefined;
    start(id: string, young: { n: number; first: number | null }): void;
    toHold(since: number): Held[];
    hold(burstId: string, rating: Held): void;
    heldCount(burstId: string): number;
    save(burstId: string, held: number): void;
  },
): void {
  const since = Math.max(now - env.RATING_BURST_WINDOW, s.lastResolved() ?? 0);
  const open = s.open();
  let burstId = open?.id;
  if (!burstId) {
    const young = s.young(since);
    if (!young || young.n < env.RATING_BURST_RATINGS) return;
    burstId = newId();
    s.start(burstId, young);
  }
  const from = open ? Math.min(since, open.firstAt - 1) : since;
  for (const r of s.toHold(from)) s.hold(burstId, r);
  s.save(burstId, s.heldCount(burstId));
}

/**
 * The queue's rating bursts (moderators and admins). Open: oldest first, for the order they came
 * in. Resolved: most recently decided first. Each lists the ratings it holds (or held), with how
 * many are waiting.
 */
export function listRatingBursts(deps: Deps, actor: Actor, input: ReportsPageInput): Page<RatingBurst> {
  requireModerator(actor);
  const { db } = deps;
  const open = input.status === 'open';
  const limit = input.limit ?? BURSTS_PAGE;
  const cursor = decodeCursor(input.cursor, 'string');
  const at = open ? ratingBursts.detectedAt : ratingBursts.resolvedAt;
  const after = cursor
    ? open
      ? or(gt(ratingBursts.detectedAt, cursor.t), and(eq(ratingBursts.detectedAt, cursor.t), gt(ratingBursts.id, cursor.k)))
      : or(lt(ratingBursts.resolvedAt, cursor.t), and(eq(ratingBursts.resolvedAt, cursor.t), lt(ratingBursts.id, cursor.k)))
    : undefined;
  const rows = db
    .select({
      id: ratingBursts.id,
      businessId: ratingBursts.businessId,
      businessTitle: businesses.title,
      commentId: ratingBursts.commentId,
      replyId: ratingBursts.replyId,
      threadId: sql<string | null>`coalesce(${ratingBursts.commentId}, ${replies.commentId})`,
      postText: sql<string | null>`coalesce(${comments.text}, ${replies.text})`,
      ratings: ratingBursts.ratings,
      firstAt: ratingBursts.firstAt,
      detectedAt: ratingBursts.detectedAt,
      lastAt: ratingBursts.lastAt,
      resolvedAt: ratingBursts.resolvedAt,
      resolution: ratingBursts.resolution,
    })
    .from(ratingBursts)
    .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
    .leftJoin(comments, eq(comments.id, ratingBursts.commentId))
    .leftJoin(replies, eq(replies.id, ratingBursts.replyId))
    // rating_bursts_queue_idx (resolved_at, detected_at) serves both orders.
    .where(and(open ? isNull(ratingBursts.resolvedAt) : isNotNull(ratingBursts.resolvedAt), after))
    .orderBy(open ? asc(at) : desc(at), open ? asc(ratingBursts.id) : desc(ratingBursts.id))
    .limit(limit + 1)
    .all();

  // One query per kind of rating for every shown burst's ratings, each on its *_held_idx.
  const shown = rows.slice(0, limit);
  const ratersOf = new Map<string, RatingBurst['raters']>();
  const ids = (of: (r: (typeof shown)[number]) => boolean) => shown.filter(of).map((r) => r.id);
  const sources = [
    { table: businessRatings, at: businessRatings.updatedAt, ids: ids((r) => r.commentId === null && r.replyId === null) },
    { table: commentRatings, at: commentRatings.createdAt, ids: ids((r) => r.commentId !== null) },
    { table: replyRatings, at: replyRatings.createdAt, ids: ids((r) => r.replyId !== null) },
  ];
  for (const { table, at: ratedAt, ids: burstIds } of sources) {
    if (burstIds.length === 0) continue;
    const raters = db
      .select({
        burstId: table.heldBy,
        userId: table.userId,
        rate: table.rate,
        at: ratedAt,
        firstName: users.firstName,
        lastName: users.lastName,
        joined: users.createdAt,
      })
      .from(table)
      .innerJoin(users, eq(users.id, table.userId))
      .where(inArray(table.heldBy, burstIds))
      .orderBy(asc(ratedAt))
      .all();
    for (const r of raters) {
      const list = ratersOf.get(r.burstId ?? '') ?? [];
      list.push({
        userId: r.userId,
        firstName: r.firstName,
        lastName: r.lastName,
        joined: new Date(r.joined).toISOString(),
        rate: r.rate,
        date: new Date(r.at).toISOString(),
      });
      ratersOf.set(r.burstId ?? '', list);
    }
  }
  return pageOf(
    rows,
    limit,
    (r) => [open ? r.detectedAt : (r.resolvedAt as number), r.id],
    (r) => ({
      _id: r.id,
      businessId: r.businessId,
      businessTitle: r.businessTitle ?? '',
      target: r.commentId !== null ? ('comment' as const) : r.replyId !== null ? ('reply' as const) : ('business' as const),
      commentId: r.threadId,
      replyId: r.replyId,
      excerpt: excerptOf(r.postText ?? ''),
      ratings: r.ratings,
      firstAt: new Date(r.firstAt).toISOString(),
      detectedAt: new Date(r.detectedAt).toISOString(),
      lastAt: new Date(r.lastAt).toISOString(),
      status: r.resolvedAt === null ? ('open' as const) : ('resolved' as const),
      resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt).toISOString(),
      resolution: (r.resolution as BurstResolution | null) ?? null,
      raters: ratersOf.get(r.id) ?? [],
    }),
  );
}

/** How many of a business's ratings an open burst holds: the business page's "n ratings awaiting review". */
export function heldRatingCount(db: Db, businessId: string): number {
  const q = prepared(db);
  const open = q.open.get({ businessId });
  return open ? (q.heldCount.get({ burstId: open.id })?.n ?? 0) : 0;
}

/**
 * A moderator decides a rating burst: `accept` puts its held ratings into the public figures
 * (those of raters since banned stay out), `reject` keeps them out for good (their raters still
 * see their own stars or emoji). It leaves the open queue; the log records it, against the
 * business for star ratings and against the post for emoji ratings.
 */
export async function resolveRatingBurst(deps: Deps, actor: Actor, input: BurstResolveInput, now = Date.now()): Promise<{ action: BurstResolution }> {
  const moderator = requireModerator(actor);
  await deps.limits.consume('edit', moderator.id);
  const { db } = deps;
  db.transaction((tx) => {
    const burst = tx
      .select({
        id: ratingBursts.id,
        businessId: ratingBursts.businessId,
        commentId: ratingBursts.commentId,
        replyId: ratingBursts.replyId,
        title: businesses.title,
        postText: sql<string | null>`coalesce(${comments.text}, ${replies.text})`,
      })
      .from(ratingBursts)
      .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
      .leftJoin(comments, eq(comments.id, ratingBursts.commentId))
      .leftJoin(replies, eq(replies.id, ratingBursts.replyId))
      .where(and(eq(ratingBursts.id, input.id), isNull(ratingBursts.resolvedAt)))
      .get();
    if (!burst) throw new AppError('NOT_FOUND', 'ratingBurstNotFound');
    tx.update(ratingBursts).set({ resolvedAt: now, resolvedBy: moderator.id, resolution: input.action }).where(eq(ratingBursts.id, burst.id)).run();
    const post =
      burst.commentId !== null
        ? { kind: 'comment' as const, id: burst.commentId }
        : burst.replyId !== null
          ? { kind: 'reply' as const, id: burst.replyId }
          : null;
    if (input.action === 'accept') {
      if (post) releaseHeldEmojiRatings(db, post.kind, post.id, burst.id);
      else releaseHeldRatings(db, burst.id);
    }
    recordModAction(tx, moderator, {
      action: input.action === 'accept' ? 'acceptBurst' : 'rejectBurst',
      targetKind: post ? post.kind : 'business',
      targetId: post ? post.id : burst.businessId,
      excerpt: post ? (burst.postText ?? '') : (burst.title ?? ''),
      reason: null,
    });
  });
  return { action: input.action };
}

/** A post's emoji-rating table, as the burst check reads it. */
type EmojiKind = {
  posts: typeof comments | typeof replies;
  ratings: typeof commentRatings | typeof replyRatings;
  postId: typeof commentRatings.commentId | typeof replyRatings.replyId;
  burstPost: typeof ratingBursts.commentId | typeof ratingBursts.replyId;
};

const emojiKinds = {
  comment: { posts: comments, ratings: commentRatings, postId: commentRatings.commentId, burstPost: ratingBursts.commentId },
  reply: { posts: replies, ratings: replyRatings, postId: replyRatings.replyId, burstPost: ratingBursts.replyId },
} satisfies Record<'comment' | 'reply', EmojiKind>;

const postP = sql.placeholder('postId');

/**
 * The statements of the emoji-rating burst check of one post kind, run only for a rating by an
 * account younger than RATING_BURST_ACCOUNT_AGE (an established rater's costs nothing here).
 * Exported so the query-plan test checks exactly these.
 */
export const emojiBurstQueries = (kind: EmojiKind) => (db: Db) => {
  const { ratings, postId, burstPost } = kind;
  // *_ratings_newest_idx (post, created_at, …) finds the window's ratings; each rater is one primary-key lookup.
  const youngInWindow = and(eq(postId, postP), gt(ratings.createdAt, p.since), gt(users.createdAt, p.bornAfter));
  return {
    lastResolved: db
      .select({ at: max(ratingBursts.resolvedAt) })
      .from(ratingBursts)
      .where(eq(burstPost, postP)),
    open: db
      .select({ id: ratingBursts.id, firstAt: ratingBursts.firstAt })
      .from(ratingBursts)
      .where(and(eq(burstPost, postP), isNull(ratingBursts.resolvedAt))),
    young: db
      .select({ n: count(), first: min(ratings.createdAt) })
      .from(ratings)
      .innerJoin(users, eq(users.id, ratings.userId))
      .where(youngInWindow),
    toHold: db
      .select({ userId: ratings.userId, rate: ratings.rate, counted: ratings.counted })
      .from(ratings)
      .innerJoin(users, eq(users.id, ratings.userId))
      .where(and(youngInWindow, isNull(ratings.heldBy))),
    hold: db
      .update(ratings)
      .set({ heldBy: sql`${sql.placeholder('burstId')}`, counted: false })
      .where(and(eq(postId, postP), eq(ratings.userId, p.userId))),
    heldCount: db
      .select({ n: count() })
      .from(ratings)
      .where(eq(ratings.heldBy, sql.placeholder('burstId'))),
  };
};
const preparedEmoji = {
  comment: preparedStatements(emojiBurstQueries(emojiKinds.comment)),
  reply: preparedStatements(emojiBurstQueries(emojiKinds.reply)),
};

/**
 * When `actor`'s account was created: from the session (Actor.joinedAt) without a query, else
 * (actors built outside a request) one primary-key lookup.
 */
export function joinedAtOf(deps: Deps, actor: NonNullable<Actor>): number {
  return actor.joinedAt ?? prepared(deps.db).joined.get({ userId: actor.id })?.createdAt ?? 0;
}

/** Whether a rating by `actor` is one the burst checks look at: the spam rules on and the account young. */
export const isYoungRater = (deps: Deps, actor: NonNullable<Actor>, now: number): boolean =>
  !!deps.env.SPAM_RULES && joinedAtOf(deps, actor) > now - deps.env.RATING_BURST_ACCOUNT_AGE;

/**
 * After a young account's emoji rating of a comment or reply (docs/product.md §11.1), the same
 * rule as noteRatingBurst for stars: when accounts younger than RATING_BURST_ACCOUNT_AGE have
 * rated the post RATING_BURST_RATINGS times within RATING_BURST_WINDOW, the queue gets a burst for
 * the post and all of those ratings leave its rating columns (average, count, per-emoji counts,
 * and with them the feed's and the business page's orders and the author's reactions received)
 * until a moderator accepts or rejects it; every young account's rating of the post joins an open
 * burst. Runs in the rating's transaction after the rating is written; takes the post's tally as
 * the caller computed it and returns it without the ratings it holds, for the caller to save.
 */
export function noteEmojiBurst(
  deps: Deps,
  kind: 'comment' | 'reply',
  post: { id: string; businessId: string },
  tally: RatingTally,
  now = Date.now(),
): RatingTally {
  const { env, db } = deps;
  const q = preparedEmoji[kind](db);
  const postId = post.id;
  const bornAfter = now - env.RATING_BURST_ACCOUNT_AGE;
  let kept = tally;
  workBurst(env, now, {
    lastResolved: () => q.lastResolved.get({ postId })?.at,
    open: () => q.open.get({ postId }),
    young: (since) => q.young.get({ postId, since, bornAfter }),
    start: (id, young) =>
      db
        .insert(ratingBursts)
        .values({
          id,
          businessId: post.businessId,
          commentId: kind === 'comment' ? postId : null,
          replyId: kind === 'reply' ? postId : null,
          ratings: young.n,
          firstAt: young.first ?? now,
          detectedAt: now,
          lastAt: now,
        })
        .run(),
    toHold: (since) => q.toHold.all({ postId, since, bornAfter }),
    hold: (burstId, r) => {
      q.hold.run({ postId, userId: r.userId, burstId });
      if (r.counted) kept = applyRate(kept, r.rate, null);
    },
    heldCount: (burstId) => q.heldCount.get({ burstId })?.n ?? 0,
    save: (burstId, held) => db.update(ratingBursts).set({ ratings: held, lastAt: now }).where(eq(ratingBursts.id, burstId)).run(),
  });
  return kept;
}
