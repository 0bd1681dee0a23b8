import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { comments, images, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { uploadUrl } from '../../lib/urls';
import { PHOTOS_PAGE, type BusinessPhotosInput, type Photo, type PhotosPage } from '../../../shared/schemas/photos';
import { decodeCursor, encodeCursor } from './comment-pages';
import { shownLastName } from '../accounts/names';
import { requireBusiness } from './comments';

/*
 * A business's photo gallery: every picture of its public comments and of the public replies to
 * them, newest first, by keyset cursor (created_at, id) over both tables. Each table is read
 * through a partial index holding exactly its public posts with a picture (migration 0010), so a
 * page and the total are index walks, never a scan of the business's posts. Nothing depends on
 * who asks: the answer is the same for everyone and sits in the public cache.
 */

type PhotoCursor = { t: number; k: string } | null;

const publicComment = and(isNotNull(comments.imageId), isNull(comments.hiddenAt), isNull(comments.removedAt));
const publicReply = and(isNotNull(replies.imageId), isNull(replies.hiddenAt), isNull(replies.removedAt));

/**
 * Rows strictly after the cursor in (created_at DESC, id DESC) order, as one row-value
 * comparison: SQLite walks the index from there, where the spelled-out OR would make it merge
 * two index ranges and sort them.
 */
const after = (
  createdAt: typeof comments.createdAt | typeof replies.createdAt,
  id: typeof comments.id | typeof replies.id,
  cursor: PhotoCursor,
): SQL | undefined => (cursor ? sql`(${createdAt}, ${id}) < (${cursor.t}, ${cursor.k})` : undefined);

function commentPhotos(db: Db, businessId: string, cursor: PhotoCursor, limit: number) {
  return db
    .select({
      kind: sql<Photo['kind']>`'comment'`,
      id: comments.id,
      commentId: comments.id,
      fileName: images.fileName,
      width: images.width,
      height: images.height,
      firstName: users.firstName,
      lastName: shownLastName(users),
      createdAt: comments.createdAt,
    })
    .from(comments)
    .innerJoin(images, eq(images.id, comments.imageId))
    .innerJoin(users, eq(users.id, comments.userId))
    .where(and(eq(comments.businessId, businessId), publicComment, after(comments.createdAt, comments.id, cursor)))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(limit);
}

/** A reply shows while its comment does; a comment a moderator removed keeps its replies. */
const parentShown = sql`NOT EXISTS (SELECT 1 FROM ${comments} WHERE ${comments.id} = ${replies.commentId} AND ${comments.hiddenAt} IS NOT NULL)`;

function replyPhotos(db: Db, businessId: string, cursor: PhotoCursor, limit: number) {
  return db
    .select({
      kind: sql<Photo['kind']>`'reply'`,
      id: replies.id,
      commentId: replies.commentId,
      fileName: images.fileName,
      width: images.width,
      height: images.height,
      firstName: users.firstName,
      lastName: shownLastName(users),
      createdAt: replies.createdAt,
    })
    .from(replies)
    .innerJoin(images, eq(images.id, replies.imageId))
    .innerJoin(users, eq(users.id, replies.userId))
    .where(and(eq(replies.businessId, businessId), publicReply, parentShown, after(replies.createdAt, replies.id, cursor)))
    .orderBy(desc(replies.createdAt), desc(replies.id))
    .limit(limit);
}

const countComments = (db: Db, businessId: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(comments)
    .where(and(eq(comments.businessId, businessId), publicComment));
const countReplies = (db: Db, businessId: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(replies)
    .where(and(eq(replies.businessId, businessId), publicReply, parentShown));

/** The gallery's queries as built, for the query-plan tests. */
export const photoQueries = { commentPhotos, replyPhotos, countComments, countReplies };

export function countBusinessPhotos(db: Db, businessId: string): number {
  return (countComments(db, businessId).get()?.n ?? 0) + (countReplies(db, businessId).get()?.n ?? 0);
}

type PhotoRow = Awaited<ReturnType<typeof commentPhotos>>[number];
const newerFirst = (a: PhotoRow, b: PhotoRow) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function listBusinessPhotos(deps: Deps, input: BusinessPhotosInput): PhotosPage {
  const { db } = deps;
  requireBusiness(db, input.id);
  const limit = input.limit ?? PHOTOS_PAGE;
  const cursor = decodeCursor(input.cursor, 'string');
  // Each table's next limit + 1 rows; merged, the first limit + 1 of them decide the page.
  const rows = [...commentPhotos(db, input.id, cursor, limit + 1).all(), ...replyPhotos(db, input.id, cursor, limit + 1).all()].sort(newerFirst);
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    total: countBusinessPhotos(db, input.id),
    items: shown.map((r) => ({
      id: r.id,
      kind: r.kind,
      commentId: r.commentId,
      url: uploadUrl(r.fileName) as string,
      width: r.width,
      height: r.height,
      author: { firstName: r.firstName, lastName: r.lastName },
      createdAt: r.createdAt,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
