import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../deps';
import { idSchema } from '../schemas/common';
import { messageText } from '../schemas/messages';
import { modActions, reportFormSchema, reportReasons, reportStatuses, resolveActions, resolveBodySchema, type ReportKind } from '../schemas/moderation';
import { listModLog } from '../services/mod-log';
import { listReports, reportPost, resolveReports } from '../services/reports';
import { errorSchema } from './comment';

const reportResultSchema = z.object({
  message: z.string(),
  result: z.enum(['created', 'existing']).describe('`existing`: you had already reported it; nothing was counted again.'),
  hidden: z.boolean().describe('Whether the post is now hidden while a moderator reviews it.'),
});

const kindSchema = z.enum(['comment', 'reply']);
const reportGroupSchema = z.object({
  _id: z.string().describe('The reported comment or reply: what POST /reports/{id}/resolve takes.'),
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
  }),
  reportCount: z.number().int(),
  firstReported: z.string(),
  status: z.enum(reportStatuses),
  resolution: z.enum(resolveActions).nullable(),
  reports: z.array(
    z.object({ reason: z.enum(reportReasons), note: z.string().nullable(), reporterId: z.string(), reporterName: z.string(), date: z.string() }),
  ),
});

const modLogEntrySchema = z.object({
  _id: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  action: z.enum(modActions),
  targetKind: z.enum(['comment', 'reply', 'user', 'business']),
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
            '(nothing is counted twice). Reporting your own post is a 403. Once enough different users have reported it, it is hidden ' +
            'from every public list, search and count until a moderator decides.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: reportFormSchema,
          response: { 200: reportResultSchema, 201: reportResultSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        const result = await reportPost(deps, request.actor, kind, { id: request.params.id, ...request.body });
        const created = result.result === 'created';
        return reply.status(created ? 201 : 200).send({ message: messageText(created ? 'reportThanks' : 'reportAlreadySent'), ...result });
      },
    );
  };
}

/** The moderation queue and log (admins). */
export function moderationRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['moderation'];
    const adminErrors = { 401: errorSchema, 403: errorSchema };

    app.get(
      '/reports',
      {
        schema: {
          tags,
          summary: 'Reported posts, grouped by post (admins)',
          description: 'open (default): most reported, then oldest first. resolved: most recently decided first. At most 100 groups.',
          security: [{ bearer: [] }],
          querystring: z.object({ status: z.enum(reportStatuses).default('open') }),
          response: { 200: z.array(reportGroupSchema), 400: errorSchema, ...adminErrors },
        },
      },
      async (request) => listReports(deps, request.actor, request.query),
    );

    app.post(
      '/reports/:id/resolve',
      {
        schema: {
          tags,
          summary: "Decide a post's open reports (admins)",
          description:
            '{id} is the reported comment or reply. JSON {action, note?}: remove deletes the post (a comment with replies stays as a ' +
            '"removed by a moderator" placeholder); dismiss closes the reports and shows the post again. Recorded in the moderation log.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: resolveBodySchema,
          response: { 200: z.object({ message: z.string(), action: z.enum(resolveActions) }), 400: errorSchema, ...adminErrors, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => {
        const result = await resolveReports(deps, request.actor, { id: request.params.id, ...request.body });
        return { message: messageText('reportResolved'), ...result };
      },
    );

    app.get(
      '/mod-log',
      {
        schema: {
          tags,
          summary: 'The moderation log, newest first (admins)',
          description: 'Every moderator action: removals, dismissed reports, bans, admin changes, deleted users and businesses. The newest 200.',
          security: [{ bearer: [] }],
          response: { 200: z.array(modLogEntrySchema), ...adminErrors },
        },
      },
      async (request) => listModLog(deps, request.actor),
    );
  };
}
