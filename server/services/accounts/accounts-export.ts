import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, businessRatings, commentRatings, comments, favorites, images, replies, replyRatings } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { uploadUrl } from '../../lib/urls';
import { requireSignedIn, type Actor } from '../actor';
import { findPublicUser, type PublicUser } from './users';

const iso = (ms: number) => new Date(ms).toISOString();

export type UserDataExport = {
  exportedAt: string;
  profile: PublicUser;
  favorites: { businessId: string; business: string; addedAt: string }[];
  businessRatings: { businessId: string; business: string; rate: number; ratedAt: string }[];
  comments: {
    _id: string;
    businessId: string;
    business: string;
    businessLocation: string;
    text: string;
    image: string | null;
    createdAt: string;
    updatedAt: string;
  }[];
  replies: { _id: string; commentId: string; businessId: string; text: string; image: string | null; createdAt: string; updatedAt: string }[];
  commentRatings: { commentId: string; rate: number; ratedAt: string }[];
  replyRatings: { replyId: string; rate: number; ratedAt: string }[];
};

/**
 * Everything the site keeps about the signed-in user (GDPR access and portability): the profile
 * without secrets, favourites, ratings, comments and replies. Banned users may export too.
 */
export function exportUserData(deps: Deps, actor: Actor): UserDataExport {
  const me = requireSignedIn(actor);
  const { db } = deps;
  const profile = findPublicUser(db, me.id);
  if (!profile) throw new AppError('NOT_FOUND', 'userNotFound');
  const commentImage = alias(images, 'comment_image');
  const replyImage = alias(images, 'reply_image');

  return {
    exportedAt: new Date().toISOString(),
    profile,
    favorites: db
      .select({ businessId: favorites.businessId, business: businesses.title, createdAt: favorites.createdAt })
      .from(favorites)
      .innerJoin(businesses, eq(businesses.id, favorites.businessId))
      .where(eq(favorites.userId, me.id))
      .orderBy(asc(favorites.createdAt))
      .all()
      .map((f) => ({ businessId: f.businessId, business: f.business, addedAt: iso(f.createdAt) })),
    businessRatings: db
      .select({ businessId: businessRatings.businessId, business: businesses.title, rate: businessRatings.rate, updatedAt: businessRatings.updatedAt })
      .from(businessRatings)
      .innerJoin(businesses, eq(businesses.id, businessRatings.businessId))
      .where(eq(businessRatings.userId, me.id))
      .orderBy(asc(businessRatings.createdAt))
      .all()
      .map((r) => ({ businessId: r.businessId, business: r.business, rate: r.rate, ratedAt: iso(r.updatedAt) })),
    comments: db
      .select({
        id: comments.id,
        businessId: comments.businessId,
        business: businesses.title,
        businessLocation: comments.businessLocation,
        text: comments.text,
        imageFile: commentImage.fileName,
        createdAt: comments.createdAt,
        updatedAt: comments.updatedAt,
      })
      .from(comments)
      .innerJoin(businesses, eq(businesses.id, comments.businessId))
      .leftJoin(commentImage, eq(commentImage.id, comments.imageId))
      .where(eq(comments.userId, me.id))
      .orderBy(asc(comments.createdAt))
      .all()
      .map((c) => ({
        _id: c.id,
        businessId: c.businessId,
        business: c.business,
        businessLocation: c.businessLocation,
        text: c.text,
        image: uploadUrl(c.imageFile),
        createdAt: iso(c.createdAt),
        updatedAt: iso(c.updatedAt),
      })),
    replies: db
      .select({
        id: replies.id,
        commentId: replies.commentId,
        businessId: replies.businessId,
        text: replies.text,
        imageFile: replyImage.fileName,
        createdAt: replies.createdAt,
        updatedAt: replies.updatedAt,
      })
      .from(replies)
      .leftJoin(replyImage, eq(replyImage.id, replies.imageId))
      .where(eq(replies.userId, me.id))
      .orderBy(asc(replies.createdAt))
      .all()
      .map((r) => ({
        _id: r.id,
        commentId: r.commentId,
        businessId: r.businessId,
        text: r.text,
        image: uploadUrl(r.imageFile),
        createdAt: iso(r.createdAt),
        updatedAt: iso(r.updatedAt),
      })),
    commentRatings: db
      .select({ commentId: commentRatings.commentId, rate: commentRatings.rate, createdAt: commentRatings.createdAt })
      .from(commentRatings)
      .where(eq(commentRatings.userId, me.id))
      .orderBy(asc(commentRatings.createdAt))
      .all()
      .map((r) => ({ commentId: r.commentId, rate: r.rate, ratedAt: iso(r.createdAt) })),
    replyRatings: db
      .select({ replyId: replyRatings.replyId, rate: replyRatings.rate, createdAt: replyRatings.createdAt })
      .from(replyRatings)
      .where(eq(replyRatings.userId, me.id))
      .orderBy(asc(replyRatings.createdAt))
      .all()
      .map((r) => ({ replyId: r.replyId, rate: r.rate, ratedAt: iso(r.createdAt) })),
  };
}
