import { z } from 'zod';

/**
 * The cards of comments and replies, declared once: these schemas give the TypeScript types our
 * client and services use (inferred below) and, extended in server/rest/comment-documents.ts, the
 * documented REST shapes. A new field of both kinds of post goes in `postCardSchema`, one of
 * comments only in `commentCardSchema`; the services' row mappers (services/comments/post-cards.ts,
 * comment-cards.ts) then fail to compile until they fill it. The order of the fields is the
 * order the REST replies write them in.
 */

export const emojiCountsSchema = z
  .object({ '1': z.number().int(), '2': z.number().int(), '3': z.number().int(), '4': z.number().int(), '5': z.number().int() })
  .describe('How many users chose each emoji (1 😡 … 5 😍).');
/** Per-emoji counts of a comment or reply, keyed by the rate. */
export type EmojiCounts = z.output<typeof emojiCountsSchema>;

/** What a comment and a reply both show. */
export const postCardSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  businessId: z.string(),
  text: z.string(),
  image: z.string().nullable(),
  rate: z.number().nullable().describe('The average of the emoji reactions (1–5); null while nobody has reacted.'),
  ratingCount: z.number().int(),
  emojiCounts: emojiCountsSchema,
  /** The caller's own emoji rate (null for visitors and when not rated). */
  myRate: z.number().int().nullable(),
  firstName: z.string(),
  /** As the author chose to show it: the whole last name or its initial (services/accounts/names.ts). */
  lastName: z.string(),
  userImage: z.string().nullable(),
  date: z.string().describe('ISO 8601'),
  edited: z.boolean(),
  /** Hidden by reports while a moderator reviews it; only its author and admins get it. */
  hidden: z.boolean(),
  removed: z.boolean().describe('Removed by a moderator: only its author and admins still see it, with an empty `text`.'),
  /**
   * Why a moderator removed it: their note, or the reports' reason keys joined by ", ". Only its
   * author and admins get it; null for everyone else and while it is not removed.
   */
  removalReason: z.string().nullable(),
  /** The caller has an open report of it. */
  reportedByMe: z.boolean(),
});
export type PostCard = z.output<typeof postCardSchema>;

/** A business owner's answer to a review (issue 31). */
export const ownerReplySchema = z.object({
  text: z.string(),
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601; equal to createdAt until the answer is edited'),
  /**
   * Reports hid it until a moderator decides, or a moderator removed it (its text is then empty).
   * Such an answer reaches only the business's owners and the moderators; everyone else gets null.
   */
  hidden: z.boolean().describe("Hidden after reports (or removed): only the business's owners and moderators get such an answer."),
  removed: z.boolean().describe('A moderator removed it; text is empty and removalReason says why.'),
  removalReason: z.string().nullable().describe('Why a moderator removed it: a report reason key, then ": " and their words.'),
  reportedByMe: z.boolean().describe('The caller has an open report of the answer.'),
});
export type OwnerReply = z.output<typeof ownerReplySchema>;

/** A comment as our client shows it on cards. */
export const commentCardSchema = postCardSchema.extend({
  businessIcon: z.string().nullable(),
  businessTitle: z.string(),
  /** The "Add New" suggestion box, whose title the client shows in the reader's language. */
  businessIsSuggestionBox: z.boolean(),
  businessLocation: z.string().describe("The branch's location when `branchId` is set, else the place as written."),
  branchId: z.string().nullable().describe('The business branch (`branches[]._id` of GET /business/{id}) it is about; null for another place.'),
  authorRate: z
    .number()
    .int()
    .nullable()
    .describe("The author's current star rating of the business (1–5), null while they have none; `rate` stays the comment's emoji average."),
  replyCount: z.number().int(),
  /** The business's answer (issue 31), shown as "Svar från {businessTitle}". */
  ownerReply: ownerReplySchema.nullable().describe("The business's answer (one per review, by an owner of the business); null while there is none."),
});
export type CommentCard = z.output<typeof commentCardSchema>;

/** A reply as our client shows it. */
export const replyCardSchema = postCardSchema.extend({ commentId: z.string() });
export type ReplyCard = z.output<typeof replyCardSchema>;

/**
 * Card fields only our client reads (through tRPC): the documented REST shapes leave them out.
 * Every other card field is part of the REST documents as well.
 */
export const clientOnlyPostFields = { myRate: true, edited: true, hidden: true, removalReason: true, reportedByMe: true } as const;
export const clientOnlyCommentFields = { ...clientOnlyPostFields, businessIsSuggestionBox: true } as const;
