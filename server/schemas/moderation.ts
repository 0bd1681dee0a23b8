import { z } from 'zod';
import { idSchema } from './common';
import { withoutInvisible } from './text';
export { moderationMessages } from './moderation-messages';

/** Why a post is reported (PRODUCT.md 11), in the order the dialog offers them. */
export const reportReasons = ['spam', 'fake', 'offensive', 'personal', 'offTopic', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];
export const REPORT_NOTE_MAX = 500;

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
export const resolveBodySchema = z.object({
  action: z.enum(resolveActions),
  note: noteSchema('reportNoteTooLong'),
});
export const resolveInputSchema = resolveBodySchema.extend({ id: idSchema });
export type ResolveInput = { id: string; action: ResolveAction; note?: string };

export const reportStatuses = ['open', 'resolved'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export const reportsInputSchema = z.object({ status: z.enum(reportStatuses).default('open') });

export type ReportKind = 'comment' | 'reply';

/** One report as the queue shows it. */
export type ReportEntry = { reason: ReportReason; note: string | null; reporterId: string; reporterName: string; date: string };

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
  author: { _id: string; firstName: string; lastName: string; isBanned: boolean; joined: string; posts: number };
  reportCount: number;
  firstReported: string;
  status: ReportStatus;
  resolution: ResolveAction | null;
  reports: ReportEntry[];
};

/** Moderator actions the log records. */
export const modActions = ['remove', 'dismiss', 'ban', 'unban', 'adminOn', 'adminOff', 'deleteUser', 'deleteBusiness'] as const;
export type ModAction = (typeof modActions)[number];
export type ModTargetKind = 'comment' | 'reply' | 'user' | 'business';

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
