import { z } from 'zod';
import { idSchema } from './common';
import { withoutInvisible } from './text';
export { moderationMessages } from './moderation-messages';

/** Why a post is reported (docs/product.md §11), in the order the dialog offers them. */
export const reportReasons = ['spam', 'fake', 'offensive', 'personal', 'offTopic', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];
export const REPORT_NOTE_MAX = 500;
/** What can be reported: a comment, a reply, or a business's answer to a review (issue 31.7; its id is the review's). */
export const reportKinds = ['comment', 'reply', 'ownerReply'] as const;
export type ReportKind = (typeof reportKinds)[number];

const noteSchema = (tooLong: string) =>
  z
    .string()
    .overwrite(withoutInvisible)
    .trim()
    .max(REPORT_NOTE_MAX, tooLong)
    .optional()
    .transform((v) => (v ? v : undefined));

/** The report dialog's fields, shared by the client form and both doors. */
export const reportFormSchema = z.object({
  reason: z.enum(reportReasons, { error: 'reportReasonInvalid' }),
  note: noteSchema('reportNoteTooLong'),
});
export type ReportFormValues = z.input<typeof reportFormSchema>;
export const reportInputSchema = reportFormSchema.extend({ id: idSchema });
export type ReportInput = { id: string; reason: ReportReason; note?: string };

/** What a report did: `created` the first time, `existing` when the reporter's open report was already there. */
export type ReportResult = { result: 'created' | 'existing'; hidden: boolean };

export const resolveActions = ['remove', 'dismiss'] as const;
export type ResolveAction = (typeof resolveActions)[number];
/**
 * A decision on a reported post. For `remove`: `reason` (one of the report reasons; without it the
 * reports' own) and optional `reasonText` are what its author is shown; `note` is kept only in the
 * moderation log, never shown to the author.
 */
export const resolveBodySchema = z.object({
  action: z.enum(resolveActions),
  /** Which of the id's items: needed only for a business's answer, which shares its review's id. */
  kind: z.enum(reportKinds).optional(),
  reason: z.enum(reportReasons, { error: 'reportReasonInvalid' }).optional(),
  reasonText: noteSchema('reportNoteTooLong'),
  note: noteSchema('reportNoteTooLong'),
});
export const resolveInputSchema = resolveBodySchema.extend({ id: idSchema });
export type ResolveInput = { id: string; action: ResolveAction; kind?: ReportKind; reason?: ReportReason; reasonText?: string; note?: string };

/**
 * What a removed post's author reads as the reason: a report reason's key, then (after ": ") the
 * moderator's words for the author, if any. client/features/moderation/reason-text.ts shows it.
 */
export const authorReasonOf = (reason: string, text?: string) => (text ? `${reason}: ${text}` : reason);

export const reportStatuses = ['open', 'resolved'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export const reportsInputSchema = z.object({ status: z.enum(reportStatuses).default('open') });

/**
 * One report as the queue shows it. `established`: the reporter was established when reporting
 * (docs/product.md "Moderation and trust"); only such reports count towards hiding the post.
 */
export type ReportEntry = { reason: ReportReason; note: string | null; reporterId: string; reporterName: string; date: string; established: boolean };

/** The reports of one item, with what a moderator needs to decide. */
export type ReportGroup = {
  /** The reported comment's or reply's id: what POST /reports/{id}/resolve takes. */
  _id: string;
  kind: ReportKind;
  /** The comment a reply belongs to (its own id for a comment). */
  commentId: string;
  text: string;
  image: string | null;
  businessId: string;
  businessTitle: string;
  hidden: boolean;
  removed: boolean;
  date: string;
  /** posts: comments and replies written; removals: how many of them moderators removed. */
  author: { _id: string; firstName: string; lastName: string; isBanned: boolean; joined: string; posts: number; removals: number };
  reportCount: number;
  firstReported: string;
  status: ReportStatus;
  resolution: ResolveAction | null;
  reports: ReportEntry[];
};

/** Moderator actions the log records. */
export const modActions = [
  'remove',
  'removeAll',
  'dismiss',
  'ban',
  'unban',
  'adminOn',
  'adminOff',
  'moderatorOn',
  'moderatorOff',
  'deleteUser',
  'deleteBusiness',
  'dismissBurst',
  'acceptBurst',
  'rejectBurst',
  'approveSuggestion',
  'rejectSuggestion',
  'siteSettings',
] as const;
export type ModAction = (typeof modActions)[number];
export const modTargetKinds = ['comment', 'reply', 'ownerReply', 'user', 'business', 'suggestion', 'site'] as const;
export type ModTargetKind = (typeof modTargetKinds)[number];

export type ModLogEntry = {
  _id: string;
  actorId: string | null;
  actorName: string;
  action: ModAction;
  targetKind: ModTargetKind;
  targetId: string;
  excerpt: string;
  reason: string | null;
  date: string;
};

/** A page of the moderation queue or log: `cursor` is the previous page's nextCursor. */
export const queuePageSchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
export const reportsPageInputSchema = reportsInputSchema.extend(queuePageSchema.shape);
export type ReportsPageInput = z.output<typeof reportsPageInputSchema>;

/** One young account's rating inside a burst: stars of the business, or the emoji (1–5) of the post. */
export type BurstRating = { userId: string; firstName: string; lastName: string; joined: string; rate: number; date: string };

/** What a burst's ratings rate: the business (stars) or one of its comments or replies (emoji). */
export const burstTargets = ['business', 'comment', 'reply'] as const;
export type BurstTarget = (typeof burstTargets)[number];

/** A burst of ratings from young accounts, of one business or one post, for a moderator to look at. */
export type RatingBurst = {
  _id: string;
  businessId: string;
  businessTitle: string;
  target: BurstTarget;
  /** The thread: the rated comment, or the comment of the rated reply; null for star ratings. */
  commentId: string | null;
  /** The rated reply; null otherwise. */
  replyId: string | null;
  /** The start of the rated post's text; empty for star ratings. */
  excerpt: string;
  /** Young accounts' ratings in the window when the burst was last seen. */
  ratings: number;
  firstAt: string;
  detectedAt: string;
  lastAt: string;
  status: ReportStatus;
  resolvedAt: string | null;
  /** How a moderator decided it; null while open (and for bursts dismissed before ratings were held). */
  resolution: BurstResolution | null;
  /** The ratings it holds (or held): each young account's current stars. */
  raters: BurstRating[];
};
export const burstsInputSchema = reportsPageInputSchema;
export const burstIdInputSchema = z.object({ id: idSchema });
/** accept: the held ratings count; reject: they stay out of every figure. */
export const burstResolutions = ['accept', 'reject'] as const;
export type BurstResolution = (typeof burstResolutions)[number];
export const burstResolveInputSchema = burstIdInputSchema.extend({ action: z.enum(burstResolutions) });
export type BurstResolveInput = z.output<typeof burstResolveInputSchema>;

/** The moderation log's filters: one action, one kind of target; both optional. */
export const modLogInputSchema = queuePageSchema.extend({
  action: z.enum(modActions).optional(),
  targetKind: z.enum(modTargetKinds).optional(),
});
export type ModLogInput = z.output<typeof modLogInputSchema>;

/** An admin's choice of digest mails when reports hide a post. */
export const modDigestInputSchema = z.object({ modDigest: z.boolean() });

/** Remove every post of an author (admins), with an optional note as the reason. */
export const removeAllBodySchema = z.object({ note: noteSchema('reportNoteTooLong') });
export const removeAllInputSchema = removeAllBodySchema.extend({ userId: idSchema });
export type RemoveAllInput = { userId: string; note?: string };

/**
 * One of a person's own posts that is hidden (by reports, until a moderator decides) or removed
 * by a moderator, as their profile lists it (issue 29 item 11).
 */
export type ModeratedPost = {
  kind: 'comment' | 'reply';
  _id: string;
  /** The comment the post is (a comment) or belongs to (a reply): its page. */
  commentId: string;
  businessId: string;
  businessTitle: string;
  /** The start of the post's text. */
  excerpt: string;
  state: 'hidden' | 'removed';
  /** What a removal's author is told (as the removal notice shows it); null while only hidden. */
  reason: string | null;
  /** When it was hidden or removed. */
  date: string;
};
