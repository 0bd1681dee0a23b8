import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { alias } from 'drizzle-orm/sqlite-core';
import { images, users, type comments, type replies } from '../../../db/schema';
import { uploadUrl } from '../../lib/urls';
import type { PostCard } from '../../../shared/schemas/post-cards';
import { emojiCountsOf } from './emoji-ratings';
import { shownLastName } from '../accounts/names';

/**
 * The base of every comment and reply card (shared/schemas/post-cards.ts): the columns a list
 * reads and the card fields built from them, once for both kinds of post. comment-cards.ts and
 * replies.ts add their own joins (the caller's rating and open report) and fields.
 */

export const avatar = alias(images, 'avatar');
export const photo = alias(images, 'photo');

type PostTable = typeof comments | typeof replies;

/**
 * The shared columns of `post` (comments or replies), joined to the author (`users`), their
 * avatar and the post's photo. `myRate` and `myReport` are the caller's own rating and open
 * report rows; `me` and `admin` the viewer's placeholders.
 */
export function postColumns(post: PostTable, my: { rate: SQL<number | null>; report: SQL<string | null> }, viewer: { me: Placeholder; admin: Placeholder }) {
  return {
    id: post.id,
    rowid: sql<number>`${post}.rowid`,
    userId: post.userId,
    businessId: post.businessId,
    text: post.text,
    imageId: post.imageId,
    ratingCount: post.ratingCount,
    ratingAvg: post.ratingAvg,
    rated1: post.rated1,
    rated2: post.rated2,
    rated3: post.rated3,
    rated4: post.rated4,
    rated5: post.rated5,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    firstName: users.firstName,
    lastName: shownLastName(users),
    avatarFile: avatar.fileName,
    photoFile: photo.fileName,
    myRate: my.rate,
    hiddenAt: post.hiddenAt,
    removedAt: post.removedAt,
    // Only the author and admins read why a moderator removed it.
    removalReason: sql<string | null>`case when ${post.userId} = ${viewer.me} or ${viewer.admin} = 1 then ${post.removalReason} end`,
    myReport: my.report,
  };
}

type Selected = SelectResultFields<ReturnType<typeof postColumns>>;
/** What the LEFT JOINs read: null where the join found no row. */
type Joined = 'firstName' | 'avatarFile' | 'photoFile';
/** A row of the shared columns, as a select returns it. */
export type PostRow = Omit<Selected, Joined> & { [K in Joined]: Selected[K] | null };

/** The card fields every post has, from its row. */
export function postCardOf(r: PostRow): PostCard {
  return {
    _id: r.id,
    userId: r.userId,
    businessId: r.businessId,
    text: r.text,
    image: uploadUrl(r.photoFile),
    rate: r.ratingAvg,
    ratingCount: r.ratingCount,
    emojiCounts: emojiCountsOf(r),
    myRate: r.myRate ?? null,
    firstName: r.firstName ?? '',
    lastName: r.lastName ?? '',
    userImage: uploadUrl(r.avatarFile),
    date: new Date(r.createdAt).toISOString(),
    edited: r.updatedAt > r.createdAt,
    hidden: r.hiddenAt !== null,
    removed: r.removedAt !== null,
    removalReason: r.removedAt === null ? null : (r.removalReason ?? null),
    reportedByMe: r.myReport !== null,
  };
}
