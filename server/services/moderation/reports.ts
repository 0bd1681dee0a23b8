import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, comments, images, ownerReplies, replies, reports, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { isOwner } from '../business/owners';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { uploadUrl } from '../../lib/urls';
import type { Page } from '../../../shared/schemas/comments';
import type {
  ReportGroup,
  ReportInput,
  ReportKind,
  ReportReason,
  ReportResult,
  RemoveAllInput,
  ReportsPageInput,
  ResolveAction,
  ResolveInput,
} from '../../../shared/schemas/moderation';
import { authorReasonOf, reportKinds } from '../../../shared/schemas/moderation';
import { requireActiveFor, requireModerator, type Actor } from '../actor';
import { decodeCursor, encodeCursor } from '../comments/comment-pages';
import { dropFromSearch, queueForSearch } from '../comments/comment-search';
import { releaseImage } from '../comments/images';
import { queueModDigests, recordAutoHide } from './mod-digest';
import { recordModAction } from './mod-log';
import type { DbOrTx } from '../../../db/client';
import { notifyModerated, notifyOwnerReplyModerated, notifyReporters } from '../notifications/notifications';

/** Open reports the queue reads at most; groups beyond this wait for the next look. */
const QUEUE_REPORTS_MAX = 2000;
/** Item groups a page of the queue shows unless asked for fewer. */
export const QUEUE_PAGE = 20;

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
  if (kind === 'ownerReply') {
    // A business's answer (issue 31.7): its id is its review's; its author is the owner who wrote it.
    const row = db
      .select({
        id: ownerReplies.commentId,
        userId: ownerReplies.userId,
        businessId: ownerReplies.businessId,
        text: ownerReplies.text,
        hiddenAt: ownerReplies.hiddenAt,
        removedAt: ownerReplies.removedAt,
      })
      .from(ownerReplies)
      .where(eq(ownerReplies.commentId, id))
      .get();
    if (!row) throw new AppError('NOT_FOUND', 'ownerReplyNotFound');
    const { removedAt, ...item } = row;
    return { kind, commentId: row.id, imageId: null, removed: removedAt !== null, ...item };
  }
  if (kind === 'comment') {
    const row = db
      .select({
        id: comments.id,
        userId: comments.userId,
        businessId: comments.businessId,
        text: comments.text,
        imageId: comments.imageId,
        hiddenAt: comments.hiddenAt,
        removedAt: comments.removedAt,
      })
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
      removedAt: replies.removedAt,
    })
    .from(replies)
    .where(eq(replies.id, id))
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'replyNotFound');
  const { removedAt, ...item } = row;
  return { kind, removed: removedAt !== null, ...item };
}

const itemColumn = (kind: ReportKind) => (kind === 'comment' ? reports.commentId : kind === 'reply' ? reports.replyId : reports.ownerReplyId);
/** The item's open reports; `resolved_at is null` lets SQLite use the partial unique index. */
const openReportsOf = (item: { kind: ReportKind; id: string }) => and(eq(itemColumn(item.kind), item.id), isNull(reports.resolvedAt));

/**
 * Hides an item from every public list, search and count (docs/product.md §11): the flag and the count
 * it leaves (the business's comment_count, or the comment's reply_count) move together.
 */
function hide(tx: DbOrTx, item: Item, now: number): void {
  if (item.kind === 'ownerReply') {
    // No count keeps answers: the flag is all (comment-cards.ts leaves a hidden answer out).
    tx.update(ownerReplies)
      .set({ hiddenAt: now })
      .where(and(eq(ownerReplies.commentId, item.id), isNull(ownerReplies.hiddenAt)))
      .run();
    return;
  }
  if (item.kind === 'comment') {
    const changed = tx
      .update(comments)
      .set({ hiddenAt: now })
      .where(and(eq(comments.id, item.id), isNull(comments.hiddenAt)))
      .returning({ id: comments.id })
      .all();
    if (changed.length === 0) return;
    tx.update(businesses)
      .set({ commentCount: sql`max(${businesses.commentCount} - 1, 0)` })
      .where(eq(businesses.id, item.businessId))
      .run();
    dropFromSearch(tx, item.id);
    return;
  }
  const changed = tx
    .update(replies)
    .set({ hiddenAt: now })
    .where(and(eq(replies.id, item.id), isNull(replies.hiddenAt)))
    .returning({ id: replies.id })
    .all();
  if (changed.length === 0) return;
  tx.update(comments)
    .set({ replyCount: sql`max(${comments.replyCount} - 1, 0)` })
    .where(eq(comments.id, item.commentId))
    .run();
}

/**
 * Shows a hidden item again and gives back the count it left. A review shown again by a decision
 * (`shownAt`: not as a removal's placeholder) records when: its business's followers whose look
 * passed it while it was hidden are told of it then (favorite-reviews.ts).
 */
function restore(tx: DbOrTx, item: Item, shownAt: number | null): void {
  if (item.kind === 'ownerReply') {
    tx.update(ownerReplies).set({ hiddenAt: null }).where(eq(ownerReplies.commentId, item.id)).run();
    return;
  }
  if (item.kind === 'comment') {
    const changed = tx
      .update(comments)
      .set(shownAt === null ? { hiddenAt: null } : { hiddenAt: null, restoredAt: shownAt })
      .where(and(eq(comments.id, item.id), isNotNull(comments.hiddenAt)))
      .returning({ id: comments.id })
      .all();
    if (changed.length === 0) return;
    tx.update(businesses)
      .set({ commentCount: sql`${businesses.commentCount} + 1` })
      .where(eq(businesses.id, item.businessId))
      .run();
    queueForSearch(tx, item.id);
    return;
  }
  const changed = tx
    .update(replies)
    .set({ hiddenAt: null })
    .where(and(eq(replies.id, item.id), isNotNull(replies.hiddenAt)))
    .returning({ id: replies.id })
    .all();
  if (changed.length === 0) return;
  tx.update(comments)
    .set({ replyCount: sql`${comments.replyCount} + 1` })
    .where(eq(comments.id, item.commentId))
    .run();
}

/** How old a reporter's public post must be for them to count as established. */
export const ESTABLISHED_POST_AGE = 24 * 60 * 60 * 1000;

/**
 * Whether a user is established (docs/product.md "Moderation and trust"): an account older than
 * REPORT_TRUST_AGE with at least one public post (comment or reply) older than a day that is
 * neither hidden nor removed. Each part is a walk of the user's own posts on their user index.
 */
export function isEstablished(deps: Deps, db: DbOrTx, userId: string, now: number): boolean {
  const user = db.select({ createdAt: users.createdAt, isBanned: users.isBanned }).from(users).where(eq(users.id, userId)).get();
  if (!user || user.isBanned || user.createdAt > now - deps.env.REPORT_TRUST_AGE) return false;
  const before = now - ESTABLISHED_POST_AGE;
  const publicPost = <T extends typeof comments | typeof replies>(t: T) =>
    db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.userId, userId), lte(t.createdAt, before), isNull(t.hiddenAt), isNull(t.removedAt)))
      .limit(1)
      .get();
  return publicPost(comments) !== undefined || publicPost(replies) !== undefined;
}

/**
 * The open reports of an item that count towards hiding it: from reporters established when they
 * reported, not banned since, and none of whose earlier reports of it a moderator dismissed.
 */
function countingReports(db: DbOrTx, item: { kind: ReportKind; id: string }): number {
  const column = item.kind === 'comment' ? 'comment_id' : item.kind === 'reply' ? 'reply_id' : 'owner_reply_id';
  return (
    db
      .select({ n: count() })
      .from(reports)
      .innerJoin(users, eq(users.id, reports.reporterId))
      .where(
        and(
          openReportsOf(item),
          eq(reports.established, true),
          eq(users.isBanned, false),
          // reports_comment_reporter_idx / reports_reply_reporter_idx
          sql`not exists (select 1 from "reports" as "earlier" where ${sql.raw(`"earlier"."${column}"`)} = ${item.id} and "earlier"."reporter_id" = ${reports.reporterId} and "earlier"."resolution" = 'dismiss')`,
        ),
      )
      .get()?.n ?? 0
  );
}

/**
 * A signed-in, active user reports someone else's comment or reply. One open report per user
 * and item: a repeat changes nothing and says so. Every report reaches the queue; when
 * REPORT_HIDE_THRESHOLD of them count (countingReports: established reporters, not banned, not
 * dismissed before on this item), the item is hidden in the same transaction.
 */
export async function reportPost(deps: Deps, actor: Actor, kind: ReportKind, input: ReportInput, now = Date.now()): Promise<ReportResult> {
  const reporter = requireActiveFor(actor, 'reportLoginRequired');
  await deps.limits.consume('report', reporter.id);
  const { db, env } = deps;
  return db.transaction((tx) => {
    const item = findItem(tx, kind, input.id);
    if (item.removed) throw new AppError('NOT_FOUND', kind === 'comment' ? 'commentNotFound' : kind === 'reply' ? 'replyNotFound' : 'ownerReplyNotFound');
    if (item.userId === reporter.id) throw new AppError('FORBIDDEN', 'reportOwnPost');
    // An owner answers a review of their business; they cannot push it, nor a fellow owner's
    // answer, out of sight (issue 31).
    if (isOwner(tx, reporter.id, item.businessId)) throw new AppError('FORBIDDEN', 'ownerCannotReport');
    const open = openReportsOf(item);
    const already = tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(open, eq(reports.reporterId, reporter.id)))
      .get();
    if (already) return { result: 'existing' as const, hidden: item.hiddenAt !== null };
    tx.insert(reports)
      .values({
        id: newId(),
        commentId: kind === 'comment' ? item.id : null,
        replyId: kind === 'reply' ? item.id : null,
        ownerReplyId: kind === 'ownerReply' ? item.id : null,
        reporterId: reporter.id,
        reason: input.reason,
        note: input.note ?? null,
        createdAt: now,
        established: isEstablished(deps, tx, reporter.id, now),
      })
      .run();
    const hides = item.hiddenAt === null && countingReports(tx, item) >= env.REPORT_HIDE_THRESHOLD;
    if (hides) {
      hide(tx, item, now);
      // The moderators' digest mail speaks of posts; an answer waits in the queue only. Its
      // business's owners hear of it as an author hears of their post.
      if (item.kind !== 'ownerReply') {
        recordAutoHide(tx, item.kind, item.id, now);
        queueModDigests(deps, tx, now);
        notifyModerated(db, 'hidden', { kind: item.kind, id: item.id }, null, now);
      } else {
        notifyOwnerReplyModerated(db, 'hidden', item.id, null, now);
      }
    }
    return { result: 'created' as const, hidden: item.hiddenAt !== null || hides };
  });
}

/**
 * A ban: the banned user's open reports stop counting, so a post they helped hide is shown again
 * when what remains is below REPORT_HIDE_THRESHOLD. Runs in the ban's transaction; the reports
 * stay in the queue for the moderators to read.
 */
export function recheckReportsBy(deps: Deps, tx: DbOrTx, userId: string): void {
  const open = tx
    .select({ commentId: reports.commentId, replyId: reports.replyId, ownerReplyId: reports.ownerReplyId })
    .from(reports)
    .where(and(eq(reports.reporterId, userId), isNull(reports.resolvedAt)))
    .all();
  for (const r of open) {
    const { kind, id } = reportedItemOf(r);
    const item = findItem(tx, kind, id);
    if (item.hiddenAt === null || item.removed) continue;
    if (countingReports(tx, item) < deps.env.REPORT_HIDE_THRESHOLD) restore(tx, item, Date.now());
  }
}

/** Which item a report row is about. */
function reportedItemOf(r: { commentId: string | null; replyId: string | null; ownerReplyId: string | null }): { kind: ReportKind; id: string } {
  if (r.commentId) return { kind: 'comment', id: r.commentId };
  if (r.replyId) return { kind: 'reply', id: r.replyId };
  return { kind: 'ownerReply', id: r.ownerReplyId! };
}

/** A reported item as the notifications take it. */
const postOf = (item: Item) => ({ kind: item.kind, id: item.id, commentId: item.commentId });

/** A decision on an item, to its author: a post's writer, or every owner of an answer's business. */
function notifyAuthors(db: Deps['db'], kind: 'removed' | 'restored', item: Item, actorId: string, now: number, reason: string | null = null): void {
  if (item.kind === 'ownerReply') notifyOwnerReplyModerated(db, kind, item.id, actorId, now, reason);
  else notifyModerated(db, kind, { kind: item.kind, id: item.id }, actorId, now, reason);
}

/**
 * The reported item an id names: a comment, a reply or a business's answer with open reports.
 * `kind` picks one where an answer and its review (same id) both have open reports.
 */
function openItem(db: DbOrTx, id: string, only?: ReportKind): Item {
  for (const kind of only ? [only] : reportKinds) {
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
 * A moderator (or admin) decides an item's open reports. `dismiss` closes them and shows the item
 * again (its reporters cannot hide it again); `remove` empties it (text and picture go) and keeps
 * the reason its author is shown: the chosen report reason (else the reports' own) and the
 * moderator's optional words to the author. A comment with replies stays public as a "removed by a
 * moderator" placeholder, so the thread keeps its context; anything else stays hidden from
 * everyone but its author and moderators. Either way the moderation log records it with an
 * excerpt and the private `note` (never shown to the author).
 */
export async function resolveReports(deps: Deps, actor: Actor, input: ResolveInput, now = Date.now()): Promise<{ action: ResolveAction }> {
  const admin = requireModerator(actor);
  await deps.limits.consume(input.action === 'remove' ? 'delete' : 'edit', admin.id);
  const { db } = deps;
  const item = openItem(db, input.id, input.kind);
  const authorReason = (reasons: ReportReason[]) => authorReasonOf(input.reason ?? reasons.join(', '), input.reasonText);
  const log = (tx: DbOrTx, reasons: ReportReason[]) =>
    recordModAction(tx, admin, {
      action: input.action,
      targetKind: item.kind,
      targetId: item.id,
      excerpt: item.text,
      reason: input.action === 'remove' ? [authorReason(reasons), input.note].filter(Boolean).join(' — ') : (input.note ?? reasons.join(', ')),
    });

  if (input.action === 'dismiss') {
    db.transaction((tx) => {
      notifyReporters(db, postOf(item), 'dismiss', admin.id, now);
      if (item.hiddenAt !== null) notifyAuthors(db, 'restored', item, admin.id, now);
      const reasons = closeReports(tx, item, 'dismiss', admin.id, now);
      if (reasons.length === 0) throw new AppError('NOT_FOUND', 'reportNotFound');
      restore(tx, item, now);
      log(tx, reasons);
    });
    return { action: 'dismiss' };
  }

  db.transaction((tx) => {
    notifyReporters(db, postOf(item), 'remove', admin.id, now);
    const reasons = closeReports(tx, item, 'remove', admin.id, now);
    if (reasons.length === 0) throw new AppError('NOT_FOUND', 'reportNotFound');
    log(tx, reasons);
    const shown = authorReason(reasons);
    removeItem(tx, item, shown, now);
    notifyAuthors(db, 'removed', item, admin.id, now, shown);
  });
  await releaseImage(deps, item.imageId);
  return { action: 'remove' };
}

/**
 * A moderator's removal, in the caller's transaction: the post stays as a notice for its author
 * (text and picture go, the reason stays). A comment with replies is a public placeholder so its
 * thread keeps its context; anything else stays hidden, seen only by its author (and admins).
 */
function removeItem(tx: DbOrTx, item: Item, reason: string, now: number): void {
  // Replies that are themselves removed keep nothing worth a placeholder.
  const hasReplies =
    item.kind === 'comment' &&
    tx
      .select({ id: replies.id })
      .from(replies)
      .where(and(eq(replies.commentId, item.id), isNull(replies.removedAt)))
      .limit(1)
      .get();
  if (item.kind === 'ownerReply') {
    // The owners still see that it was removed, and why (comment-cards.ts), and may delete it and answer anew.
    tx.update(ownerReplies)
      .set({ text: '', removedAt: now, removalReason: reason, hiddenAt: sql`coalesce(${ownerReplies.hiddenAt}, ${now})` })
      .where(eq(ownerReplies.commentId, item.id))
      .run();
    return;
  }
  const removal = { text: '', imageId: null, removedAt: now, removalReason: reason };
  if (hasReplies) restore(tx, item, null);
  else hide(tx, item, now);
  if (item.kind === 'comment') {
    tx.update(comments).set(removal).where(eq(comments.id, item.id)).run();
    dropFromSearch(tx, item.id);
  } else {
    tx.update(replies).set(removal).where(eq(replies.id, item.id)).run();
  }
}

/**
 * "Remove all of the author's posts" (admins): every comment and reply of the user not yet removed
 * becomes a removal notice as above, with the note (or "spam") as its reason; open reports of
 * them close as removed. One entry in the moderation log names the user and the count.
 */
export async function removeAllPosts(deps: Deps, actor: Actor, input: RemoveAllInput, now = Date.now()): Promise<{ removed: number }> {
  const admin = requireModerator(actor);
  await deps.limits.consume('delete', admin.id);
  const { db } = deps;
  const target = db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, input.userId)).get();
  if (!target) throw new AppError('NOT_FOUND', 'userNotFound');
  const reason = input.note ?? 'spam';
  const imageIds: string[] = [];
  const removed = db.transaction((tx) => {
    // Each on the author's user index (replies_user_idx, comments_user_idx); replies first, so a
    // comment whose replies are all the author's own is hidden rather than left as a placeholder.
    const items: Item[] = [
      ...tx
        .select({
          id: replies.id,
          commentId: replies.commentId,
          businessId: replies.businessId,
          text: replies.text,
          imageId: replies.imageId,
          hiddenAt: replies.hiddenAt,
        })
        .from(replies)
        .where(and(eq(replies.userId, target.id), isNull(replies.removedAt)))
        .all()
        .map((r) => ({ kind: 'reply' as const, userId: target.id, removed: false, ...r })),
      ...tx
        .select({ id: comments.id, businessId: comments.businessId, text: comments.text, imageId: comments.imageId, hiddenAt: comments.hiddenAt })
        .from(comments)
        .where(and(eq(comments.userId, target.id), isNull(comments.removedAt)))
        .all()
        .map((c) => ({ kind: 'comment' as const, userId: target.id, commentId: c.id, removed: false, ...c })),
      // The business answers they wrote as an owner (owner_replies_user_idx).
      ...tx
        .select({ id: ownerReplies.commentId, businessId: ownerReplies.businessId, text: ownerReplies.text, hiddenAt: ownerReplies.hiddenAt })
        .from(ownerReplies)
        .where(and(eq(ownerReplies.userId, target.id), isNull(ownerReplies.removedAt)))
        .all()
        .map((o) => ({ kind: 'ownerReply' as const, userId: target.id, commentId: o.id, imageId: null, removed: false, ...o })),
    ];
    for (const item of items) {
      tx.update(reports).set({ resolvedAt: now, resolution: 'remove', resolvedBy: admin.id }).where(openReportsOf(item)).run();
      removeItem(tx, item, reason, now);
      if (item.imageId) imageIds.push(item.imageId);
    }
    recordModAction(tx, admin, {
      action: 'removeAll',
      targetKind: 'user',
      targetId: target.id,
      excerpt: `${`${target.firstName} ${target.lastName}`.trim()} (${items.length})`,
      reason,
    });
    return items.length;
  });
  for (const id of imageIds) await releaseImage(deps, id);
  return { removed };
}

const author = alias(users, 'author');
const reporter = alias(users, 'reporter');
const photo = alias(images, 'photo');

/**
 * The moderation queue (admins): reports grouped by item, with the item, its author (account
 * age and post count) and every reason, note and reporter. Open: most reported, then oldest
 * first. Resolved: most recently decided first.
 */
export function listReports(deps: Deps, actor: Actor, input: ReportsPageInput): Page<ReportGroup> {
  requireModerator(actor);
  const limit = input.limit ?? QUEUE_PAGE;
  const cursor = decodeCursor(input.cursor, 'string');
  const { db } = deps;
  const open = input.status === 'open';
  const rows = db
    .select({
      commentId: reports.commentId,
      replyId: reports.replyId,
      ownerReplyId: reports.ownerReplyId,
      reason: reports.reason,
      note: reports.note,
      reporterId: reports.reporterId,
      createdAt: reports.createdAt,
      established: reports.established,
      resolvedAt: reports.resolvedAt,
      resolution: reports.resolution,
      firstName: reporter.firstName,
      lastName: reporter.lastName,
    })
    .from(reports)
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    // Resolved pages reach back past QUEUE_REPORTS_MAX: the cursor's decision time bounds the walk.
    .where(open ? isNull(reports.resolvedAt) : cursor ? lte(reports.resolvedAt, cursor.t) : isNotNull(reports.resolvedAt))
    .orderBy(open ? asc(reports.createdAt) : desc(reports.resolvedAt))
    .limit(QUEUE_REPORTS_MAX)
    .all();

  const groups = new Map<string, { kind: ReportKind; id: string; resolvedAt: number; rows: typeof rows }>();
  for (const r of rows) {
    const { kind, id } = reportedItemOf(r);
    // A resolved item may have been reported again and resolved again: one group per decision.
    const key = open ? `${kind}:${id}` : `${kind}:${id}:${r.resolvedAt}`;
    const group = groups.get(key) ?? { kind, id, resolvedAt: r.resolvedAt ?? 0, rows: [] };
    group.rows.push(r);
    groups.set(key, group);
  }
  // Sorted and paged before the items are read: only the page's posts are looked up.
  const sortKey = (g: { kind: ReportKind; id: string; resolvedAt: number; rows: typeof rows }): GroupKey => ({
    count: open ? g.rows.length : 0,
    at: open ? Math.min(...g.rows.map((r) => r.createdAt)) : g.resolvedAt,
    ref: `${g.kind}|${g.id}`,
  });
  const keyed = [...groups.values()].map((g) => ({ g, key: sortKey(g) })).sort((a, b) => compareGroups(open, a.key, b.key));
  const from = cursor ? keyed.findIndex((x) => compareGroups(open, x.key, cursorKey(cursor)) > 0) : 0;
  const page = from < 0 ? [] : keyed.slice(from, from + limit);
  const last = page[page.length - 1];
  const nextCursor = last && from + limit < keyed.length ? encodeCursor(last.key.at, `${last.key.count}|${last.key.ref}`) : null;
  groups.clear();
  for (const { g } of page) groups.set(`${g.kind}:${g.id}:${g.resolvedAt}`, g);

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
  const answerIds = ids('ownerReply');
  const commentRows = commentIds.length
    ? db
        .select({
          id: comments.id,
          commentId: comments.id,
          userId: comments.userId,
          businessId: comments.businessId,
          text: comments.text,
          createdAt: comments.createdAt,
          hiddenAt: comments.hiddenAt,
          removedAt: comments.removedAt,
          ...itemColumns,
        })
        .from(comments)
        .leftJoin(businesses, eq(businesses.id, comments.businessId))
        .leftJoin(photo, eq(photo.id, comments.imageId))
        .leftJoin(author, eq(author.id, comments.userId))
        .where(inArray(comments.id, commentIds))
        .all()
    : [];
  const replyRows = replyIds.length
    ? db
        .select({
          id: replies.id,
          commentId: replies.commentId,
          userId: replies.userId,
          businessId: replies.businessId,
          text: replies.text,
          createdAt: replies.createdAt,
          hiddenAt: replies.hiddenAt,
          removedAt: sql<number | null>`null`,
          ...itemColumns,
        })
        .from(replies)
        .leftJoin(businesses, eq(businesses.id, replies.businessId))
        .leftJoin(photo, eq(photo.id, replies.imageId))
        .leftJoin(author, eq(author.id, replies.userId))
        .where(inArray(replies.id, replyIds))
        .all()
    : [];
  const answerRows = answerIds.length
    ? db
        .select({
          id: ownerReplies.commentId,
          commentId: ownerReplies.commentId,
          userId: ownerReplies.userId,
          businessId: ownerReplies.businessId,
          text: ownerReplies.text,
          createdAt: ownerReplies.createdAt,
          hiddenAt: ownerReplies.hiddenAt,
          removedAt: ownerReplies.removedAt,
          ...itemColumns,
          photoFile: sql<string | null>`null`,
        })
        .from(ownerReplies)
        .leftJoin(businesses, eq(businesses.id, ownerReplies.businessId))
        .leftJoin(author, eq(author.id, ownerReplies.userId))
        .where(inArray(ownerReplies.commentId, answerIds))
        .all()
    : [];
  const items = new Map([
    ...commentRows.map((r) => [`comment:${r.id}`, r] as const),
    ...replyRows.map((r) => [`reply:${r.id}`, r] as const),
    ...answerRows.map((r) => [`ownerReply:${r.id}`, r] as const),
  ]);
  const postsOf = postCounts(deps, [...new Set([...commentRows, ...replyRows, ...answerRows].map((r) => r.userId))]);

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
        posts: postsOf.get(item.userId)?.posts ?? 0,
        removals: postsOf.get(item.userId)?.removals ?? 0,
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
        established: r.established,
      })),
    });
  }
  return { items: result, nextCursor };
}

type GroupKey = { count: number; at: number; ref: string };

/** Open: most reported, then oldest first. Resolved: most recently decided first. Ties by post. */
function compareGroups(open: boolean, a: GroupKey, b: GroupKey): number {
  if (open) return b.count - a.count || a.at - b.at || a.ref.localeCompare(b.ref);
  return b.at - a.at || a.ref.localeCompare(b.ref);
}

function cursorKey(cursor: { t: number; k: string }): GroupKey {
  const [count, ...ref] = cursor.k.split('|');
  if (!/^\d+$/.test(count) || ref.length !== 2) throw new AppError('BAD_INPUT', 'cursorInvalid');
  return { count: Number(count), at: cursor.t, ref: ref.join('|') };
}

/**
 * Comments plus replies per author, and how many of them moderators removed: each counted on
 * the author's user index (a moderator's removal keeps the post as a notice).
 */
function postCounts(deps: Deps, userIds: string[]): Map<string, { posts: number; removals: number }> {
  const counts = new Map<string, { posts: number; removals: number }>();
  const removed = (at: typeof comments.removedAt | typeof replies.removedAt) => sql<number>`count(${at})`;
  for (const userId of userIds) {
    const c = deps.db
      .select({ n: count(), removed: removed(comments.removedAt) })
      .from(comments)
      .where(eq(comments.userId, userId))
      .get();
    const r = deps.db
      .select({ n: count(), removed: removed(replies.removedAt) })
      .from(replies)
      .where(eq(replies.userId, userId))
      .get();
    counts.set(userId, { posts: (c?.n ?? 0) + (r?.n ?? 0), removals: (c?.removed ?? 0) + (r?.removed ?? 0) });
  }
  return counts;
}

/**
 * How many posts wait in the open queue (moderators and admins): the header's badge on the
 * moderation link (issue 29, item 13). Open reports are the `resolved_at is null` prefix of
 * reports_queue_idx, so the count reads only them.
 */
export function waitingReportCount(deps: Deps, actor: Actor): { waiting: number } {
  requireModerator(actor);
  const row = deps.db
    .select({ n: sql<number>`count(distinct coalesce('c' || ${reports.commentId}, 'r' || ${reports.replyId}, 'o' || ${reports.ownerReplyId}))` })
    .from(reports)
    .where(isNull(reports.resolvedAt))
    .get();
  return { waiting: row?.n ?? 0 };
}
