import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, max, min, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { businessRatings, businesses, ratingBursts, users } from '../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { preparedStatements } from '../lib/prepared';
import type { Page } from '../schemas/comments';
import type { RatingBurst, ReportsPageInput } from '../schemas/moderation';
import { requireAdmin, type Actor } from './actor';
import { decodeCursor, pageOf } from './comment-pages';
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
    .select({ id: ratingBursts.id })
    .from(ratingBursts)
    .where(and(eq(ratingBursts.businessId, p.businessId), isNull(ratingBursts.resolvedAt))),
});
const prepared = preparedStatements(ratingBurstQueries);

/**
 * After a star rating (PRODUCT.md 11): when accounts younger than RATING_BURST_ACCOUNT_AGE have
 * rated the business RATING_BURST_RATINGS times within RATING_BURST_WINDOW, the moderation queue
 * gets a "rating burst" entry for it. One open entry per business: later ratings of the same burst
 * update it. After an admin dismisses it, only ratings made after the dismissal count towards the
 * next one. Runs in the rating's transaction; SPAM_RULES=0 turns it off.
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
  const young = q.young.get({ businessId, since, bornAfter });
  if (!young || young.n < env.RATING_BURST_RATINGS) return;
  const open = q.open.get({ businessId });
  if (open) {
    tx.update(ratingBursts).set({ ratings: young.n, lastAt: now }).where(eq(ratingBursts.id, open.id)).run();
    return;
  }
  tx.insert(ratingBursts)
    .values({ id: newId(), businessId, ratings: young.n, firstAt: young.first ?? now, detectedAt: now, lastAt: now })
    .run();
}

/**
 * The queue's rating bursts (admins). Open: oldest first, for the order they came in. Resolved:
 * most recently dismissed first. Each lists the young accounts' ratings inside its window.
 */
export function listRatingBursts(deps: Deps, actor: Actor, input: ReportsPageInput): Page<RatingBurst> {
  requireAdmin(actor);
  const { db, env } = deps;
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
    })
    .from(ratingBursts)
    .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
    // rating_bursts_queue_idx (resolved_at, detected_at) serves both orders.
    .where(and(open ? isNull(ratingBursts.resolvedAt) : isNotNull(ratingBursts.resolvedAt), after))
    .orderBy(open ? asc(at) : desc(at), open ? asc(ratingBursts.id) : desc(ratingBursts.id))
    .limit(limit + 1)
    .all();

  // One query for every shown burst's ratings: the window of the earliest to the latest.
  const shown = rows.slice(0, limit);
  const ratersOf = new Map<string, RatingBurst['raters']>();
  if (shown.length > 0) {
    const from = Math.min(...shown.map((r) => r.firstAt));
    const to = Math.max(...shown.map((r) => r.lastAt));
    const raters = db
      .select({
        businessId: businessRatings.businessId,
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
        and(
          inArray(businessRatings.businessId, [...new Set(shown.map((r) => r.businessId))]),
          gte(businessRatings.updatedAt, from),
          sql`${businessRatings.updatedAt} <= ${to}`,
        ),
      )
      .orderBy(asc(businessRatings.updatedAt))
      .all();
    for (const burst of shown) {
      ratersOf.set(
        burst.id,
        raters
          .filter((r) => r.businessId === burst.businessId && r.at >= burst.firstAt && r.at <= burst.lastAt && r.at - r.joined < env.RATING_BURST_ACCOUNT_AGE)
          .map((r) => ({
            userId: r.userId,
            firstName: r.firstName,
            lastName: r.lastName,
            joined: new Date(r.joined).toISOString(),
            rate: r.rate,
            date: new Date(r.at).toISOString(),
          })),
      );
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
      raters: ratersOf.get(r.id) ?? [],
    }),
  );
}

/** An admin has looked at a rating burst: it leaves the open queue; the log records it. */
export async function dismissRatingBurst(deps: Deps, actor: Actor, input: { id: string }, now = Date.now()): Promise<{ action: 'dismiss' }> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  deps.db.transaction((tx) => {
    const burst = tx
      .select({ id: ratingBursts.id, businessId: ratingBursts.businessId, ratings: ratingBursts.ratings, title: businesses.title })
      .from(ratingBursts)
      .leftJoin(businesses, eq(businesses.id, ratingBursts.businessId))
      .where(and(eq(ratingBursts.id, input.id), isNull(ratingBursts.resolvedAt)))
      .get();
    if (!burst) throw new AppError('NOT_FOUND', 'ratingBurstNotFound');
    tx.update(ratingBursts).set({ resolvedAt: now, resolvedBy: admin.id }).where(eq(ratingBursts.id, burst.id)).run();
    recordModAction(tx, admin, { action: 'dismissBurst', targetKind: 'business', targetId: burst.businessId, excerpt: burst.title ?? '', reason: null });
  });
  return { action: 'dismiss' };
}
