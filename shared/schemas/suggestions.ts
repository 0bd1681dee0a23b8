import { z } from 'zod';
import { branchInputSchema } from './business';
import { idSchema } from './common';
import { withoutInvisible } from './text';
export { suggestionMessages } from './suggestion-messages';

/** A member may have this many suggestions waiting for a decision at once. */
export const PENDING_SUGGESTIONS_MAX = 5;
export const WEBSITE_MAX = 200;
export const REJECT_REASON_MAX = 500;
/** Suggestions a page of the queue shows unless asked for fewer. */
export const SUGGESTIONS_PAGE = 50;

export const suggestionStatuses = ['pending', 'approved', 'rejected'] as const;
export type SuggestionStatus = (typeof suggestionStatuses)[number];

const required = (min: number, max: number, short: string, long: string) =>
  z.string({ error: 'required' }).overwrite(withoutInvisible).trim().min(1, { error: 'required', abort: true }).min(min, short).max(max, long);

/** An http(s) address; empty means none. */
const websiteSchema = z
  .string()
  .overwrite(withoutInvisible)
  .trim()
  .max(WEBSITE_MAX, 'websiteTooLong')
  .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+\.[^\s/?#]+([/?#]\S*)?$/i.test(v), 'websiteInvalid')
  .optional();

/**
 * A member's suggestion of a missing place (issue 31.5): name and category as the business form
 * bounds them, one branch (town and street address), a website if they know it.
 */
export const suggestionInputSchema = z.object({
  title: required(2, 50, 'titleTooShort', 'titleTooLong'),
  category: required(2, 50, 'categoryTooShort', 'categoryTooLong'),
  location: branchInputSchema.shape.location,
  address: required(2, 100, 'addressTooShort', 'addressTooLong'),
  website: websiteSchema,
});
export type SuggestionInput = z.output<typeof suggestionInputSchema>;

export const suggestionsPageInputSchema = z.object({
  status: z.enum(suggestionStatuses, { error: 'invalidInput' }).default('pending'),
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(200).optional(),
});
export type SuggestionsPageInput = z.output<typeof suggestionsPageInputSchema>;

export const suggestionIdInputSchema = z.object({ id: idSchema });
export const rejectSuggestionInputSchema = z.object({
  id: idSchema,
  reason: required(2, REJECT_REASON_MAX, 'rejectReasonTooShort', 'rejectReasonTooLong'),
});
export const rejectBodySchema = rejectSuggestionInputSchema.omit({ id: true });

/** A suggestion as the queue and its member see it. */
export type Suggestion = {
  _id: string;
  title: string;
  category: string;
  location: string;
  address: string;
  website: string | null;
  status: SuggestionStatus;
  /** Why it was rejected, as the member is told it. */
  reason: string | null;
  /** The business it became, once approved. */
  businessId: string | null;
  /** ISO 8601. */
  createdAt: string;
  decidedAt: string | null;
  /** Who suggested it (the queue only; their own list leaves it out). */
  suggester?: { _id: string; firstName: string; lastName: string };
};
