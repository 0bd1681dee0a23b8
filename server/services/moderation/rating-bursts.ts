import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, max, min, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { businessRatings, businesses, ratingBursts, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { preparedStatements } from '../../lib/prepared';
import type { Page } from '../../../shared/schemas/comments';
import type { BurstResolution, BurstResolveInput, RatingBurst, ReportsPageInput } from '../../../shared/schemas/moderation';
import { requireModerator, type Actor } from '../actor';
import { moveRatingTally, setAuthorStars, releaseHeldRatings } from '../comments/rating-tally';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { recordModAction } from './mod-log';

/** Entries a page of the queue's rating bursts shows unless asked for fewer. */
export const BURSTS_PAGE = 20;

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
    .where(eq(ratingBursts.businessId, p.businessId)),
  // business_ratings_recent_idx finds the window's ratings; each rater is one primary-key lookup.
  young: db
    .select({ n: count(), first: min(businessRatings.updatedAt) })
    .from(businessRatings)
    .innerJoin(users, eq(users.id, businessRatings.userId))
    .where(and(eq(businessRatings.businessId, p.businessId), gt(businessRatings.updatedAt, p.since), gt(users.createdAt, p.bornAfter))),
  open: db
    .select({ id: ratingBursts.id, firstAt: ratingBursts.firstAt })
    .from(ratingBursts)
    .where(and(eq(ratingBursts.businessId, p.businessId), isNull(ratingBursts.resolvedAt))),
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
  const dismissed = q.lastResolved.get({ businessId })?.at ?? 0;
  const since = Math.max(now - env.RATING_BURST_WINDOW, dismissed);
  const open = q.open.get({ businessId });
  let burstId = open?.id;
  if (!burstId) {
    const young = q.young.get({ businessId, since, bornAfter });
    if (!young || young.n < env.RATING_BURST_RATINGS) return;
    burstId = newId();
    tx.insert(ratingBursts)
      .values({ id: burstId, businessId, ratings: young.n, firstAt: young.first ?? now, detectedAt: now, lastAt: now })
      .run();
  }
  // An open burst holds every young rating since it began too, not only the window's.
  const from = open ? Math.min(since, open.firstAt - 1) : since;
  for (const r of q.toHold.all({ businessId, since: from, bornAfter })) {
    q.hold.run({ businessId, userId: r.userId, burstId });
    if (r.counted) {
      moveRatingTally(deps.db, businessId, r.rate, false);
      setAuthorStars(tx, businessId, r.userId, null);
    }
  }
  const held = q.heldCount.get({ burstId })?.n ?? 0;
  tx.update(ratingBursts).set({ ratings: held, lastAt: now }).where(eq(ratingBursts.id, burstId)).run();
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
      ratings: ratingBursts.ratings,
      firstAt: ratingBursts.firstAt,
      detectedAt: ratingBursts.detectedAt,
      lastAt: ratingBursts.lastAt,
      resolvedAt: ratingBursts.resolvedAt,
      resolution: ratingBursts.resolution,
    })
    .from(ratingBursts)
    .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
    // rating_bursts_queue_idx (resolved_at, detected_at) serves both orders.
    .where(and(open ? isNull(ratingBursts.resolvedAt) : isNotNull(ratingBursts.resolvedAt), after))
    .orderBy(open ? asc(at) : desc(at), open ? asc(ratingBursts.id) : desc(ratingBursts.id))
    .limit(limit + 1)
    .all();

  // One query for every shown burst's ratings, on business_ratings_held_idx.
  const shown = rows.slice(0, limit);
  const ratersOf = new Map<string, RatingBurst['raters']>();
  if (shown.length > 0) {
    const raters = db
      .select({
        burstId: businessRatings.heldBy,
        userId: businessRatings.userId,
        rate: businessRatings.rate,
        at: businessRatings.updatedAt,
        firstName: users.firstName,
        lastName: users.lastName,
        joined: users.createdAt,
      })
      .from(businessRatings)
      .innerJoin(users, eq(users.id, businessRatings.userId))
      .where(
        inArray(
          businessRatings.heldBy,
          shown.map((r) => r.id),
        ),
      )
      .orderBy(asc(businessRatings.updatedAt))
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
 * see their own stars). It leaves the open queue; the log records it.
 */
export async function resolveRatingBurst(deps: Deps, actor: Actor, input: BurstResolveInput, now = Date.now()): Promise<{ action: BurstResolution }> {
  const moderator = requireModerator(actor);
  await deps.limits.consume('edit', moderator.id);
  const { db } = deps;
  db.transaction((tx) => {
    const burst = tx
      .select({ id: ratingBursts.id, businessId: ratingBursts.businessId, ratings: ratingBursts.ratings, title: businesses.title })
      .from(ratingBursts)
      .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
      .where(and(eq(ratingBursts.id, input.id), isNull(ratingBursts.resolvedAt)))
      .get();
    if (!burst) throw new AppError('NOT_FOUND', 'ratingBurstNotFound');
    tx.update(ratingBursts).set({ resolvedAt: now, resolvedBy: moderator.id, resolution: input.action }).where(eq(ratingBursts.id, burst.id)).run();
    if (input.action === 'accept') releaseHeldRatings(db, burst.id);
    recordModAction(tx, moderator, {
      action: input.action === 'accept' ? 'acceptBurst' : 'rejectBurst',
      targetKind: 'business',
      targetId: burst.businessId,
      excerpt: burst.title ?? '',
      reason: null,
    });
  });
  return { action: input.action };
}
