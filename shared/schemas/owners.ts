import { z } from 'zod';
import { idSchema } from './common';
import { COMMENT_TEXT_MAX, COMMENT_TEXT_MIN, type CommentCard } from './comments';
import { withoutInvisible } from './text';

export { ownerMessages } from './owner-messages';

/** A claim's note to the admins: why the member owns the business (optional). */
export const CLAIM_NOTE_MAX = 1000;
/** Claims a page of the admins' list holds. */
export const CLAIMS_PAGE = 50;
/** Unanswered reviews the numbers page lists (newest first). */
export const UNANSWERED_SHOWN = 20;
/** Months the numbers page covers, this one included. */
export const STATS_MONTHS = 12;

export const claimStatuses = ['pending', 'approved', 'rejected'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];

export const claimNoteSchema = z.string().overwrite(withoutInvisible).trim().max(CLAIM_NOTE_MAX, 'claimNoteTooLong');

export const claimCreateSchema = z.object({ businessId: idSchema, note: claimNoteSchema.optional() });
export type ClaimCreateInput = z.output<typeof claimCreateSchema>;

export const claimsQuerySchema = z.object({ status: z.enum(claimStatuses).optional() });
export type ClaimsQuery = z.output<typeof claimsQuerySchema>;

/** A rejection's reason, as the member is told it (optional). */
export const CLAIM_REASON_MAX = 500;
export const claimReasonSchema = z.string().overwrite(withoutInvisible).trim().max(CLAIM_REASON_MAX, 'rejectReasonTooLong');
export const claimDecisionSchema = z.object({ id: idSchema, decision: z.enum(['approve', 'reject']), reason: claimReasonSchema.optional() });
/** POST /api/claims/{id}/reject's optional body. */
export const claimRejectBodySchema = z.object({ reason: claimReasonSchema.optional() });
export type ClaimDecisionInput = z.output<typeof claimDecisionSchema>;

export const ownerRemoveSchema = z.object({ businessId: idSchema, userId: idSchema });

/** An owner's answer: the same bounds as a review's text. */
export const ownerReplyTextSchema = z
  .string({ error: 'ownerReplyTextRequired' })
  .overwrite(withoutInvisible)
  .trim()
  .min(1, { error: 'ownerReplyTextRequired', abort: true })
  .min(COMMENT_TEXT_MIN, { error: 'ownerReplyTooShort', abort: true })
  .max(COMMENT_TEXT_MAX, 'ownerReplyTooLong');

export const ownerReplyInputSchema = z.object({ commentId: idSchema, text: ownerReplyTextSchema });
export type OwnerReplyInput = z.output<typeof ownerReplyInputSchema>;

export type Claim = {
  _id: string;
  businessId: string;
  businessTitle: string;
  userId: string;
  firstName: string;
  lastName: string;
  /** The claimant's address and whether it is confirmed: what an admin checks. Admins only. */
  email: string;
  emailConfirmed: boolean;
  note: string;
  status: ClaimStatus;
  /** ISO 8601. */
  createdAt: string;
  decidedAt: string | null;
};

/** A business the caller owns or has claimed (the profile's "Your business"). */
export type MyBusiness = { businessId: string; title: string; status: ClaimStatus };

export type BusinessOwner = { userId: string; firstName: string; lastName: string; email: string; since: string };

/** One calendar month (Europe/Stockholm) of a business's reviews. */
export type MonthFigures = { month: string; reviews: number; average: number | null };

export type OwnerStats = {
  businessId: string;
  title: string;
  ratingCount: number;
  average: number | null;
  /** Ratings per star level, 1 … 5. */
  breakdown: [number, number, number, number, number];
  reviews: number;
  answered: number;
  /** The last STATS_MONTHS months, oldest first, months without reviews included. */
  months: MonthFigures[];
  /** The newest reviews without an answer, at most UNANSWERED_SHOWN. */
  unanswered: CommentCard[];
};
