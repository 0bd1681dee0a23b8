import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../../../db/client';
import { businessRatings, businesses, commentRatings, comments, ratingBursts, replies, replyRatings } from '../../../db/schema';
import { applyRate } from './emoji-ratings';
import { preparedStatements } from '../../lib/prepared';

/**
 * A business's public star figures (rating_sum, rating_count, stars_1..5, and through them the
 * directory's Bayesian score) hold exactly the ratings with business_ratings.counted: neither held
 * by a rating burst nor given by a banned user (docs/product.md "Moderation and trust"). Every
 * move in or out goes through here, in the transaction that flips `counted`.
 */
const p = {
  businessId: sql.placeholder('businessId'),
  userId: sql.placeholder('userId'),
  sumDelta: sql.placeholder('sumDelta'),
  countDelta: sql.placeholder('countDelta'),
  /** The rating's counted stars before and after the change, 0 for none. */
  before: sql.placeholder('before'),
  after: sql.placeholder('after'),
  burstId: sql.placeholder('burstId'),
  counted: sql.placeholder('counted'),
  rate: sql.placeholder('rate'),
};

/** A star level's column moves by one when a rating enters or leaves that level. */
const level = (column: SQLiteColumn, stars: number) => sql`${column} + (${p.after} = ${stars}) - (${p.before} = ${stars})`;

/** Exported for the query-plan test. */
export const ratingTallyQueries = (db: Db) => ({
  tally: db
    .update(businesses)
    .set({
      ratingSum: sql`${businesses.ratingSum} + ${p.sumDelta}`,
      ratingCount: sql`${businesses.ratingCount} + ${p.countDelta}`,
      stars1: level(businesses.stars1, 1),
      stars2: level(businesses.stars2, 2),
      stars3: level(businesses.stars3, 3),
      stars4: level(businesses.stars4, 4),
      stars5: level(businesses.stars5, 5),
    })
    .where(eq(businesses.id, p.businessId))
    .returning({ ratingSum: businesses.ratingSum, ratingCount: businesses.ratingCount }),
  // A user's ratings on business_ratings_user_idx: the counted ones (a ban takes them out)…
  userCounted: db
    .select({ businessId: businessRatings.businessId, rate: businessRatings.rate })
    .from(businessRatings)
    .where(and(eq(businessRatings.userId, p.userId), eq(businessRatings.counted, true))),
  // … or the ones out that no open or rejected burst holds (an unban puts them back).
  userReturning: db
    .select({ businessId: businessRatings.businessId, rate: businessRatings.rate })
    .from(businessRatings)
    .where(
      and(
        eq(businessRatings.userId, p.userId),
        eq(businessRatings.counted, false),
        or(
          isNull(businessRatings.heldBy),
          inArray(businessRatings.heldBy, db.select({ id: ratingBursts.id }).from(ratingBursts).where(eq(ratingBursts.resolution, 'accept'))),
        ),
      ),
    ),
  // The author's stars shown on (and sorting) their comments on this business: their rating while
  // it counts, null while none does (docs/product.md "What is held out of the public numbers").
  // comments_user_idx finds the user's comments and, since migration 0040, carries business_id, so
  // the walk keeps only this business's entries without reading the others' rows (a rater with
  // 220 reviews: 26 against 157 µs). The `+` keeps SQLite from walking one of the business's
  // indexes instead (every comment of a popular business), which it picked on a database without
  // statistics for the newer indexes: business ratings fell to a third (comment-plans.test.ts).
  authorRate: db
    .update(comments)
    .set({ authorRate: sql`${p.rate}` })
    .where(and(eq(comments.userId, p.userId), sql`+${comments.businessId} = ${p.businessId}`)),
  setCounted: db
    .update(businessRatings)
    .set({ counted: sql`${p.counted}` })
    .where(and(eq(businessRatings.businessId, p.businessId), eq(businessRatings.userId, p.userId))),
  // An accepted burst's ratings whose raters are not banned, on business_ratings_held_idx.
  releasable: db
    .select({ businessId: businessRatings.businessId, userId: businessRatings.userId, rate: businessRatings.rate })
    .from(businessRatings)
    .where(
      and(
        eq(businessRatings.heldBy, p.burstId),
        eq(businessRatings.counted, false),
        sql`not (select is_banned from users where users.id = ${businessRatings.userId})`,
      ),
    ),
});

const prepared = preparedStatements(ratingTallyQueries);

/** Moves one rating into (`into`) or out of a business's kept figures. The caller flips `counted`. */
export function moveRatingTally(db: Db, businessId: string, rate: number, into: boolean): void {
  prepared(db).tally.get({
    businessId,
    sumDelta: into ? rate : -rate,
    countDelta: into ? 1 : -1,
    before: into ? 0 : rate,
    after: into ? rate : 0,
  });
}

/** The stars `userId`'s comments on the business show: `rate` while it counts, else null (held, banned, none). */
export function setAuthorStars(db: DbOrTx, businessId: string, userId: string, rate: number | null): void {
  prepared(db as Db).authorRate.run({ businessId, userId, rate });
}

/**
 * A ban takes every star rating of the user out of the figures (`counts` false); an unban puts
 * back those no open or rejected burst holds. In the caller's transaction; one short statement
 * per rating (a user rates each business once).
 */
export function setRatingsCounted(db: DbOrTx, userId: string, counts: boolean): void {
  const q = prepared(db as Db);
  const rows = counts ? q.userReturning.all({ userId }) : q.userCounted.all({ userId });
  for (const r of rows) {
    moveRatingTally(db as Db, r.businessId, r.rate, counts);
    q.setCounted.run({ businessId: r.businessId, userId, counted: counts ? 1 : 0 });
    setAuthorStars(db, r.businessId, userId, counts ? r.rate : null);
  }
}

/** An accepted burst: its held ratings enter the figures (a banned rater's stay out). */
export function releaseHeldRatings(db: Db, burstId: string): void {
  const q = prepared(db);
  for (const r of q.releasable.all({ burstId })) {
    moveRatingTally(db, r.businessId, r.rate, true);
    q.setCounted.run({ businessId: r.businessId, userId: r.userId, counted: 1 });
    setAuthorStars(db, r.businessId, r.userId, r.rate);
  }
}

/**
 * The same for a user's emoji ratings of comments and replies: a ban takes each out of its post's
 * rating columns (count, average, per-emoji counts), an unban puts back those no open or rejected
 * burst holds. A banned user cannot rate, so their rows do not change in between. In the caller's
 * transaction.
 */
export function setEmojiRatingsCounted(db: DbOrTx, userId: string, counts: boolean): void {
  for (const kind of emojiKinds) {
    const { ratings, postId } = kind;
    // The user's rows on *_ratings_user_idx: those whose state differs from the wanted one; an
    // unban leaves out those an open or rejected burst holds (as for stars).
    const rows = db
      .select({ postId, rate: ratings.rate })
      .from(ratings)
      .where(
        and(
          eq(ratings.userId, userId),
          ne(ratings.counted, counts),
          counts
            ? or(
                isNull(ratings.heldBy),
                inArray(ratings.heldBy, db.select({ id: ratingBursts.id }).from(ratingBursts).where(eq(ratingBursts.resolution, 'accept'))),
              )
            : undefined,
        ),
      )
      .all();
    for (const r of rows) moveEmojiRating(db, kind, r.postId, userId, r.rate, counts);
  }
}

const emojiKinds = [
  { ratings: commentRatings, posts: comments, postId: commentRatings.commentId },
  { ratings: replyRatings, posts: replies, postId: replyRatings.replyId },
] as const;
type EmojiKind = (typeof emojiKinds)[number];

/** One emoji rating into (`into`) or out of its post's rating columns, flipping its `counted`. */
function moveEmojiRating(db: DbOrTx, { ratings, posts, postId }: EmojiKind, id: string, userId: string, rate: number, into: boolean): void {
  const tally = db
    .select({
      ratingCount: posts.ratingCount,
      ratingAvg: posts.ratingAvg,
      rated1: posts.rated1,
      rated2: posts.rated2,
      rated3: posts.rated3,
      rated4: posts.rated4,
      rated5: posts.rated5,
    })
    .from(posts)
    .where(eq(posts.id, id))
    .get();
  if (!tally) return;
  db.update(posts)
    .set(applyRate(tally, into ? null : rate, into ? rate : null))
    .where(eq(posts.id, id))
    .run();
  db.update(ratings)
    .set({ counted: into })
    .where(and(eq(postId, id), eq(ratings.userId, userId)))
    .run();
}

/**
 * An accepted burst of emoji ratings of one post: its held ratings enter the post's rating
 * columns (a banned rater's stay out; an unban puts them back). Walks *_ratings_held_idx.
 */
export function releaseHeldEmojiRatings(db: DbOrTx, kind: 'comment' | 'reply', id: string, burstId: string): void {
  const k = emojiKinds[kind === 'comment' ? 0 : 1];
  const rows = db
    .select({ userId: k.ratings.userId, rate: k.ratings.rate })
    .from(k.ratings)
    .where(and(eq(k.ratings.heldBy, burstId), eq(k.ratings.counted, false), sql`not (select is_banned from users where users.id = ${k.ratings.userId})`))
    .all();
  for (const r of rows) moveEmojiRating(db, k, id, r.userId, r.rate, true);
}
