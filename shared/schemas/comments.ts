import { z } from 'zod';
import { withoutInvisible } from './text';
import type { EmojiCounts } from './post-cards';
import { idSchema } from './common';
export { commentMessages } from './comment-messages';
import {
  COMMENT_TEXT_MIN,
  COMMENT_TEXT_MAX,
  REPLY_TEXT_MAX,
  LOCATION_MAX,
  LOCATION_MAX_WORDS,
  SEARCH_MAX,
  feedFilters,
  commentSorts,
} from './comment-constants';

export * from './comment-constants';

/**
 * Required text with the form's own messages: missing or blank says `required`, then the
 * minimum, then a generous maximum the description leaves open.
 */
const postText = (required: string, short: string, max: number, long: string) =>
  z
    .string({ error: required })
    .overwrite(withoutInvisible)
    .trim()
    .min(1, { error: required, abort: true })
    .min(COMMENT_TEXT_MIN, { error: short, abort: true })
    .max(max, long);

// Letters of any script (å ä ö é ü ...), digits, underscore and spaces.
const LOCATION_CHARS = /^[\p{L}\p{M}\p{N}_ ]+$/u;

/** Another place than a branch: a place name of at most LOCATION_MAX_WORDS words and LOCATION_MAX characters. */
export const businessLocationSchema = z
  .string({ error: 'commentLocationRequired' })
  .overwrite(withoutInvisible)
  .trim()
  .min(1, { error: 'commentLocationRequired', abort: true })
  .regex(LOCATION_CHARS, { error: 'commentLocationChars', abort: true })
  .refine((v) => v.split(/ +/).length <= LOCATION_MAX_WORDS, { error: 'commentLocationWords', abort: true })
  .max(LOCATION_MAX, 'commentLocationLength')
  // Double spaces would show as gaps on the card; one space between the words is enough.
  .transform((v) => v.replace(/ +/g, ' '));

export const commentTextSchema = postText('commentTextRequired', 'commentTooShort', COMMENT_TEXT_MAX, 'commentTooLong');
export const replyTextSchema = postText('replyTextRequired', 'replyTooShort', REPLY_TEXT_MAX, 'replyTooLong');
export const replyEditTextSchema = postText('replyEditRequired', 'replyEditTooShort', REPLY_TEXT_MAX, 'replyTooLong');

/** An emoji rate 1–5; `null` takes the caller's rating back. */
export const emojiRateSchema = z.number({ error: 'emojiRateInvalid' }).int('emojiRateInvalid').min(1, 'emojiRateInvalid').max(5, 'emojiRateInvalid').nullable();

/** The author's star rating of the business, sent along with a new comment (docs/product.md §4). */
export const businessStarSchema = z.number({ error: 'emojiRateInvalid' }).int('emojiRateInvalid').min(1, 'emojiRateInvalid').max(5, 'emojiRateInvalid');

/** `undefined` keeps the picture, `null` removes it, an id (from POST /api/images) sets it. */
const imageIdSchema = idSchema.nullable().optional();

/**
 * Where a comment is: one of the business's branches (`branchId`), or free text for another
 * place (`businessLocation`, which is linked to a branch it names: services/comments/comment-branches.ts).
 * One of them is required; the service checks that, the client form with commentFormCheckedSchema.
 */
const placeFields = { branchId: idSchema.optional(), businessLocation: businessLocationSchema.optional() };

/** Fields of the comment form, shared by the client form and both doors. */
export const commentFormSchema = z.object({
  text: commentTextSchema,
  ...placeFields,
});
export type CommentFormValues = z.input<typeof commentFormSchema>;
/** The form as the client checks it: a branch picked or a place typed. */
export const commentFormCheckedSchema = commentFormSchema.refine((v) => Boolean(v.branchId || v.businessLocation), {
  path: ['businessLocation'],
  error: 'commentLocationRequired',
});

export const commentCreateSchema = commentFormSchema.extend({
  businessId: idSchema,
  imageId: imageIdSchema,
  rate: businessStarSchema.optional(),
});
export type CommentCreateInput = z.output<typeof commentCreateSchema>;

export const commentEditFormSchema = z.object({ text: commentTextSchema });
/** Without `branchId` and `businessLocation` the comment keeps its place. */
export const commentUpdateSchema = commentEditFormSchema.extend({ id: idSchema, imageId: imageIdSchema, rate: businessStarSchema.optional(), ...placeFields });
export type CommentUpdateInput = z.output<typeof commentUpdateSchema>;

export const replyFormSchema = z.object({ text: replyTextSchema });
export const replyCreateSchema = replyFormSchema.extend({ commentId: idSchema, imageId: imageIdSchema });
export type ReplyCreateInput = z.output<typeof replyCreateSchema>;

export const replyEditFormSchema = z.object({ text: replyEditTextSchema });
export const replyUpdateSchema = replyEditFormSchema.extend({ id: idSchema, imageId: imageIdSchema });
export type ReplyUpdateInput = z.output<typeof replyUpdateSchema>;

export const rateInputSchema = z.object({ id: idSchema, rate: emojiRateSchema });
export type RateInput = z.output<typeof rateInputSchema>;

export const idInputSchema = z.object({ id: idSchema });

/** An opaque page position from a previous answer's `nextCursor`. */
export const cursorSchema = z.string().min(1).max(200).optional();

export const feedFilterSchema = z.enum(feedFilters);

export const feedInputSchema = z.object({ filter: feedFilterSchema.default('all'), cursor: cursorSchema });
export type FeedInput = z.output<typeof feedInputSchema>;

export const commentSortSchema = z.enum(commentSorts, { error: 'commentSortInvalid' });
/** Star levels to keep (the author's current stars); each at most once. */
export const starLevelsSchema = z
  .array(z.number({ error: 'starLevelsInvalid' }).int('starLevelsInvalid').min(1, 'starLevelsInvalid').max(5, 'starLevelsInvalid'))
  .min(1, 'starLevelsInvalid')
  .max(5, 'starLevelsInvalid')
  .refine((levels) => new Set(levels).size === levels.length, { error: 'starLevelsInvalid' });

/** How a business's comments are ordered and narrowed; the comment search combines with them. */
export const commentListOptionsSchema = z.object({
  sort: commentSortSchema.optional(),
  stars: starLevelsSchema.optional(),
  /** Only comments with a picture. */
  photos: z.boolean().optional(),
});

export const businessCommentsInputSchema = commentListOptionsSchema.extend({
  businessId: idSchema,
  search: z.string().trim().max(SEARCH_MAX, 'commentSearchTooLong').optional(),
  /** Only the comments at this branch of the business. */
  branch: idSchema.optional(),
  /** Only the comments at this other place (typed by their authors, no branch), ignoring case and spaces (issue 29.4). */
  place: z.string().trim().min(1, 'invalidInput').max(LOCATION_MAX, 'invalidInput').optional(),
  cursor: cursorSchema,
  limit: z.number().int().min(1).max(100).optional(),
});
export type BusinessCommentsInput = z.output<typeof businessCommentsInputSchema>;

export const repliesInputSchema = z.object({ commentId: idSchema, cursor: cursorSchema, limit: z.number().int().min(1).max(100).optional() });
export type RepliesInput = z.output<typeof repliesInputSchema>;

export const pageInputSchema = z.object({ cursor: cursorSchema, limit: z.number().int().min(1).max(100).optional() });
export type PageInput = z.output<typeof pageInputSchema>;

/** Comment moderation (/cmt-mng): a page, optionally only comments whose text, author or business has `q`. */
export const moderationInputSchema = pageInputSchema.extend({ q: z.string().trim().max(200).optional() });
export type ModerationInput = z.output<typeof moderationInputSchema>;

/** The cards of comments and replies (and their REST documents' base) are declared in post-cards.ts. */
export type { CommentCard, EmojiCounts, OwnerReply, PostCard, ReplyCard } from './post-cards';

export type Page<T> = { items: T[]; nextCursor: string | null };

/** What a rating changes, as both doors answer it. */
export type RateResult = {
  rate: number | null;
  ratingCount: number;
  emojiCounts: EmojiCounts;
  myRate: number | null;
};
