import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../../../db/client';
import { comments, replies, replyRatings, reports, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { businessWrite } from '../../lib/data-stamp';
import { AppError } from '../../lib/errors';
import { inTransaction, keptLimit, keptParam, preparedStatements } from '../../lib/prepared';
import { newId } from '../../lib/ids';
import {
  REPLIES_PAGE,
  type Page,
  type PageInput,
  type RepliesInput,
  type ReplyCard,
  type ReplyCreateInput,
  type ReplyUpdateInput,
} from '../../../shared/schemas/comments';
import { isModeratorActor, requireActive, requireActiveFor, type Actor } from '../actor';
import { decodeCursor, pageOf } from './comment-pages';
import { avatar, photo, postCardOf, postColumns } from './post-cards';
import { releaseImages } from './images';
import { resolvePostImage, writeWithImage, type WithUpload } from './post-images';
import { recordModAction } from '../moderation/mod-log';
import { editPost } from './post-edit';
import { checkNewPost } from '../moderation/spam';
import { deleteReplyNotifications, notifyReply } from '../notifications/notifications';

const mine = alias(replyRatings, 'mine');
const myReport = alias(reports, 'my_report');
const parent = alias(comments, 'parent');
const rowid = sql<number>`${replies}.rowid`;

const p = {
  me: sql.placeholder('me'),
  limit: sql.placeholder('limit'),
  t: sql.placeholder('t'),
  k: sql.placeholder('k'),
  commentId: sql.placeholder('commentId'),
  id: sql.placeholder('id'),
  admin: sql.placeholder('admin'),
};

/** The post base and a reply's own. */
const replyColumns = {
  ...postColumns(replies, { rate: sql<number | null>`${mine.rate}`, report: sql<string | null>`${myReport.id}` }, p),
  commentId: replies.commentId,
};

/**
 * Replies with author, avatar, picture, the caller's rate and open report; LEFT JOINs keep `replies` outer.
 * The viewer is a keptParam in the join terms, as in comment-cards.ts: bound bare, SQLite (with the
 * statistics of a real site) compiled each statement anew on every run.
 */
function replyRows(db: Db, me: unknown = keptParam(p.me)) {
  return (
    db
      .select(replyColumns)
      .from(replies)
      .leftJoin(users, eq(users.id, replies.userId))
      .leftJoin(avatar, eq(avatar.id, users.imageId))
      .leftJoin(photo, eq(photo.id, replies.imageId))
      .leftJoin(mine, and(eq(mine.replyId, replies.id), eq(mine.userId, me as string)))
      // reports_open_reply_idx is partial (resolved_at is null): the ON clause repeats that term.
      .leftJoin(myReport, and(eq(myReport.replyId, replies.id), eq(myReport.reporterId, me as string), isNull(myReport.resolvedAt)))
  );
}

// replies_comment_idx is (comment_id, created_at) and replies_created_at_idx (created_at); SQLite
// appends the rowid to both, so (created_at, rowid) orders and pages without a sort.
const newestFirst = [desc(replies.createdAt), desc(rowid)] as const;
const after = sql`(${replies.createdAt}, ${rowid}) < (${p.t}, ${p.k})`;
/** A thread reads as a conversation, oldest first (issue 29.8): the same index, walked forwards. */
const oldestFirst = [asc(replies.createdAt), asc(rowid)] as const;
const later = sql`(${replies.createdAt}, ${rowid}) > (${p.t}, ${p.k})`;
const ofComment = eq(replies.commentId, p.commentId);
/** Hidden replies only for their author and admins; tested on rows the index walk reads anyway. */
const visible = sql`(${replies.hiddenAt} is null or ${replies.userId} = ${keptParam(p.me)} or ${p.admin} = 1)`;
/** The site-wide list also leaves out replies under a hidden comment (one primary-key lookup per row). */
const visibleAnywhere = sql`((${replies.hiddenAt} is null and ${parent.hiddenAt} is null) or ${replies.userId} = ${keptParam(p.me)} or ${p.admin} = 1)`;

export function replyQueries(db: Db) {
  return {
    ofComment: replyRows(db)
      .where(and(ofComment, visible))
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    ofCommentAfter: replyRows(db)
      .where(and(ofComment, after, visible))
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    thread: replyRows(db)
      .where(and(ofComment, visible))
      .orderBy(...oldestFirst)
      .limit(keptLimit(p.limit)),
    threadAfter: replyRows(db)
      .where(and(ofComment, later, visible))
      .orderBy(...oldestFirst)
      .limit(keptLimit(p.limit)),
    all: replyRows(db)
      .leftJoin(parent, eq(parent.id, replies.commentId))
      .where(visibleAnywhere)
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    allAfter: replyRows(db)
      .leftJoin(parent, eq(parent.id, replies.commentId))
      .where(and(after, visibleAnywhere))
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    byId: replyRows(db).where(and(sql`${replies.id} = ${keptParam(p.id)}`, visible)),
  };
}

const prepared = preparedStatements(replyQueries);
type Prepared = ReturnType<typeof prepared>;

type ReplyRow = Awaited<ReturnType<Prepared['byId']['all']>>[number];

function toReplyCard(r: ReplyRow): ReplyCard {
  return { ...postCardOf(r), commentId: r.commentId };
}

const viewerOf = (actor: Actor) => ({ me: actor?.id ?? null, admin: isModeratorActor(actor) ? 1 : 0 });
const keyOf = (r: ReplyRow): [number, number] => [r.createdAt, r.rowid];

export function getReplyCard(db: Db, actor: Actor, id: string): ReplyCard {
  const row = prepared(db).byId.get({ ...viewerOf(actor), id });
  if (!row) throw new AppError('NOT_FOUND', 'replyNotFound');
  return toReplyCard(row);
}

/** A comment's replies, oldest first (a thread reads as a conversation), by cursor. */
export function listReplies(deps: Deps, actor: Actor, input: RepliesInput): Page<ReplyCard> {
  const { db } = deps;
  const comment = db.select({ userId: comments.userId, hiddenAt: comments.hiddenAt }).from(comments).where(eq(comments.id, input.commentId)).get();
  // A hidden comment's thread is hidden with it, except from its author and admins (reports.ts).
  const mayRead = comment && (comment.hiddenAt === null || comment.userId === actor?.id || isModeratorActor(actor));
  if (!mayRead) throw new AppError('NOT_FOUND', 'commentNotFound');
  const limit = input.limit ?? REPLIES_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const q = prepared(db);
  const args = { ...viewerOf(actor), limit: limit + 1, commentId: input.commentId };
  const rows = cursor ? q.threadAfter.all({ ...args, t: cursor.t, k: cursor.k }) : q.thread.all(args);
  return pageOf(rows, limit, keyOf, toReplyCard);
}

/** Every reply on the site, newest first, by cursor (REST GET /subComment). */
export function listAllReplies(deps: Deps, actor: Actor, input: PageInput): Page<ReplyCard> {
  const limit = input.limit ?? REPLIES_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const q = prepared(deps.db);
  const args = { ...viewerOf(actor), limit: limit + 1 };
  const rows = cursor ? q.allAfter.all({ ...args, t: cursor.t, k: cursor.k }) : q.all.all(args);
  return pageOf(rows, limit, keyOf, toReplyCard);
}

/** The newest `perComment` replies of each listed comment, so one busy thread cannot make a page huge. */
export function replyPreviews(db: Db, actor: Actor, commentIds: string[], perComment: number): Map<string, ReplyCard[]> {
  const byComment = new Map<string, ReplyCard[]>();
  const q = prepared(db);
  const viewer = viewerOf(actor);
  // One short walk of replies_comment_idx per comment, stopping at `perComment`: a popular
  // comment's thousands of replies are never ranked. In-process SQLite makes small queries cheap.
  for (const commentId of new Set(commentIds)) {
    byComment.set(commentId, q.ofComment.all({ ...viewer, commentId, limit: perComment }).map(toReplyCard));
  }
  return byComment;
}

/** Replies to a comment; the comment's reply count moves in the same transaction. */
/**
 * A reply's writes, compiled once (a reply is one of the bench's write rows, issue 32 item 3):
 * Drizzle built and SQLite prepared each of them on every call, and `db.transaction` a
 * transaction object per call, before.
 */
const replyWrites = preparedStatements((db: Db) => ({
  parent: db.select({ businessId: comments.businessId, removedAt: comments.removedAt }).from(comments).where(eq(comments.id, p.id)),
  insert: db.insert(replies).values({
    id: p.id,
    commentId: p.commentId,
    businessId: sql.placeholder('businessId'),
    userId: p.me,
    text: sql.placeholder('text'),
    imageId: sql.placeholder('imageId'),
    createdAt: p.t,
    updatedAt: p.t,
  }),
  countOne: db
    .update(comments)
    .set({ replyCount: sql`${comments.replyCount} + 1` })
    .where(eq(comments.id, p.commentId)),
}));

export async function createReply(deps: Deps, actor: Actor, input: WithUpload<ReplyCreateInput>): Promise<ReplyCard> {
  const author = requireActiveFor(actor, 'replyLoginRequired');
  await deps.limits.consume('post', author.id);
  const { db } = deps;
  const w = replyWrites(db);
  const parentOf = () => {
    const parent = w.parent.get({ id: input.commentId });
    if (!parent) throw new AppError('NOT_FOUND', 'commentNotFound');
    // A moderator's removal ends the thread: its replies stay readable, no new ones come.
    if (parent.removedAt !== null) throw new AppError('FORBIDDEN', 'postRemovedNoReplies');
    return parent;
  };
  parentOf();
  checkNewPost(deps, author.id, input.text);
  const image = await resolvePostImage(deps, author.id, 'reply', input);
  const id = newId();
  await writeWithImage(deps, image.stored, () =>
    // Shown by the comment's business's pages and the site-wide lists (data-stamp.ts).
    businessWrite(db, (touches) =>
      inTransaction(db, () => {
        // Checked again inside: the comment may have gone while the picture was processed.
        const parent = parentOf();
        touches(parent.businessId);
        const now = Date.now();
        w.insert.run({
          id,
          commentId: input.commentId,
          businessId: parent.businessId,
          me: author.id,
          text: input.text,
          imageId: image.imageId ?? null,
          t: now,
        });
        w.countOne.run({ commentId: input.commentId });
        notifyReply(db, author.id, input.commentId, id, now);
      }),
    ),
  );
  return getReplyCard(db, actor, id);
}

export function findReply(db: Db, id: string) {
  const row = db
    .select({ id: replies.id, userId: replies.userId, imageId: replies.imageId, commentId: replies.commentId, text: replies.text })
    .from(replies)
    .where(eq(replies.id, id))
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'replyNotFound');
  return row;
}

/** The author edits a reply's text and picture (post-edit.ts). */
export async function updateReply(deps: Deps, actor: Actor, input: WithUpload<ReplyUpdateInput>): Promise<ReplyCard> {
  await editPost(deps, actor, 'reply', input);
  return getReplyCard(deps.db, actor, input.id);
}

/**
 * Deletes a reply (its author, or an admin moderating) with its ratings; the comment's reply
 * count moves in the same transaction.
 */
export async function deleteReply(deps: Deps, actor: Actor, id: string): Promise<void> {
  const who = requireActive(actor);
  await deps.limits.consume('delete', who.id);
  const row = findReply(deps.db, id);
  if (row.userId !== who.id && !isModeratorActor(who)) throw new AppError('FORBIDDEN', 'replyNotYours');
  // An admin removing someone else's reply is moderating: the log keeps it.
  const moderated = row.userId !== who.id;
  await destroyReply(
    deps,
    id,
    moderated ? (tx) => recordModAction(tx, who, { action: 'remove', targetKind: 'reply', targetId: id, excerpt: row.text }) : undefined,
  );
}

/** Deletes a reply and its ratings and moves the comment's reply count; `alongside` runs in the same transaction. */
export async function destroyReply(deps: Deps, id: string, alongside?: (tx: DbOrTx) => void): Promise<void> {
  const imageIds = deps.db.transaction((tx) => {
    alongside?.(tx);
    const gone = tx
      .delete(replies)
      .where(eq(replies.id, id))
      .returning({ imageId: replies.imageId, commentId: replies.commentId, hiddenAt: replies.hiddenAt })
      .all();
    if (gone.length === 0) throw new AppError('NOT_FOUND', 'replyNotFound');
    deleteReplyNotifications(tx, [{ commentId: gone[0].commentId, id }]);
    // A hidden reply has already left the count (reports.ts).
    if (gone[0].hiddenAt === null) {
      tx.update(comments)
        .set({ replyCount: sql`max(${comments.replyCount} - 1, 0)` })
        .where(eq(comments.id, gone[0].commentId))
        .run();
    }
    return [gone[0].imageId];
  });
  await releaseImages(deps, imageIds);
}
