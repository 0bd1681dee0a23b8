import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { businesses, comments, images, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { keptLimit, preparedStatements } from '../../lib/prepared';
import { uploadUrl } from '../../lib/urls';
import {
  MY_POSTS_PAGE,
  PROFILE_PAGE,
  type MyPost,
  type MyPostsInput,
  type MyPostsPage,
  type ProfileQuery,
  type ProfileReview,
  type PublicProfile,
} from '../../../shared/schemas/profiles';
import { requireSignedIn, type Actor } from '../actor';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { shownLastName } from './names';

const avatar = alias(images, 'avatar');
const photo = alias(images, 'photo');
const rowid = sql<number>`${comments}.rowid`;
const id = sql.placeholder('id');

// A user's public comments: the list walks comments_user_idx (user_id, created_at, business_id;
// rowid appended) newest first, skips the few hidden or removed ones, and stops at the page.
// The order is the index's own, so business_id sits between the date and the rowid (reviews of
// the same millisecond); a cursor still carries the date and the rowid only.
const byIndex = [desc(comments.createdAt), desc(comments.businessId), desc(rowid)] as const;
/**
 * Rows after a cursor (t, k: the date and rowid of the last row shown) in the index's order. The
 * cursor's business is its row's, looked up once; a row deleted since then leaves '' in its place,
 * so the page goes on from the rows older than its date (any other review of that same
 * millisecond not yet shown is skipped).
 */
const afterCursor = (userId: typeof id) =>
  sql`(${comments.createdAt}, ${comments.businessId}, ${rowid}) < (${sql.placeholder('t')}, coalesce((select ${comments.businessId} from ${comments} where ${rowid} = ${sql.placeholder('k')} and ${comments.userId} = ${userId}), ''), ${sql.placeholder('k')})`;
const publicOf = (userId: typeof id) => and(eq(comments.userId, userId), isNull(comments.hiddenAt), isNull(comments.removedAt));
const publicReplies = and(eq(replies.userId, users.id), isNull(replies.hiddenAt), isNull(replies.removedAt));
const publicComments = and(eq(comments.userId, users.id), isNull(comments.hiddenAt), isNull(comments.removedAt));

const reviewColumns = {
  id: comments.id,
  rowid,
  businessId: comments.businessId,
  businessTitle: businesses.title,
  businessLocation: comments.businessLocation,
  stars: comments.authorRate,
  text: comments.text,
  photoFile: photo.fileName,
  replyCount: comments.replyCount,
  rate: comments.ratingAvg,
  ratingCount: comments.ratingCount,
  createdAt: comments.createdAt,
};

/** The profile's statements; exported so the query-plan test checks exactly these. */
export function profileQueries(db: Db) {
  const reviews = () =>
    db.select(reviewColumns).from(comments).leftJoin(businesses, eq(businesses.id, comments.businessId)).leftJoin(photo, eq(photo.id, comments.imageId));
  return {
    // The counts are aggregates over the user's own rows, each read from an index on user_id:
    // comments from comments_user_idx, replies from replies_user_idx.
    head: db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: shownLastName(users),
        avatarFile: avatar.fileName,
        createdAt: users.createdAt,
        reviews: sql<number>`(select count(*) from ${comments} where ${publicComments})`,
        replies: sql<number>`(select count(*) from ${replies} where ${publicReplies})`,
        reactions: sql<number>`(select coalesce(sum(${comments.ratingCount}), 0) from ${comments} where ${publicComments})
          + (select coalesce(sum(${replies.ratingCount}), 0) from ${replies} where ${publicReplies})`,
      })
      .from(users)
      .leftJoin(avatar, eq(avatar.id, users.imageId))
      .where(eq(users.id, id)),
    reviews: reviews()
      .where(publicOf(id))
      .orderBy(...byIndex)
      .limit(keptLimit(sql.placeholder('limit'))),
    reviewsAfter: reviews()
      .where(and(publicOf(id), afterCursor(id)))
      .orderBy(...byIndex)
      .limit(keptLimit(sql.placeholder('limit'))),
    // Your own posts (issue 30, item 7), newest posted first: comments_user_idx is (user_id,
    // created_at, business_id) with the rowid appended and replies_user_idx (user_id) with the
    // rowid, so each page is an index walk from the cursor down that stops at the limit.
    myReviews: db
      .select({ ...myPostColumns(comments), commentId: comments.id })
      .from(comments)
      .leftJoin(businesses, eq(businesses.id, comments.businessId))
      .where(and(eq(comments.userId, id), afterCursor(id)))
      .orderBy(...byIndex)
      .limit(keptLimit(sql.placeholder('limit'))),
    myReplies: db
      .select({ ...myPostColumns(replies), commentId: replies.commentId })
      .from(replies)
      .leftJoin(businesses, eq(businesses.id, replies.businessId))
      .where(and(eq(replies.userId, id), sql`${replies}.rowid < ${sql.placeholder('k')}`))
      .orderBy(desc(sql`${replies}.rowid`))
      .limit(keptLimit(sql.placeholder('limit'))),
  };
}

function myPostColumns(post: typeof comments | typeof replies) {
  return {
    id: post.id,
    rowid: sql<number>`${post}.rowid`,
    businessId: post.businessId,
    businessTitle: businesses.title,
    text: post.text,
    createdAt: post.createdAt,
    hiddenAt: post.hiddenAt,
    removedAt: post.removedAt,
  };
}

const prepared = preparedStatements(profileQueries);

type ReviewRow = ReturnType<ReturnType<typeof prepared>['reviews']['all']>[number];

const toReview = (r: ReviewRow): ProfileReview => ({
  _id: r.id,
  businessId: r.businessId,
  businessTitle: r.businessTitle ?? '',
  businessLocation: r.businessLocation,
  stars: r.stars,
  text: r.text,
  image: uploadUrl(r.photoFile),
  date: new Date(r.createdAt).toISOString(),
  replyCount: r.replyCount,
  rate: r.rate,
  ratingCount: r.ratingCount,
});

/**
 * A user's public profile (GET /api/users/{id}/profile, users.profile; no sign-in): their name
 * as they chose to show it, avatar, member since, counts of their public posts and the
 * reactions those received, and their public reviews newest first, by cursor. Hidden and
 * removed posts never appear, not even to their author or a moderator: this is the public view.
 */
export function getPublicProfile(deps: Deps, input: ProfileQuery): PublicProfile {
  const q = prepared(deps.db);
  const head = q.head.get({ id: input.id });
  if (!head) throw new AppError('NOT_FOUND', 'userNotFound');
  const limit = input.limit ?? PROFILE_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const rows = cursor ? q.reviewsAfter.all({ id: input.id, limit: limit + 1, t: cursor.t, k: cursor.k }) : q.reviews.all({ id: input.id, limit: limit + 1 });
  const page = pageOf(rows, limit, (r) => [r.createdAt, r.rowid], toReview);
  return {
    _id: head.id,
    firstName: head.firstName,
    lastName: head.lastName,
    image: uploadUrl(head.avatarFile),
    memberSince: new Date(head.createdAt).toISOString(),
    counts: { reviews: head.reviews, replies: head.replies, reactions: head.reactions },
    reviews: page.items,
    nextCursor: page.nextCursor,
  };
}

type MyPostRow = ReturnType<ReturnType<typeof prepared>['myReviews']['all']>[number];

const toMyPost = (r: MyPostRow): MyPost => ({
  _id: r.id,
  commentId: r.commentId,
  businessId: r.businessId,
  businessTitle: r.businessTitle ?? '',
  // A removed post's text is gone; its place on the list stays, marked.
  text: r.removedAt === null ? r.text : '',
  date: new Date(r.createdAt).toISOString(),
  hidden: r.hiddenAt !== null,
  removed: r.removedAt !== null,
});

/**
 * Your own reviews or replies (issue 30, item 7: "today you cannot find them"), newest posted
 * first, by cursor, each linking to its thread. Only ever the signed-in user's own, hidden and
 * removed ones included and marked, so an author can find what a moderator acted on.
 */
export function listMyPosts(deps: Deps, actor: Actor, input: MyPostsInput): MyPostsPage {
  const me = requireSignedIn(actor);
  const q = prepared(deps.db);
  const limit = input.limit ?? MY_POSTS_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const k = cursor?.k ?? Number.MAX_SAFE_INTEGER;
  const rows =
    input.kind === 'reviews'
      ? q.myReviews.all({ id: me.id, limit: limit + 1, t: cursor?.t ?? Number.MAX_SAFE_INTEGER, k })
      : q.myReplies.all({ id: me.id, limit: limit + 1, k });
  return pageOf(rows, limit, (r) => [r.createdAt, r.rowid], toMyPost);
}
