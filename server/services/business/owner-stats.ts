import { and, count, desc, eq, gte, isNull } from 'drizzle-orm';
import { businesses, comments, ownerReplies } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { STATS_MONTHS, UNANSWERED_SHOWN, type MonthFigures, type OwnerStats } from '../../../shared/schemas/owners';
import { requireActive, type Actor } from '../actor';
import { businessCards, cardOf, rowid, viewerOf } from '../comments/comment-cards';
import { requireBusiness } from '../comments/comments';
import { isOwner } from './owners';
import { shownRate } from './business-ratings';
import { stockholmClock } from '../../../shared/schemas/opening-hours-status';

/** 'YYYY-MM' of an instant, in Swedish time (the site's one clock, as the open-now status reads it). */
const monthOf = (t: number) => new Date(stockholmClock(new Date(t)).day).toISOString().slice(0, 7);

/** The last `n` months ('YYYY-MM'), oldest first, ending with the one `now` is in. */
export function lastMonths(now: number, n: number): string[] {
  const [y, m] = monthOf(now).split('-').map(Number);
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const total = y * 12 + (m - 1) - i;
    out.push(`${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/**
 * A business's numbers for its owners (and admins): the star figures and breakdown from the
 * business's kept columns, its public reviews and their authors' average stars per month over the
 * last STATS_MONTHS months (read on comments_business_idx from the window's start), how many it
 * answered, and the newest unanswered reviews to answer first.
 */
export function ownerStats(deps: Deps, actor: Actor, businessId: string, now = Date.now()): OwnerStats {
  const me = requireActive(actor);
  const { db } = deps;
  const head = requireBusiness(db, businessId);
  if (!me.isAdmin && !isOwner(db, me.id, businessId)) throw new AppError('FORBIDDEN', 'notOwner');
  const b = db
    .select({
      title: businesses.title,
      ratingCount: businesses.ratingCount,
      ratingSum: businesses.ratingSum,
      s1: businesses.stars1,
      s2: businesses.stars2,
      s3: businesses.stars3,
      s4: businesses.stars4,
      s5: businesses.stars5,
      reviews: businesses.commentCount,
    })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .get();
  if (!b) throw new AppError('NOT_FOUND', 'businessNotFound');
  const months = lastMonths(now, STATS_MONTHS);
  // A day before the first month's first day in UTC: Swedish midnight is earlier, and monthOf sorts out the edge.
  const since = Date.UTC(Number(months[0].slice(0, 4)), Number(months[0].slice(5, 7)) - 1, 1) - 24 * 60 * 60 * 1000;
  const rows = db
    .select({ createdAt: comments.createdAt, rate: comments.authorRate })
    .from(comments)
    .where(and(eq(comments.businessId, businessId), gte(comments.createdAt, since), isNull(comments.hiddenAt), isNull(comments.removedAt)))
    .all();
  const byMonth = new Map<string, { reviews: number; sum: number; rated: number }>(months.map((m) => [m, { reviews: 0, sum: 0, rated: 0 }]));
  for (const r of rows) {
    const f = byMonth.get(monthOf(r.createdAt));
    if (!f) continue;
    f.reviews += 1;
    if (r.rate !== null) {
      f.sum += r.rate;
      f.rated += 1;
    }
  }
  const figures: MonthFigures[] = months.map((month) => {
    const f = byMonth.get(month)!;
    return { month, reviews: f.reviews, average: f.rated > 0 ? f.sum / f.rated : null };
  });
  const answered = db.select({ n: count() }).from(ownerReplies).where(eq(ownerReplies.businessId, businessId)).get()?.n ?? 0;
  const viewer = viewerOf(actor);
  const unanswered = businessCards(db)
    .where(and(eq(comments.businessId, businessId), isNull(ownerReplies.commentId), isNull(comments.hiddenAt), isNull(comments.removedAt)))
    .orderBy(desc(comments.createdAt), desc(rowid))
    .limit(UNANSWERED_SHOWN)
    .all(viewer)
    .map((r) => cardOf(r, head));
  return {
    businessId,
    title: b.title,
    ratingCount: b.ratingCount,
    average: shownRate(b),
    breakdown: [b.s1, b.s2, b.s3, b.s4, b.s5],
    reviews: b.reviews,
    answered,
    months: figures,
    unanswered,
  };
}
