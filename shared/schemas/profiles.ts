import { z } from 'zod';
import { idSchema } from './common';

/** Reviews a page of a public profile holds unless asked for fewer. */
export const PROFILE_PAGE = 20;

export const profileInputSchema = z.object({
  id: idSchema,
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(200).optional(),
});
export type ProfileQuery = z.output<typeof profileInputSchema>;

/** One public review on a profile: never hidden or removed. */
export type ProfileReview = {
  _id: string;
  businessId: string;
  businessTitle: string;
  businessLocation: string;
  /** The author's stars for the business (1–5), null while they have none. */
  stars: number | null;
  text: string;
  image: string | null;
  date: string;
  replyCount: number;
  rate: number | null;
  ratingCount: number;
};

/**
 * A public profile (issue 30): what anyone may see of a user. No e-mail, no flags, nothing
 * hidden; the last name as the user chose to show it.
 */
export type PublicProfile = {
  _id: string;
  firstName: string;
  lastName: string;
  image: string | null;
  memberSince: string;
  counts: { reviews: number; replies: number; reactions: number };
  reviews: ProfileReview[];
  nextCursor: string | null;
};

/** Posts a page of your own reviews or replies holds unless asked for fewer (issue 30, item 7). */
export const MY_POSTS_PAGE = 10;

export const myPostsInputSchema = z.object({
  kind: z.enum(['reviews', 'replies']),
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(200).optional(),
});
export type MyPostsInput = z.output<typeof myPostsInputSchema>;

/**
 * One of your own reviews or replies on your profile, newest first: where it is, its text, and
 * whether a moderator's or the reports' decision keeps it from others (only you see those here).
 * One schema for both doors: the type is inferred, REST documents and writes it.
 */
export const myPostSchema = z.object({
  _id: z.string(),
  commentId: z.string().describe('The comment it is (a review) or answers (a reply): /comment/{commentId} shows it.'),
  businessId: z.string(),
  businessTitle: z.string(),
  text: z.string().describe('Empty when a moderator removed it.'),
  date: z.string().describe('ISO 8601'),
  hidden: z.boolean().describe('Hidden by reports while a moderator reviews it.'),
  removed: z.boolean().describe('Removed by a moderator.'),
});
export type MyPost = z.output<typeof myPostSchema>;
export type MyPostsPage = { items: MyPost[]; nextCursor: string | null };
