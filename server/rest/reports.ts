import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { idSchema } from '../../shared/schemas/common';
import { messageText } from '../../shared/schemas/messages';
import {
  burstResolutions,
  burstTargets,
  modActions,
  modDigestInputSchema,
  modTargetKinds,
  removeAllBodySchema,
  reportFormSchema,
  reportKinds,
  reportReasons,
  reportStatuses,
  resolveActions,
  resolveBodySchema,
  type BurstResolution,
  type ReportKind,
} from '../../shared/schemas/moderation';
import { getModDigest, setModDigest } from '../services/moderation/mod-digest';
import { listModLog, MOD_LOG_PAGE } from '../services/moderation/mod-log';
import { BURSTS_PAGE, listRatingBursts, resolveRatingBurst } from '../services/moderation/rating-bursts';
import { listReports, QUEUE_PAGE, removeAllPosts, reportPost, resolveReports, waitingReportCount } from '../services/moderation/reports';
import { pageQuerySchema, withNextCursor } from './comment';
import { errorSchema } from './openapi';
import { listModeratedPosts, MODERATED_POSTS_MAX } from '../services/moderation/moderation-notices';

const ratingBurstSchema = z.object({
  _id: z.string().describe('What POST /rating-bursts/{id}/dismiss takes.'),
  businessId: z.string(),
  businessTitle: z.string(),
  target: z.enum(burstTargets).describe("business: star ratings of the business; comment or reply: emoji ratings of that post (the business is the post's)."),
  commentId: z.string().nullable().describe('The thread: the rated comment, or the comment of the rated reply; null for star ratings.'),
  replyId: z.string().nullable().describe('The rated reply; null otherwise.'),
  excerpt: z.string().describe("The start of the rated post's text; empty for star ratings."),
  ratings: z.number().int().describe('Ratings the burst holds out of the public figures (or held, once decided).'),
  firstAt: z.string().describe('ISO 8601: the first of those ratings'),
  detectedAt: z.string().describe('ISO 8601: when the burst reached the threshold'),
  lastAt: z.string().describe('ISO 8601: the latest rating counted'),
  status: z.enum(reportStatuses),
  resolvedAt: z.string().nullable(),
  resolution: z.enum(burstResolutions).nullable().describe('accept: its ratings count; reject: they stay out. null while open.'),
  raters: z.array(z.object({ userId: z.string(), firstName: z.string(), lastName: z.string(), joined: z.string(), rate: z.number().int(), date: z.string() })),
});

const reportResultSchema = z.object({
  message: z.string(),
  result: z.enum(['created', 'existing']).describe('`existing`: you had already reported it; nothing was counted again.'),
  hidden: z.boolean().describe('Whether the post is now hidden while a moderator reviews it.'),
});

/** A report's replies, the same for posts and business answers. */
const reportResponses = {
  200: reportResultSchema,
  201: reportResultSchema,
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  429: errorSchema,
};

/** 201 with thanks for a new report, 200 when the caller's open report was already there. */
function sendReportResult(reply: FastifyReply, result: Awaited<ReturnType<typeof reportPost>>) {
  const created = result.result === 'created';
  return reply.status(created ? 201 : 200).send({ message: messageText(created ? 'reportThanks' : 'reportAlreadySent'), ...result });
}

const kindSchema = z.enum(reportKinds).describe("ownerReply: a business's answer to a review; its _id (and commentId) is the review's.");
const reportGroupSchema = z.object({
  _id: z.string().describe('The reported comment, reply or answer: what POST /reports/{id}/resolve takes (with kind for an answer).'),
  kind: kindSchema,
  commentId: z.string(),
  text: z.string(),
  image: z.string().nullable(),
  businessId: z.string(),
  businessTitle: z.string(),
  hidden: z.boolean(),
  removed: z.boolean(),
  date: z.string().describe('ISO 8601, when the post was written'),
  author: z.object({
    _id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    isBanned: z.boolean(),
    joined: z.string().describe('ISO 8601'),
    posts: z.number().int().describe('Comments and replies the author has written.'),
    removals: z.number().int().describe('How many of them moderators removed.'),
  }),
  reportCount: z.number().int(),
  firstReported: z.string(),
  status: z.enum(reportStatuses),
  resolution: z.enum(resolveActions).nullable(),
  reports: z.array(
    z.object({
      reason: z.enum(reportReasons),
      note: z.string().nullable(),
      reporterId: z.string(),
      reporterName: z.string(),
      date: z.string(),
      established: z.boolean().describe('false: a new account ("New account"); its report is read but does not count towards hiding the post.'),
    }),
  ),
});

const modLogEntrySchema = z.object({
  _id: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  action: z.enum(modActions),
  targetKind: z.enum(modTargetKinds),
  targetId: z.string(),
  excerpt: z.string().describe('The start of the post, or the name, as it was when the action was taken.'),
  reason: z.string().nullable(),
  date: z.string(),
});

/** POST /comment/report/{id} or /subComment/report/{id}, registered under that resource's prefix. */
export function reportItemRoutes(deps: Deps, kind: ReportKind) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const what = kind === 'comment' ? 'comment' : 'reply';
    app.post(
      '/report/:id',
      {
        schema: {
          tags: [kind === 'comment' ? 'comment' : 'subComment'],
          summary: `Report someone else's ${what} to the moderators`,
          description:
            `JSON {reason, note?}: note at most 500 characters. 201 for a new report; 200 when you already have an open report of this ${what} ` +
            '(nothing is counted twice). Reporting your own post is a 403. Every report reaches the moderators; once REPORT_HIDE_THRESHOLD ' +
            'established users (accounts older than REPORT_TRUST_AGE with a public post older than a day) have reported it, it is hidden ' +
            'from every public list, search and count until a moderator decides.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: reportFormSchema,
          response: reportResponses,
        },
      },
      async (request, reply) => {
        return sendReportResult(reply, await reportPost(deps, request.actor, kind, { id: request.params.id, ...request.body }));
      },
    );
  };
}

/**
 * POST /comment/{id}/owner-reply/report: a business's answer to a review (issue 31.7), reported
 * like a post. Beside PUT and DELETE on the same path (rest/owners.ts).
 */
export function ownerReplyReportRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/comment/:id/owner-reply/report',
      {
        schema: {
          tags: ['comment'],
          summary: "Report a business's answer to a review to the moderators",
          description:
            '{id} is the review. JSON {reason, note?}: note at most 500 characters. 201 for a new report; 200 when you already have an open report of this answer. ' +
            "The answer's writer and the business's other owners cannot report it (403). As with posts, it is hidden from everyone but the " +
            "business's owners and the moderators once REPORT_HIDE_THRESHOLD established users have reported it, until a moderator decides.",
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: reportFormSchema,
          response: reportResponses,
        },
      },
      async (request, reply) => {
        return sendReportResult(reply, await reportPost(deps, request.actor, 'ownerReply', { id: request.params.id, ...request.body }));
      },
    );
  };
}

/** The moderation queue and log (moderators and admins; the digest setting admins only). */
export function moderationRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['moderation'];
    const adminErrors = { 401: errorSchema, 403: errorSchema };

    app.get(
      '/reports/waiting',
      {
        schema: {
          tags,
          summary: 'How many posts wait in the open queue (moderators)',
          description: 'The number of posts with open reports: the badge on the header’s moderation link. Cheap to poll.',
          security: [{ bearer: [] }],
          response: { 200: z.object({ waiting: z.number().int() }), ...adminErrors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return waitingReportCount(deps, request.actor);
      },
    );

    app.get(
      '/reports',
      {
        schema: {
          tags,
          summary: 'Reported posts, grouped by post (moderators)',
          description:
            `open (default): most reported, then oldest first. resolved: most recently decided first. A page of ${QUEUE_PAGE} groups ` +
            '(?limit= 1–100); when there are more, the header X-Next-Cursor holds the ?cursor= of the next page. The open queue ' +
            'reads the 2000 oldest open reports.',
          security: [{ bearer: [] }],
          querystring: pageQuerySchema.extend({ status: z.enum(reportStatuses).default('open') }),
          response: { 200: z.array(reportGroupSchema), 400: errorSchema, ...adminErrors },
        },
      },
      async (request, reply) => {
        const page = listReports(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    app.post(
      '/reports/:id/resolve',
      {
        schema: {
          tags,
          summary: "Decide a post's open reports (moderators)",
          description:
            '{id} is the reported comment or reply, or the review whose business answer is reported. JSON {action, kind?, reason?, reasonText?, note?}: ' +
            "kind (comment, reply or ownerReply) says which, needed only when a review and its business's answer both have open reports. " +
            'remove deletes the post (a comment with ' +
            'replies stays as a "removed by a moderator" placeholder) and shows its author the reason (one of the report reasons; ' +
            "without it the reports' own) with the optional reasonText; dismiss closes the reports and shows the post again, and its " +
            'reporters cannot hide it again. note is kept only in the moderation log, never shown to the author. A removed business answer ' +
            "keeps only the reason, which its business's owners see under the review.",
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: resolveBodySchema,
          response: {
            200: z.object({ message: z.string(), action: z.enum(resolveActions) }),
            400: errorSchema,
            ...adminErrors,
            404: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request) => {
        const result = await resolveReports(deps, request.actor, { id: request.params.id, ...request.body });
        return { message: messageText('reportResolved'), ...result };
      },
    );

    app.post(
      '/users/:id/remove-posts',
      {
        schema: {
          tags,
          summary: 'Remove every post of a user (moderators)',
          description:
            'JSON {note?}: every comment and reply of the user not yet removed loses its text and picture and stays as a notice ' +
            'for its author with the note (or "spam") as the reason; a comment with replies stays as a public placeholder. ' +
            'Open reports of them close as removed. One entry in the moderation log.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: removeAllBodySchema,
          response: { 200: z.object({ message: z.string(), removed: z.number().int() }), 400: errorSchema, ...adminErrors, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => ({
        message: messageText('postsRemoved'),
        ...(await removeAllPosts(deps, request.actor, { userId: request.params.id, ...request.body })),
      }),
    );

    app.get(
      '/users/me/moderated-posts',
      {
        schema: {
          tags,
          summary: 'Your own hidden and removed posts, with the reason',
          description:
            "The signed-in user's comments and replies that are hidden after reports (until a moderator decides) or removed by a moderator, " +
            `newest decision first, at most ${MODERATED_POSTS_MAX}. \`reason\` is what the author is told of a removal: a report reason key, then ": " and ` +
            'the moderator\'s words, or the reports\' reason keys joined by ", "; null while a post is only hidden. Banned users see theirs too.',
          security: [{ bearer: [] }],
          response: {
            200: z.array(
              z.object({
                kind: z.enum(['comment', 'reply']),
                _id: z.string(),
                commentId: z.string().describe('The comment the post is or belongs to: its page is /comment/{commentId}.'),
                businessId: z.string(),
                businessTitle: z.string(),
                excerpt: z.string(),
                state: z.enum(['hidden', 'removed']),
                reason: z.string().nullable(),
                date: z.string().describe('When it was hidden or removed.'),
              }),
            ),
            401: errorSchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return listModeratedPosts(deps, request.actor);
      },
    );

    app.get(
      '/mod-log',
      {
        schema: {
          tags,
          summary: 'The moderation log, newest first (moderators)',
          description:
            'Every moderator action: removals, dismissed reports, decided rating bursts, bans, admin and moderator changes, deleted users and businesses. ' +
            `?action= and ?targetKind= narrow it. A page of ${MOD_LOG_PAGE} (?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page.`,
          security: [{ bearer: [] }],
          querystring: pageQuerySchema.extend({ action: z.enum(modActions).optional(), targetKind: z.enum(modTargetKinds).optional() }),
          response: { 200: z.array(modLogEntrySchema), 400: errorSchema, ...adminErrors },
        },
      },
      async (request, reply) => {
        const page = listModLog(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    app.get(
      '/rating-bursts',
      {
        schema: {
          tags,
          summary: 'Bursts of star or emoji ratings from young accounts (moderators)',
          description:
            'A business that got RATING_BURST_RATINGS star ratings within RATING_BURST_WINDOW from accounts younger than ' +
            'RATING_BURST_ACCOUNT_AGE (README) has one open entry; all its ratings are held out of the public average, count, ' +
            'breakdown and order until a moderator accepts or rejects it. The same for the emoji ratings of one comment or ' +
            "reply (`target`): held out of the post's average, count, emoji counts, the orders they sort and the author's " +
            'reactions received. open (default): oldest first; ' +
            `resolved: most recently decided first. A page of ${BURSTS_PAGE} (?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page.`,
          security: [{ bearer: [] }],
          querystring: pageQuerySchema.extend({ status: z.enum(reportStatuses).default('open') }),
          response: { 200: z.array(ratingBurstSchema), 400: errorSchema, ...adminErrors },
        },
      },
      async (request, reply) => {
        const page = listRatingBursts(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    const decide = (action: BurstResolution, path: string, summary: string, description: string) =>
      app.post(
        path,
        {
          schema: {
            tags,
            summary,
            description,
            security: [{ bearer: [] }],
            params: z.object({ id: idSchema }),
            response: { 200: z.object({ message: z.string(), action: z.enum(burstResolutions) }), ...adminErrors, 404: errorSchema, 429: errorSchema },
          },
        },
        async (request) => ({
          message: messageText(action === 'accept' ? 'ratingBurstAccepted' : 'ratingBurstRejected'),
          ...(await resolveRatingBurst(deps, request.actor, { id: request.params.id, action })),
        }),
      );
    decide(
      'accept',
      '/rating-bursts/:id/accept',
      "Accept a rating burst's ratings (moderators)",
      'Its held ratings enter the public figures (a banned rater’s stay out). Recorded in the moderation log; only ratings after ' +
        'the decision count towards a new burst of the business.',
    );
    decide(
      'reject',
      '/rating-bursts/:id/reject',
      "Reject a rating burst's ratings (moderators)",
      'Its ratings stay out of every public figure; their raters still see their own stars or emoji. Recorded in the moderation log.',
    );
    decide(
      'accept',
      '/rating-bursts/:id/dismiss',
      'Dismiss a rating burst (moderators; the older name of accept)',
      'The same as POST /api/rating-bursts/{id}/accept.',
    );

    app.get(
      '/mod-digest',
      {
        schema: {
          tags,
          summary: 'Whether you get digest mails of hidden posts (admins)',
          description: 'See PUT /api/mod-digest.',
          security: [{ bearer: [] }],
          response: { 200: modDigestInputSchema, ...adminErrors },
        },
      },
      async (request) => getModDigest(deps, request.actor),
    );

    app.put(
      '/mod-digest',
      {
        schema: {
          tags,
          summary: 'Choose digest mails of hidden posts (admins)',
          description:
            'JSON {modDigest}: true sends you a mail when reports hide a post, at most one an hour (the posts hidden since the ' +
            'previous one), in your language.',
          security: [{ bearer: [] }],
          body: modDigestInputSchema,
          response: { 200: modDigestInputSchema, 400: errorSchema, 429: errorSchema, ...adminErrors },
        },
      },
      async (request) => setModDigest(deps, request.actor, request.body),
    );
  };
}
