import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { unshownWrite } from '../../lib/data-stamp';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../../../db/client';
import {
  businessOwners,
  businessSuggestions,
  businesses,
  comments,
  notificationEvents,
  notifications,
  ownerReplies,
  replies,
  reports,
  users,
} from '../../../db/schema';
import type { Deps } from '../deps';
import { inTransaction, keptLimit, keptParam, preparedStatements } from '../../lib/prepared';
import {
  NOTIFICATIONS_PAGE,
  THREAD_COUNT_MAX,
  type MarkReadInput,
  type NotificationItem,
  type NotificationKind,
  type NotificationsInput,
  type NotificationsPage,
} from '../../../shared/schemas/notifications';
import { requireSignedIn, type Actor } from '../actor';
import { shownLastName } from '../accounts/names';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { pullFavoriteReviews } from './favorite-reviews';

/** Read notifications older than this are deleted by the hourly maintenance. */
export const READ_NOTIFICATIONS_KEPT_MS = 90 * 24 * 60 * 60 * 1000;

const p = {
  actor: sql.placeholder('actor'),
  exclude: sql.placeholder('exclude'),
  commentId: sql.placeholder('commentId'),
  replyId: sql.placeholder('replyId'),
  postId: sql.placeholder('postId'),
  businessId: sql.placeholder('businessId'),
  kind: sql.placeholder('kind'),
  reason: sql.placeholder('reason'),
  now: sql.placeholder('now'),
  me: sql.placeholder('me'),
  limit: sql.placeholder('limit'),
  t: sql.placeholder('t'),
  k: sql.placeholder('k'),
  before: sql.placeholder('before'),
  groupKey: sql.placeholder('groupKey'),
};

/**
 * The columns of a notification row written by INSERT … SELECT, in the table's order (Drizzle
 * checks it): the id is the rowid SQLite assigns (a null key), so one statement writes every
 * recipient's row without a read per recipient.
 */
function rowOf(recipient: SQLWrapper, kind: NotificationKind | SQL, commentId: SQLWrapper, replyId: SQL | null, extra: { groupKey?: SQL } = {}) {
  return {
    id: sql<number | null>`null`.as('id'),
    userId: sql<string>`${recipient}`.as('user_id'),
    kind: (typeof kind === 'string' ? sql<string>`${kind}` : kind).as('kind'),
    actorId: sql<string | null>`${p.actor}`.as('actor_id'),
    commentId: sql<string>`${commentId}`.as('comment_id'),
    businessId: sql<string | null>`null`.as('business_id'),
    suggestionId: sql<string | null>`null`.as('suggestion_id'),
    replyId: (replyId ?? sql<string | null>`null`).as('reply_id'),
    groupKey: (extra.groupKey ?? sql<string | null>`null`).as('group_key'),
    count: sql<number>`1`.as('count'),
    reason: sql<string | null>`${p.reason}`.as('reason'),
    createdAt: sql<number>`${p.now}`.as('created_at'),
    readAt: sql<number | null>`null`.as('read_at'),
    mailedAt: sql<number | null>`null`.as('mailed_at'),
    mailDueAt: sql<number | null>`null`.as('mail_due_at'),
  };
}

/** The prefix of a thread notice's group key (`reply` and `threadReply`; a reaction's is the post's id). */
export const THREAD_GROUP = 'thread:';

/**
 * An open notice of a thread (docs/product.md §13): a `reply` or `threadReply` that is grouped and
 * unread. The fan-out writes nothing more to it while it is open, so its count and latest replier
 * are read live: the thread's replies from its first one on, by anyone but its reader, neither
 * hidden nor removed, by an unbanned author. Reading it or mailing it settles both into the row.
 */
export const openThread = sql`(${notifications.groupKey} is not null and ${notifications.readAt} is null and ${notifications.kind} in ('reply', 'threadReply'))`;
const later = alias(replies, 'later');
const laterAuthor = alias(users, 'later_author');
/** Where an open thread notice's replies begin: its first reply's time and rowid (a tie of the same millisecond). */
type FirstReply = { at: SQLWrapper; rowid: SQLWrapper };
/**
 * The replies an open thread notice stands for, from its first reply on: on replies_comment_idx
 * (comment_id, created_at), each row read for its hidden and removed marks. The outer row is
 * named `notifications` (the list, the mails and the settling UPDATEs).
 */
const laterReplies = (
  first: FirstReply,
) => sql`from ${replies} ${later} join ${users} ${laterAuthor} on ${laterAuthor.id} = ${later.userId} and ${laterAuthor.isBanned} = 0
  where ${later.commentId} = ${notifications}.comment_id and ${later.createdAt} >= ${first.at} and (${later.createdAt} > ${first.at} or ${later}.rowid >= ${first.rowid})
  and ${later.userId} <> ${notifications}.user_id and ${later.hiddenAt} is null and ${later.removedAt} is null`;
export const liveCount = (first: FirstReply) => sql<number>`(select count(*) from (select 1 ${laterReplies(first)} limit ${keptLimit(THREAD_COUNT_MAX)}))`;
export const liveActor = (first: FirstReply) =>
  sql<string | null>`(select ${later.userId} ${laterReplies(first)} order by ${later.createdAt} desc, ${later}.rowid desc limit 1)`;
/** An open thread notice's first reply, for an UPDATE (which has no join). */
const firstReply: FirstReply = {
  at: sql`(select created_at from ${replies} where ${replies.id} = ${notifications}.reply_id)`,
  rowid: sql`(select rowid from ${replies} where ${replies.id} = ${notifications}.reply_id)`,
};
/** The same from a joined row of the first reply (the list, the mails). */
export const firstReplyOf = (reply: SQLWrapper & { createdAt: SQLWrapper }) => ({ at: reply.createdAt, rowid: sql`${reply}.rowid` });
/**
 * The columns that settle an open thread notice when it is read or mailed: its count and latest
 * replier as they are now. Other rows keep theirs.
 */
export const settledThread = {
  count: sql<number>`case when ${openThread} then max(1, ${liveCount(firstReply)}) else ${notifications.count} end`,
  actorId: sql<string | null>`case when ${openThread} then coalesce(${liveActor(firstReply)}, ${notifications.actorId}) else ${notifications.actorId} end`,
};

/** Never a notification for one's own action: whoever acted (null for the system) is left out. */
const notActor = (column: SQLWrapper) => sql`${column} is not ${p.exclude}`;

/** How many of a thread's latest repliers hear of a new reply in it (docs/product.md §13). */
export const THREAD_NOTIFY_REPLIERS = 50;
/** How many of a thread's latest replies are read to find them. */
export const THREAD_NOTIFY_LOOKBACK = 200;
/** A queued event's actor may have deleted their account, and a reply may be gone, before the batch runs. */
const actorStands = sql`exists (select 1 from ${users} where ${users.id} = ${keptParam(p.actor)})`;
const replyStands = sql`exists (select 1 from ${replies} where ${replies.id} = ${keptParam(p.replyId)})`;
const reacted = alias(replies, 'reacted');

/**
 * The notify* functions take the app's `db` and run inside the transaction the caller has open
 * (better-sqlite3 has one connection), so the statements are compiled once per database.
 * Every write is one prepared INSERT … SELECT: the recipients come from an indexed read in the
 * same statement (the post's author by primary key, a thread's repliers on
 * replies_comment_repliers_idx, a post's open reporters on the reports' partial unique indexes).
 * Moderation's run inside the caller's transaction; a reply's is queued as one event row, a first
 * reaction's waits in memory, and both are written by drainNotificationEvents in batches
 * (docs/decisions/020). New reviews of favourites are not written here: they are pulled on read
 * (favorite-reviews.ts). Exported so the query-plan test checks them.
 */
export function notificationWrites(db: Db) {
  return {
    /**
     * A reply to the comment's author (while the reply and its author still exist), unless the
     * author's notice of the thread is open: then it already leads to the first reply she has
     * not read, and its count and latest replier are read live (openThread below).
     */
    reply: db
      .insert(notifications)
      .select(
        db
          .select(rowOf(comments.userId, 'reply', comments.id, sql`${p.replyId}`, { groupKey: sql`${THREAD_GROUP} || ${comments.id}` }))
          .from(comments)
          .where(and(eq(comments.id, keptParam(p.commentId)), notActor(comments.userId), replyStands, actorStands)),
      )
      // No conflict target: the only unique index a reply's notice can meet is the group's
      // (notifications_reaction_group_idx: user, group_key, while unread). Drizzle writes a DO
      // NOTHING target's WHERE after DO NOTHING, where SQLite refuses it.
      .onConflictDoNothing(),
    /**
     * A thread's latest replies before a reply (a lower rowid), newest first, from
     * replies_comment_repliers_idx (comment_id, created_at, user_id, rowid) alone: a bounded walk
     * however long the thread is, with no row read per reply (migration 0039). The batch
     * (threadFanOut) walks once per thread and batch, before the batch's first reply in it.
     */
    threadWalk: db
      .select({ userId: replies.userId, at: sql<number>`${replies}.rowid`.as('at') })
      .from(replies)
      .where(
        and(
          eq(replies.commentId, keptParam(p.commentId)),
          sql`${replies}.rowid < (select rowid from ${replies} where ${replies.id} = ${keptParam(p.replyId)})`,
        ),
      )
      .orderBy(desc(replies.createdAt), desc(replies.userId), desc(sql`${replies}.rowid`))
      .limit(keptLimit(THREAD_NOTIFY_LOOKBACK)),
    /** A queued reply, while it and its author's account still stand: its place in the thread. */
    replyStanding: db
      .select({ at: sql<number>`${replies}.rowid`.as('at') })
      .from(replies)
      .where(and(eq(replies.id, keptParam(p.replyId)), actorStands)),
    /** The thread's author, who hears of replies as `reply`, never as `threadReply`. */
    threadAuthor: db
      .select({ userId: comments.userId })
      .from(comments)
      .where(eq(comments.id, keptParam(p.commentId))),
    /**
     * A reply in a thread to one of its earlier repliers, unless their notice of the thread is
     * open (as `reply` above): a busy thread costs a recipient one write until they read it or
     * its mail goes, and a look-up of the group index after that.
     */
    threadReply: db
      .insert(notifications)
      .values({
        userId: p.me,
        kind: 'threadReply',
        actorId: p.actor,
        commentId: p.commentId,
        replyId: p.replyId,
        groupKey: p.groupKey,
        createdAt: p.now,
      })
      // As `reply` above: only the group index can conflict.
      .onConflictDoNothing(),
    /** A business's answer to a review, to the review's author (the owner who wrote it stays unnamed). */
    ownerReply: db.insert(notifications).select(
      db
        .select(rowOf(comments.userId, 'ownerReply', comments.id, null))
        .from(comments)
        .where(and(eq(comments.id, p.commentId), notActor(comments.userId))),
    ),
    /** A reaction to a comment: the author's unread notice of it counts one more, or a new one starts. */
    commentReaction: db
      .insert(notifications)
      .select(
        db
          .select(rowOf(comments.userId, 'reaction', comments.id, null, { groupKey: sql`${comments.id}` }))
          .from(comments)
          .where(and(eq(comments.id, keptParam(p.postId)), notActor(comments.userId), actorStands)),
      )
      .onConflictDoUpdate({
        target: [notifications.userId, notifications.groupKey],
        targetWhere: sql`${notifications.groupKey} is not null and ${notifications.readAt} is null`,
        // Only the count moves: no indexed column changes, so a further reaction costs one row write.
        set: { count: sql`${notifications.count} + 1` },
      }),
    replyReaction: db
      .insert(notifications)
      .select(
        db
          .select(rowOf(reacted.userId, 'reaction', reacted.commentId, sql`${reacted.id}`, { groupKey: sql`${reacted.id}` }))
          .from(reacted)
          .where(and(eq(reacted.id, keptParam(p.postId)), notActor(reacted.userId), actorStands)),
      )
      .onConflictDoUpdate({
        target: [notifications.userId, notifications.groupKey],
        targetWhere: sql`${notifications.groupKey} is not null and ${notifications.readAt} is null`,
        // Only the count moves: no indexed column changes, so a further reaction costs one row write.
        set: { count: sql`${notifications.count} + 1` },
      }),
    /** A moderator's decision on a comment, to its author. */
    commentModerated: db.insert(notifications).select(
      db
        .select(rowOf(comments.userId, sql`${p.kind}`, comments.id, null))
        .from(comments)
        .where(and(eq(comments.id, p.postId), notActor(comments.userId))),
    ),
    replyModerated: db.insert(notifications).select(
      db
        .select(rowOf(reacted.userId, sql`${p.kind}`, reacted.commentId, sql`${reacted.id}`))
        .from(reacted)
        .where(and(eq(reacted.id, p.postId), notActor(reacted.userId))),
    ),
    /**
     * A moderator's decision on a business's answer to a review, to each of the business's owners
     * (the answer speaks for the business, and every owner may edit or delete it): the answer by
     * its key, its owners on business_owners' primary key. Linked to the review.
     */
    ownerReplyModerated: db.insert(notifications).select(
      db
        .select(rowOf(businessOwners.userId, sql`${p.kind}`, ownerReplies.commentId, null))
        .from(ownerReplies)
        .innerJoin(businessOwners, eq(businessOwners.businessId, ownerReplies.businessId))
        .where(and(eq(ownerReplies.commentId, p.postId), notActor(businessOwners.userId))),
    ),
    /** The outcome of open reports, to each reporter (called before they are closed). */
    commentReportsResolved: db.insert(notifications).select(
      db
        .select(rowOf(reports.reporterId, 'reportResolved', sql`${p.commentId}`, null))
        .from(reports)
        .where(and(eq(reports.commentId, p.postId), isNull(reports.resolvedAt), notActor(reports.reporterId))),
    ),
    replyReportsResolved: db.insert(notifications).select(
      db
        .select(rowOf(reports.reporterId, 'reportResolved', sql`${p.commentId}`, sql`${p.postId}`))
        .from(reports)
        .where(and(eq(reports.replyId, p.postId), isNull(reports.resolvedAt), notActor(reports.reporterId))),
    ),
    ownerReplyReportsResolved: db.insert(notifications).select(
      db
        .select(rowOf(reports.reporterId, 'reportResolved', sql`${p.commentId}`, null))
        .from(reports)
        .where(and(eq(reports.ownerReplyId, p.postId), isNull(reports.resolvedAt), notActor(reports.reporterId))),
    ),
  };
}

const writes = preparedStatements(notificationWrites);

const base = { reason: null, kind: null, commentId: null, replyId: null, postId: null, businessId: null } as const;

/**
 * The statements of the event queue (docs/decisions/020): the write appends one row, the batch
 * reads the oldest ones and deletes what it worked off. Exported so the query-plan test checks them.
 */
export function eventQueries(db: Db) {
  return {
    enqueue: db.insert(notificationEvents).values({
      kind: sql.placeholder('kind'),
      actorId: sql.placeholder('actor'),
      postId: sql.placeholder('postId'),
      commentId: sql.placeholder('commentId'),
      key: sql.placeholder('key'),
      createdAt: sql.placeholder('now'),
    }),
    oldest: db.select().from(notificationEvents).orderBy(asc(notificationEvents.seq)).limit(keptLimit(p.limit)),
    done: db.delete(notificationEvents).where(lte(notificationEvents.seq, p.before)),
  };
}

const events = preparedStatements(eventQueries);

/** Events one batch works off; a read drains at most this many before it answers. */
export const EVENT_BATCH = 500;

/**
 * A new reply: its comment's author and the thread's earlier repliers hear of it. Called in the
 * reply's transaction, it only queues the event (one row); drainNotificationEvents writes the rows.
 */
export function notifyReply(db: Db, actorId: string, commentId: string, replyId: string, now: number): void {
  events(db).enqueue.run({ kind: 'reply', actor: actorId, postId: replyId, commentId, key: replyId, now });
}

type QueuedEvent = typeof notificationEvents.$inferSelect;

/**
 * First reactions waiting for the next batch, per database, in memory (docs/decisions/020,
 * "Reactions in memory"): a reaction's request writes no queue row and no page of it. The
 * batch writes their rows with the queued replies'. A crash loses the reaction notices of at
 * most the last second (the reactions and their counts are committed); a stop writes them
 * first (server/index.ts).
 */
const pendingReactions = new WeakMap<Db, QueuedEvent[]>();

/** First reactions waiting in memory for their batch (tests, the bench). */
export const pendingReactionCount = (db: Db) => pendingReactions.get(db)?.length ?? 0;

/**
 * Someone reacted to a post for the first time (a changed rate is not news). Called after the
 * reaction committed (a rolled-back one is never announced); its notice is written by the next
 * batch, which any read of a bell, a list or the mail queue runs first.
 */
export function notifyReaction(db: Db, actorId: string, kind: 'comment' | 'reply', postId: string, now: number): void {
  let waiting = pendingReactions.get(db);
  if (!waiting) {
    waiting = [];
    pendingReactions.set(db, waiting);
  }
  waiting.push({ seq: 0, kind: kind === 'comment' ? 'commentReaction' : 'replyReaction', actorId, postId, commentId: null, key: postId, createdAt: now });
}

/**
 * Turns queued replies and reactions into notification rows, oldest first, in one transaction (at
 * most `max` events: the queue's rows, then the reactions waiting in memory), and deletes them
 * from the queue. Each event writes what the write itself used to: the rows carry the event's
 * time, so they sort where they happened. Run before every read of a bell, list or mail queue,
 * and every second (services/ops/maintenance.ts). Returns how many events it worked off.
 */
export function drainNotificationEvents(db: Db, max = EVENT_BATCH, until?: Deadline): number {
  const q = events(db);
  const batch = q.oldest.all({ limit: max });
  const waiting = pendingReactions.get(db);
  const reactions = waiting && waiting.length > 0 ? waiting.splice(0, max - batch.length) : [];
  if (batch.length === 0 && reactions.length === 0) return 0;
  const w = writes(db);
  // Events worked off: the queue's rows first, then the reactions. With a deadline the batch stops
  // after the first event past it (at least one, so the queue always moves); what is left waits.
  let done = 0;
  const total = batch.length + reactions.length;
  try {
    inTransaction(db, () => {
      // The batch's replies per thread, in their order: each thread's repliers are told once per batch.
      const threads = new Map<string, QueuedEvent[]>();
      while (done < total) {
        const e = done < batch.length ? batch[done] : reactions[done - batch.length];
        fanOut(w, e);
        if (e.kind === 'reply' && e.commentId !== null) {
          const inThread = threads.get(e.commentId);
          if (inThread) inThread.push(e);
          else threads.set(e.commentId, [e]);
        }
        done++;
        if (until && until.now() >= until.at) break;
      }
      for (const [commentId, inThread] of threads) threadFanOut(w, commentId, inThread);
      const queued = Math.min(done, batch.length);
      if (queued > 0) q.done.run({ before: batch[queued - 1].seq });
    });
  } catch (err) {
    // Rolled back: the reactions wait for the next batch, as the queue's rows do.
    waiting?.unshift(...reactions);
    throw err;
  }
  // The reactions the deadline left wait, in their order, before any that came since.
  if (done < total) waiting?.unshift(...reactions.slice(Math.max(0, done - batch.length)));
  return done;
}

/** When a batch of the fan-out should stop, on a clock the caller gives (maintenance: performance.now). */
export type Deadline = { at: number; now: () => number };

/** Works off everything waiting, in batches of `max` (a stop, the bench). */
export function drainAllNotificationEvents(db: Db, max = EVENT_BATCH): number {
  let total = 0;
  for (let n = drainNotificationEvents(db, max); n > 0; n = drainNotificationEvents(db, max)) total += n;
  return total;
}

/** One event's own rows: a reply's to its comment's author, a first reaction's to the post's author. */
function fanOut(w: ReturnType<typeof writes>, e: QueuedEvent): void {
  const args = { ...base, actor: e.actorId, exclude: e.actorId, now: e.createdAt };
  if (e.kind === 'reply') w.reply.run({ ...args, commentId: e.commentId, replyId: e.postId });
  else (e.kind === 'commentReaction' ? w.commentReaction : w.replyReaction).run({ ...args, postId: e.postId });
}

/** A thread's notice is grouped under this key while open (a reaction's under the post's id). */
export const threadGroupKey = (commentId: string) => `${THREAD_GROUP}${commentId}`;

/**
 * A batch's replies in one thread, oldest first, to the thread's earlier repliers
 * (docs/product.md §13): each reply tells the at most THREAD_NOTIFY_REPLIERS people who replied
 * in the thread most recently before it, found among its THREAD_NOTIFY_LOOKBACK latest replies,
 * never its own author or the thread's. The thread is walked once, before the batch's first reply
 * in it; each later reply of the batch sees the earlier ones in memory. Each recipient then gets
 * one insert, which a notice of the thread still open for them takes instead (openThread).
 */
function threadFanOut(w: ReturnType<typeof writes>, commentId: string, inThread: readonly QueuedEvent[]): void {
  // The replies that still stand (a reply or its author may be gone by now), with their rowids.
  const standing: { e: QueuedEvent; at: number }[] = [];
  for (const e of inThread) {
    const row = w.replyStanding.get({ replyId: e.postId, actor: e.actorId });
    if (row) standing.push({ e, at: row.at });
  }
  if (standing.length === 0) return;
  const author = w.threadAuthor.get({ commentId })?.userId;
  if (author === undefined) return;
  // The thread's latest replies before the first, newest first, then the batch's own before each.
  const before = w.threadWalk.all({ commentId, replyId: standing[0].e.postId }) as { userId: string; at: number }[];
  // Each recipient's first reply of the batch: an open notice of the thread takes no more.
  const told = new Map<string, QueuedEvent>();
  for (let i = 0; i < standing.length; i++) {
    const { e } = standing[i];
    // The lookback: the batch's earlier replies (newest first), then the walk's.
    const latest: { userId: string; at: number }[] = [];
    for (let j = i - 1; j >= 0 && latest.length < THREAD_NOTIFY_LOOKBACK; j--) latest.push({ userId: standing[j].e.actorId ?? '', at: standing[j].at });
    for (const r of before) {
      if (latest.length >= THREAD_NOTIFY_LOOKBACK) break;
      latest.push(r);
    }
    // Their authors, each once, the most recent reply first; the reply's own author and the
    // thread's are among the THREAD_NOTIFY_REPLIERS counted and then left out, as before.
    const lastOf = new Map<string, number>();
    for (const r of latest) if ((lastOf.get(r.userId) ?? -1) < r.at) lastOf.set(r.userId, r.at);
    const recipients = [...lastOf.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, THREAD_NOTIFY_REPLIERS)
      .map(([userId]) => userId)
      .filter((userId) => userId !== e.actorId && userId !== author);
    for (const userId of recipients) if (!told.has(userId)) told.set(userId, e);
  }
  const groupKey = threadGroupKey(commentId);
  for (const [userId, e] of told) w.threadReply.run({ me: userId, actor: e.actorId, commentId, replyId: e.postId, groupKey, now: e.createdAt });
}

/**
 * A business answered a review (services/business/owner-replies.ts): its author hears of it, in the answer's
 * transaction. The answer speaks for the business, so the row names no person.
 */
export function notifyOwnerReply(db: Db, ownerId: string, commentId: string, now: number): void {
  writes(db).ownerReply.run({ ...base, actor: null, exclude: ownerId, commentId, now });
}

/**
 * A moderator's decision on a post, to its author: `hidden` (by reports; actor null), `removed`
 * with the reason its author is shown, `restored`. The deciding admin's own posts are left out.
 */
export function notifyModerated(
  db: Db,
  kind: 'hidden' | 'removed' | 'restored',
  post: { kind: 'comment' | 'reply'; id: string },
  actorId: string | null,
  now: number,
  reason: string | null = null,
): void {
  const w = writes(db);
  // The author is told the decision, not who made it: the row keeps no actor.
  const args = { ...base, actor: null, exclude: actorId, postId: post.id, kind, reason, now };
  (post.kind === 'comment' ? w.commentModerated : w.replyModerated).run(args);
}

/**
 * A moderator's decision on a business's answer to a review (services/moderation/reports.ts,
 * business/owner-replies.ts), to each owner of the business but the deciding moderator: hidden
 * by reports, removed (with the reason the owners are shown; none for a moderator's delete),
 * restored. `answerId` is the answer's key, its review's id; call it before the answer is deleted.
 */
export function notifyOwnerReplyModerated(
  db: Db,
  kind: 'hidden' | 'removed' | 'restored',
  answerId: string,
  actorId: string | null,
  now: number,
  reason: string | null = null,
): void {
  const rowKind = kind === 'hidden' ? 'ownerReplyHidden' : kind === 'removed' ? 'ownerReplyRemoved' : 'ownerReplyRestored';
  writes(db).ownerReplyModerated.run({ ...base, actor: null, exclude: actorId, postId: answerId, kind: rowKind, reason, now });
}

/** A post's open reports were decided: each reporter (not the deciding admin) hears the outcome. */
export function notifyReporters(
  db: Db,
  post: { kind: 'comment' | 'reply' | 'ownerReply'; id: string; commentId: string },
  outcome: 'remove' | 'dismiss',
  actorId: string,
  now: number,
): void {
  const w = writes(db);
  const args = { ...base, actor: null, exclude: actorId, postId: post.id, commentId: post.commentId, reason: outcome, now };
  (post.kind === 'comment' ? w.commentReportsResolved : post.kind === 'reply' ? w.replyReportsResolved : w.ownerReplyReportsResolved).run(args);
}

/**
 * The deletes of notices that have no cascade (notifications.reply_id and actor_id have no
 * foreign key), on the (comment, reply) index; exported so the query-plan test checks them.
 */
export function cleanupQueries(db: DbOrTx) {
  return {
    reply: db.delete(notifications).where(and(eq(notifications.commentId, p.commentId), eq(notifications.replyId, p.replyId))),
    reaction: db
      .delete(notifications)
      .where(and(eq(notifications.commentId, p.commentId), sql`${notifications.replyId} is ${p.replyId}`, eq(notifications.actorId, p.actor))),
  };
}

/**
 * Deletes the notices about deleted replies (each named with its thread), in the caller's
 * transaction: the code that deletes a reply calls this. A deleted comment's rows go by its cascade.
 */
export function deleteReplyNotifications(db: DbOrTx, gone: readonly { commentId: string; id: string }[]): void {
  if (gone.length === 0) return;
  const q = cleanupQueries(db).reply.prepare();
  for (const r of gone) q.run({ commentId: r.commentId, replyId: r.id });
}

/**
 * Deletes a deleted account's reactions' notices: `reacted` names each post it rated, with its
 * thread. Its replies' notices go with deleteReplyNotifications, its reviews' with their
 * comments. A row whose actor is gone and that this misses (a rating taken back) is never shown
 * (`seen`).
 */
export function deleteActorNotifications(db: DbOrTx, actorId: string, reacted: readonly { commentId: string; replyId: string | null }[]): void {
  if (reacted.length === 0) return;
  const q = cleanupQueries(db).reaction.prepare();
  for (const r of reacted) q.run({ commentId: r.commentId, replyId: r.replyId, actor: actorId });
}

export type DecisionKind = 'suggestionApproved' | 'suggestionRejected' | 'claimApproved' | 'claimRejected';

/**
 * A moderator's or an admin's decision on a member's suggestion of a place or claim of a business
 * (services/business/business-suggestions.ts, owners.ts), to the member, in the decision's
 * transaction: the only notices without a comment. The decider stays unnamed; a rejection carries
 * its reason. `businessId`: the business made or claimed (none for a rejected suggestion).
 */
export function notifyDecision(
  db: DbOrTx,
  kind: DecisionKind,
  to: { userId: string; businessId: string | null; suggestionId: string | null },
  reason: string | null,
  now: number,
): void {
  db.insert(notifications).values({ userId: to.userId, kind, businessId: to.businessId, suggestionId: to.suggestionId, reason, createdAt: now }).run();
}

const actorUser = alias(users, 'actor_user');
const linkedReply = alias(replies, 'linked_reply');
/** An open thread notice's latest replier (openThread), whom the entry names. */
const latestUser = alias(users, 'latest_user');
const rowid = sql<number>`${notifications}.rowid`;

/**
 * What the recipient may see: nothing from an account that is banned or gone (no user joins), and
 * a reply or review that is hidden or removed no longer announces itself. Moderation notices
 * about the recipient's own post always show.
 */
const seen = sql`(${notifications.actorId} is null or ${actorUser.isBanned} = 0)
  and (${notifications.kind} not in ('reply', 'threadReply', 'ownerReply') or (${linkedReply.hiddenAt} is null and ${linkedReply.removedAt} is null))
  and (${notifications.kind} <> 'favoriteReview' or (${comments.hiddenAt} is null and ${comments.removedAt} is null))`;

function listRows(db: Db) {
  return (
    db
      .select({
        id: notifications.id,
        rowid,
        kind: notifications.kind,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        count: sql<number>`case when ${openThread} then max(1, ${liveCount(firstReplyOf(linkedReply))}) else ${notifications.count} end`,
        actorId: sql<string | null>`coalesce(${latestUser.id}, ${notifications.actorId})`,
        firstName: sql<string | null>`coalesce(${latestUser.firstName}, ${actorUser.firstName})`,
        lastName: sql<string | null>`coalesce(${shownLastName(latestUser)}, ${shownLastName(actorUser)})`,
        commentId: notifications.commentId,
        replyId: notifications.replyId,
        businessId: businesses.id,
        businessTitle: sql<string>`coalesce(${businesses.title}, ${businessSuggestions.title}, '')`,
        suggestionId: notifications.suggestionId,
        reason: notifications.reason,
      })
      .from(notifications)
      // A notice about a suggestion or a claim has no comment: its business (if any) is its own.
      .leftJoin(comments, eq(comments.id, notifications.commentId))
      .leftJoin(businesses, eq(businesses.id, sql`coalesce(${notifications.businessId}, ${comments.businessId})`))
      .leftJoin(businessSuggestions, eq(businessSuggestions.id, notifications.suggestionId))
      .leftJoin(actorUser, eq(actorUser.id, notifications.actorId))
      .leftJoin(linkedReply, eq(linkedReply.id, notifications.replyId))
      .leftJoin(latestUser, and(openThread, eq(latestUser.id, liveActor(firstReplyOf(linkedReply)))))
  );
}

/**
 * The list and the count the bell shows; exported so the query-plan test checks these statements.
 * The list is the unread rows and the read ones, each newest first on its own partial index,
 * merged (UNION ALL with ORDER BY: SQLite reads each arm in index order and stops at the limit).
 * A new row enters only the unread index; the read one is written when a row is read.
 */
export function notificationQueries(db: Db) {
  // keptParam: bound to a `column = ?` term of a join, the user's id made SQLite compile each of
  // these statements anew on every run (the list ~0.4 ms of its ~0.5 at 74 rows; decision 003).
  const mine = sql`${notifications.userId} = ${keptParam(p.me)}`;
  const after = sql`(${notifications.createdAt}, ${rowid}) < (${p.t}, ${p.k})`;
  const arms = (from?: SQL) => [
    listRows(db).where(and(mine, isNull(notifications.readAt), from, seen)),
    listRows(db).where(and(mine, isNotNull(notifications.readAt), from, seen)),
  ];
  // A compound's ORDER BY names result columns: createdAt (4th) and rowid (2nd) of listRows.
  const newestFirst = sql`4 desc, 2 desc`;
  const [unreadRows, readRows] = arms();
  const [unreadAfter, readAfter] = arms(after);
  return {
    list: unreadRows.unionAll(readRows).orderBy(newestFirst).limit(keptLimit(p.limit)),
    listAfter: unreadAfter.unionAll(readAfter).orderBy(newestFirst).limit(keptLimit(p.limit)),
    unread: db
      .select({ n: sql<number>`count(*)` })
      .from(notifications)
      .leftJoin(comments, eq(comments.id, notifications.commentId))
      .leftJoin(actorUser, eq(actorUser.id, notifications.actorId))
      .leftJoin(linkedReply, eq(linkedReply.id, notifications.replyId))
      .where(and(mine, isNull(notifications.readAt), seen)),
  };
}

const reads = preparedStatements(notificationQueries);
type ListRow = Awaited<ReturnType<ReturnType<typeof reads>['list']['all']>>[number];

/** Where an entry leads (the mails add the reader's language): see NotificationItem.link. */
export function notificationPath(r: { kind: string; commentId: string | null; replyId: string | null; businessId: string | null }): string {
  if (r.commentId !== null) return `/comment/${encodeURIComponent(r.commentId)}#${r.replyId ? `reply-${r.replyId}` : `comment-${r.commentId}`}`;
  if (r.kind === 'suggestionRejected' || r.businessId === null) return r.kind === 'claimRejected' ? '/user' : '/suggest';
  return r.kind === 'claimRejected' ? '/user' : `/business/${encodeURIComponent(r.businessId)}`;
}

function toItem(r: ListRow): NotificationItem {
  return {
    _id: String(r.id),
    kind: r.kind as NotificationKind,
    createdAt: new Date(r.createdAt).toISOString(),
    read: r.readAt !== null,
    count: r.count,
    actor: r.actorId === null ? null : { _id: r.actorId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' },
    commentId: r.commentId,
    replyId: r.replyId,
    businessId: r.businessId,
    businessTitle: r.businessTitle,
    suggestionId: r.suggestionId,
    reason: r.reason,
    link: notificationPath(r),
  };
}

/**
 * Queued replies and reactions, and new reviews of the user's favourites, become rows before a
 * read. These are personal rows (notifications, the user's watermark) that no public reply
 * shows, so they leave the data stamp alone (unshownWrite, docs/decisions/001): a signed-in
 * member's bell on every page view would otherwise empty the public cache for every visitor.
 */
function catchUp(db: Db, userId: string, now: number): void {
  unshownWrite(db, () => {
    drainNotificationEvents(db);
    pullFavoriteReviews(db, userId, now);
  });
}

/** The unread count of the bell (after pulling new reviews of the user's favourites). */
export function unreadCount(deps: Deps, actor: Actor, now = Date.now()): number {
  const me = requireSignedIn(actor);
  catchUp(deps.db, me.id, now);
  return reads(deps.db).unread.get({ me: me.id })?.n ?? 0;
}

/** The signed-in user's notifications, newest first, by cursor, with the unread count. */
export function listNotifications(deps: Deps, actor: Actor, input: NotificationsInput, now = Date.now()): NotificationsPage {
  const me = requireSignedIn(actor);
  catchUp(deps.db, me.id, now);
  const limit = input.limit ?? NOTIFICATIONS_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const q = reads(deps.db);
  const rows = cursor ? q.listAfter.all({ me: me.id, limit: limit + 1, t: cursor.t, k: cursor.k }) : q.list.all({ me: me.id, limit: limit + 1 });
  const page = pageOf(rows, limit, (r) => [r.createdAt, r.rowid], toItem);
  return { ...page, unread: q.unread.get({ me: me.id })?.n ?? 0 };
}

/** Marks the caller's notifications read (some by id, or all); others' ids change nothing. Returns the unread count after. */
export async function markNotificationsRead(deps: Deps, actor: Actor, input: MarkReadInput, now = Date.now()): Promise<{ unread: number }> {
  const me = requireSignedIn(actor);
  await deps.limits.consume('edit', me.id);
  // "All" is all up to now, queued events included.
  unshownWrite(deps.db, () => drainNotificationEvents(deps.db));
  // Ids are the rows' integer keys in decimal; anything else names no row.
  const ids = 'all' in input ? undefined : input.ids.filter((id) => /^[1-9][0-9]{0,15}$/.test(id)).map(Number);
  // A user's own rows, which no public reply shows: the public cache stays (unshownWrite).
  unshownWrite(deps.db, () => markReadQuery(deps.db, me.id, now, ids).run());
  return { unread: unreadCount(deps, actor) };
}

/**
 * Marks a user's unread notifications read (those of `ids`, or all). An open thread notice keeps
 * the count and latest replier it had when read (settledThread). Exported for the query-plan test.
 */
export function markReadQuery(db: Db, userId: string, now: number, ids?: number[]) {
  return db
    .update(notifications)
    .set({ readAt: now, ...settledThread })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids === undefined ? undefined : inArray(notifications.id, ids)));
}

/** Deletes read notifications older than READ_NOTIFICATIONS_KEPT_MS (hourly maintenance); returns how many. */
export function pruneReadNotifications(db: Db, now = Date.now()): number {
  return db
    .delete(notifications)
    .where(and(isNotNull(notifications.readAt), lt(notifications.readAt, now - READ_NOTIFICATIONS_KEPT_MS)))
    .run().changes;
}
