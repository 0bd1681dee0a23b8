import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, comments, images, replies, reports, users } from '../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { uploadUrl } from '../lib/urls';
import type {
  ReportGroup,
  ReportInput,
  ReportKind,
  ReportReason,
  ReportResult,
  ReportStatus,
  ResolveAction,
  ResolveInput,
} from '../schemas/moderation';
import { requireActiveFor, requireAdmin, type Actor } from './actor';
import { dropFromSearch, queueForSearch } from './comment-search';
import { destroyComment, findComment } from './comments';
import { releaseImage } from './images';
import { recordModAction } from './mod-log';
import { consumeLimit } from './rate-limits';
import { destroyReply } from './replies';
import type { DbOrTx } from './users';

/** Open reports the queue reads at most; groups beyond this wait for the next look. */
const QUEUE_REPORTS_MAX = 2000;
/** Item groups the queue shows at most. */
export const QUEUE_GROUPS_MAX = 100;

/** A reported comment or reply, as the rules need it. */
type Item = {
  kind: ReportKind;
  id: string;
  userId: string;
  commentId: string;
  businessId: string;
  text: string;
  imageId: string | null;
  hiddenAt: number | null;
  /** A moderator's placeholder: nothing left to report. */
  removed: boolean;
};

function findItem(db: DbOrTx, kind: ReportKind, id: string): Item {
  if (kind === 'comment') {
    const row = db
      .select({ id: comments.id, userId: comments.userId, businessId: comments.businessId, text: comments.text, imageId: comments.imageId, hiddenAt: comments.hiddenAt, removedAt: comments.removedAt })
      .from(comments)
      .where(eq(comments.id, id))
      .get();
    if (!row) throw new AppError('NOT_FOUND', 'commentNotFound');
    const { removedAt, ...item } = row;
    return { kind, commentId: row.id, removed: removedAt !== null, ...item };
  }
  const row = db
    .select({
      id: replies.id,
      userId: replies.userId,
      commentId: replies.commentId,
      businessId: replies.businessId,
      text: replies.text,
      imageId: replies.imageId,
      hiddenAt: replies.hiddenAt,
    })
    .from(replies)
    .where(eq(replies.id, id))
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'replyNotFound');
  return { kind, removed: false, ...row };
}

const itemColumn = (kind: ReportKind) => (kind === 'comment' ? reports.commentId : reports.replyId);
/** The item's open reports; `resolved_at is null` lets SQLite use the partial unique index. */
const openReportsOf = (item: { kind: ReportKind; id: string }) => and(eq(itemColumn(item.kind), item.id), isNull(reports.resolvedAt));

/**
 * Hides an item from every public list, search and count (PRODUCT.md 11): the flag and the count
 * it leaves (the business's comment_count, or the comment's reply_count) move together.
 */
function hide(tx: DbOrTx, item: Item, now: number): void {
  if (item.kind === 'comment') {
    const changed = tx.update(comments).set({ hiddenAt: now }).where(and(eq(comments.id, item.id), isNull(comments.hiddenAt))).returning({ id: comments.id }).all();
    if (changed.length === 0) return;
    tx.update(businesses)
      .set({ commentCount: sql`max(${businesses.commentCount} - 1, 0)` })
      .where(eq(businesses.id, item.businessId))
      .run();
    dropFromSearch(tx, item.id);
    return;
  }
  const changed = tx.update(replies).set({ hiddenAt: now }).where(and(eq(replies.id, item.id), isNull(replies.hiddenAt))).returning({ id: replies.id }).all();
  if (changed.length === 0) return;
  tx.update(comments)
    .set({ replyCount: sql`max(${comments.replyCount} - 1, 0)` })
    .where(eq(comments.id, item.commentId))
    .run();
}

/** Shows a hidden item again and gives back the count it left. */
function restore(tx: DbOrTx, item: Item): void {
  if (item.kind === 'comment') {
    const changed = tx.update(comments).set({ hiddenAt: null }).where(and(eq(comments.id, item.id), isNotNull(comments.hiddenAt))).returning({ id: comments.id }).all();
    if (changed.length === 0) return;
    tx.update(businesses)
      .set({ commentCount: sql`${businesses.commentCount} + 1` })
      .where(eq(businesses.id, item.businessId))
      .run();
    queueForSearch(tx, item.id);
    return;
  }
  const changed = tx.update(replies).set({ hiddenAt: null }).where(and(eq(replies.id, item.id), isNotNull(replies.hiddenAt))).returning({ id: replies.id }).all();
  if (changed.length === 0) return;
  tx.update(comments)
    .set({ replyCount: sql`${comments.replyCount} + 1` })
    .where(eq(comments.id, item.commentId))
    .run();
}

/**
 * A signed-in, active user reports someone else's comment or reply. One open report per user
 * and item: a repeat changes nothing and says so. When REPORT_HIDE_THRESHOLD distinct users have
 * open reports, the item is hidden in the same transaction.
 */
export async function reportPost(deps: Deps, actor: Actor, kind: ReportKind, input: ReportInput): Promise<ReportResult> {
  const reporter = requireActiveFor(actor, 'reportLoginRequired');
  await consumeLimit('report', reporter.id);
  const { db, env } = deps;
  return db.transaction((tx) => {
    const item = findItem(tx, kind, input.id);
    if (item.removed) throw new AppError('NOT_FOUND', 'commentNotFound');
    if (item.userId === reporter.id) throw new AppError('FORBIDDEN', 'reportOwnPost');
    const open = openReportsOf(item);
    const already = tx.select({ id: reports.id }).from(reports).where(and(open, eq(reports.reporterId, reporter.id))).get();
    if (already) return { result: 'existing' as const, hidden: item.hiddenAt !== null };
    const now = Date.now();
    tx.insert(reports)
      .values({
        id: newId(),
        commentId: kind === 'comment' ? item.id : null,
        replyId: kind === 'reply' ? item.id : null,
        reporterId: reporter.id,
        reason: input.reason,
        note: input.note ?? null,
        createdAt: now,
      })
      .run();
    const reporters = tx.select({ n: count() }).from(reports).where(open).get()?.n ?? 0;
    if (item.hiddenAt === null && reporters >= env.REPORT_HIDE_THRESHOLD) hide(tx, item, now);
    return { result: 'created' as const, hidden: item.hiddenAt !== null || reporters >= env.REPORT_HIDE_THRESHOLD };
  });
}

/** The reported item an id names: a comment or a reply with open reports. */
function openItem(db: DbOrTx, id: string): Item {
  for (const kind of ['comment', 'reply'] as const) {
    if (db.select({ id: reports.id }).from(reports).where(openReportsOf({ kind, id })).get()) return findItem(db, kind, id);
  }
  throw new AppError('NOT_FOUND', 'reportNotFound');
}

function closeReports(tx: DbOrTx, item: Item, action: ResolveAction, moderatorId: string, now: number): ReportReason[] {
  const closed = tx
    .update(reports)
    .set({ resolvedAt: now, resolution: action, resolvedBy: moderatorId })
    .where(openReportsOf(item))
    .returning({ reason: reports.reason })
    .all();
  return [...new Set(closed.map((r) => r.reason as ReportReason))];
}

/**
 * An admin decides an item's open reports. `dismiss` closes them and shows the item again;
 * `remove` deletes it (a comment with replies stays as a placeholder without text or picture,
 * so the thread keeps its context). Either way the moderation log records it with an excerpt.
 */
export async function resolveReports(deps: Deps, actor: Actor, input: ResolveInput): Promise<{ action: ResolveAction }> {
  const admin = requireAdmin(actor);
  await consumeLimit(input.action === 'remove' ? 'delete' : 'edit', admin.id);
  const { db } = deps;
  const item = openItem(db, input.id);
  const log = (tx: DbOrTx, reasons: ReportReason[]) =>
    recordModAction(tx, admin, { action: input.action, targetKind: item.kind, targetId: item.id, excerpt: item.text, reason: input.note ?? reasons.join(', ') });
  const now = Date.now();

  if (input.action === 'dismiss') {
    db.transaction((tx) => {
      const reasons = closeReports(tx, item, 'dismiss', admin.id, now);
      if (reasons.length === 0) throw new AppError('NOT_FOUND', 'reportNotFound');
      restore(tx, item);
      log(tx, reasons);
    });
    return { action: 'dismiss' };
  }

  const gone = (tx: DbOrTx) => {
    const reasons = closeReports(tx, item, 'remove', admin.id, now);
    if (reasons.length === 0) throw new AppError('NOT_FOUND', 'reportNotFound');
    log(tx, reasons);
  };
  if (item.kind === 'reply') {
    await destroyReply(deps, item.id, gone);
    return { action: 'remove' };
  }
  const hasReplies = db.select({ id: replies.id }).from(replies).where(eq(replies.commentId, item.id)).limit(1).get();
  if (!hasReplies) {
    await destroyComment(deps, findComment(db, item.id), gone);
    return { action: 'remove' };
  }
  // The thread stays: the comment becomes a placeholder, public again, out of the search index.
  db.transaction((tx) => {
    gone(tx);
    restore(tx, item);
    tx.update(comments).set({ text: '', imageId: null, removedAt: now }).where(eq(comments.id, item.id)).run();
    dropFromSearch(tx, item.id);
  });
  await releaseImage(deps, item.imageId);
  return { action: 'remove' };
}

const author = alias(users, 'author');
const reporter = alias(users, 'reporter');
const photo = alias(images, 'photo');

/**
 * The moderation queue (admins): reports grouped by item, with the item, its author (account
 * age and post count) and every reason, note and reporter. Open: most reported, then oldest
 * first. Resolved: most recently decided first.
 */
export function listReports(deps: Deps, actor: Actor, input: { status: ReportStatus }): ReportGroup[] {
  requireAdmin(actor);
  const { db } = deps;
  const open = input.status === 'open';
  const rows = db
    .select({
      commentId: reports.commentId,
      replyId: reports.replyId,
      reason: reports.reason,
      note: reports.note,
      reporterId: reports.reporterId,
      createdAt: reports.createdAt,
      resolvedAt: reports.resolvedAt,
      resolution: reports.resolution,
      firstName: reporter.firstName,
      lastName: reporter.lastName,
    })
    .from(reports)
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .where(open ? isNull(reports.resolvedAt) : isNotNull(reports.resolvedAt))
    .orderBy(open ? asc(reports.createdAt) : desc(reports.resolvedAt))
    .limit(QUEUE_REPORTS_MAX)
    .all();

  const groups = new Map<string, { kind: ReportKind; id: string; rows: typeof rows }>();
  for (const r of rows) {
    const kind: ReportKind = r.commentId ? 'comment' : 'reply';
    const id = (r.commentId ?? r.replyId)!;
    // A resolved item may have been reported again and resolved again: one group per decision.
    const key = open ? `${kind}:${id}` : `${kind}:${id}:${r.resolvedAt}`;
    const group = groups.get(key) ?? { kind, id, rows: [] };
    group.rows.push(r);
    groups.set(key, group);
  }
  const ids = (kind: ReportKind) => [...new Set([...groups.values()].filter((g) => g.kind === kind).map((g) => g.id))];
  const itemColumns = {
    businessTitle: businesses.title,
    photoFile: photo.fileName,
    authorFirstName: author.firstName,
    authorLastName: author.lastName,
    authorBanned: author.isBanned,
    authorJoined: author.createdAt,
  };
  const commentIds = ids('comment');
  const replyIds = ids('reply');
  const commentRows = commentIds.length
    ? db
        .select({ id: comments.id, commentId: comments.id, userId: comments.userId, businessId: comments.businessId, text: comments.text, createdAt: comments.createdAt, hiddenAt: comments.hiddenAt, removedAt: comments.removedAt, ...itemColumns })
        .from(comments)
        .leftJoin(businesses, eq(businesses.id, comments.businessId))
        .leftJoin(photo, eq(photo.id, comments.imageId))
        .leftJoin(author, eq(author.id, comments.userId))
        .where(inArray(comments.id, commentIds))
        .all()
    : [];
  const replyRows = replyIds.length
    ? db
        .select({ id: replies.id, commentId: replies.commentId, userId: replies.userId, businessId: replies.businessId, text: replies.text, createdAt: replies.createdAt, hiddenAt: replies.hiddenAt, removedAt: sql<number | null>`null`, ...itemColumns })
        .from(replies)
        .leftJoin(businesses, eq(businesses.id, replies.businessId))
        .leftJoin(photo, eq(photo.id, replies.imageId))
        .leftJoin(author, eq(author.id, replies.userId))
        .where(inArray(replies.id, replyIds))
        .all()
    : [];
  const items = new Map([...commentRows.map((r) => [`comment:${r.id}`, r] as const), ...replyRows.map((r) => [`reply:${r.id}`, r] as const)]);
  const postsOf = postCounts(deps, [...new Set([...commentRows, ...replyRows].map((r) => r.userId))]);

  const result: ReportGroup[] = [];
  for (const g of groups.values()) {
    const item = items.get(`${g.kind}:${g.id}`);
    if (!item) continue;
    const first = Math.min(...g.rows.map((r) => r.createdAt));
    result.push({
      _id: g.id,
      kind: g.kind,
      commentId: item.commentId,
      text: item.text,
      image: uploadUrl(item.photoFile),
      businessId: item.businessId,
      businessTitle: item.businessTitle ?? '',
      hidden: item.hiddenAt !== null,
      removed: item.removedAt !== null,
      date: new Date(item.createdAt).toISOString(),
      author: {
        _id: item.userId,
        firstName: item.authorFirstName ?? '',
        lastName: item.authorLastName ?? '',
        isBanned: item.authorBanned ?? false,
        joined: new Date(item.authorJoined ?? item.createdAt).toISOString(),
        posts: postsOf.get(item.userId) ?? 0,
      },
      reportCount: g.rows.length,
      firstReported: new Date(first).toISOString(),
      status: input.status,
      resolution: (g.rows[0].resolution as ResolveAction | null) ?? null,
      reports: g.rows.map((r) => ({
        reason: r.reason as ReportReason,
        note: r.note,
        reporterId: r.reporterId,
        reporterName: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim(),
        date: new Date(r.createdAt).toISOString(),
      })),
    });
  }
  if (open) result.sort((a, b) => b.reportCount - a.reportCount || a.firstReported.localeCompare(b.firstReported));
  return result.slice(0, QUEUE_GROUPS_MAX);
}

/** Comments plus replies per author, each counted on its user index. */
function postCounts(deps: Deps, userIds: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const userId of userIds) {
    const c = deps.db.select({ n: count() }).from(comments).where(eq(comments.userId, userId)).get()?.n ?? 0;
    const r = deps.db.select({ n: count() }).from(replies).where(eq(replies.userId, userId)).get()?.n ?? 0;
    counts.set(userId, c + r);
  }
  return counts;
}
