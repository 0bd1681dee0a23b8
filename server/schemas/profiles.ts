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
