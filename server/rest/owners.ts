import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { idSchema } from '../../shared/schemas/common';
import { messageText } from '../../shared/schemas/messages';
import {
  CLAIM_NOTE_MAX,
  CLAIM_REASON_MAX,
  CLAIMS_PAGE,
  claimNoteSchema,
  claimRejectBodySchema,
  claimStatuses,
  ownerReplyTextSchema,
  STATS_MONTHS,
  UNANSWERED_SHOWN,
} from '../../shared/schemas/owners';
import { deleteOwnerReply, putOwnerReply } from '../services/business/owner-replies';
import { ownerStats } from '../services/business/owner-stats';
import { claimBusiness, decideClaim, listClaims, listOwners, myBusinesses, removeOwner } from '../services/business/owners';
import { messageSchema, restCommentSchema } from './comment';
import { commentDocuments } from './comment-documents';
import { errorSchema } from './openapi';

const claimSchema = z.object({
  _id: z.string().describe('What POST /claims/{id}/approve and /reject take.'),
  businessId: z.string(),
  businessTitle: z.string(),
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().describe("The claimant's address (admins only see claims)."),
  emailConfirmed: z.boolean(),
  note: z.string(),
  status: z.enum(claimStatuses),
  createdAt: z.string().describe('ISO 8601'),
  decidedAt: z.string().nullable().describe('ISO 8601; null while pending'),
});

const ownerSchema = z.object({ userId: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), since: z.string().describe('ISO 8601') });

const statsSchema = z.object({
  businessId: z.string(),
  title: z.string(),
  ratingCount: z.number().int(),
  average: z.number().nullable().describe('The average star rating; null with none.'),
  breakdown: z.array(z.number().int()).describe('Ratings per star level, 1 … 5.'),
  reviews: z.number().int().describe('Public reviews (comments).'),
  answered: z.number().int().describe('Reviews the business has answered.'),
  months: z
    .array(z.object({ month: z.string().describe('YYYY-MM, Swedish time'), reviews: z.number().int(), average: z.number().nullable() }))
    .describe(`The last ${STATS_MONTHS} months, oldest first: reviews posted and their authors' average stars.`),
  unanswered: z.array(restCommentSchema).describe(`The newest reviews without an answer, at most ${UNANSWERED_SHOWN}.`),
});

const myBusinessSchema = z.object({ businessId: z.string(), title: z.string(), status: z.enum(claimStatuses) });

/**
 * Business owners (issue 31): claims, owners, owner replies and the owners' numbers. Registered
 * at /api with full paths, beside the business and comment resources they extend.
 */
export function ownerRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const security = [{ bearer: [] }];
    const signedInErrors = { 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

    app.post(
      '/business/:id/claim',
      {
        schema: {
          tags: ['business'],
          summary: 'Claim a business as its owner',
          description:
            `JSON {note?} (at most ${CLAIM_NOTE_MAX} characters, for the admins). 201 with the claim: status pending until an admin decides, ` +
            "or approved at once when your confirmed e-mail address is at the business's website's domain. 409 when you already own it or " +
            'have a pending claim of it, and for the suggestion box.',
          security,
          params: z.object({ id: idSchema }),
          body: z.object({ note: claimNoteSchema.optional() }),
          response: { 201: z.object({ message: z.string(), claim: claimSchema }), 400: errorSchema, ...signedInErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const { claim, approved } = await claimBusiness(deps, request.actor, { businessId: request.params.id, note: request.body.note });
        return reply.status(201).send({ message: messageText(approved ? 'claimApprovedAtOnce' : 'claimSent'), claim });
      },
    );

    app.get(
      '/business/owned',
      {
        schema: {
          tags: ['business'],
          summary: 'Your businesses',
          description: "The businesses you own (status approved), then your pending and rejected claims: your profile's “Your business”.",
          security,
          response: { 200: z.array(myBusinessSchema), 401: errorSchema },
        },
      },
      async (request) => myBusinesses(deps, request.actor),
    );

    app.get(
      '/business/:id/owners',
      {
        schema: {
          tags: ['business'],
          summary: "A business's owners (admins)",
          description: 'Who owns it and since when, oldest first, with their addresses.',
          security,
          params: z.object({ id: idSchema }),
          response: { 200: z.array(ownerSchema), ...signedInErrors },
        },
      },
      async (request) => listOwners(deps, request.actor, request.params.id),
    );

    app.delete(
      '/business/:id/owners/:userId',
      {
        schema: {
          tags: ['business'],
          summary: 'Remove an owner of a business (admins)',
          description: "Their answers to reviews stay, as the business's.",
          security,
          params: z.object({ id: idSchema, userId: idSchema }),
          response: { 200: messageSchema, ...signedInErrors },
        },
      },
      async (request) => {
        await removeOwner(deps, request.actor, request.params.id, request.params.userId);
        return { message: messageText('ownerRemoved') };
      },
    );

    app.get(
      '/business/:id/owner-stats',
      {
        schema: {
          tags: ['business'],
          summary: "Your business's numbers (its owners and admins)",
          description: 'Star figures and breakdown, reviews and their average per month, answers given, and the newest unanswered reviews.',
          security,
          params: z.object({ id: idSchema }),
          response: { 200: statsSchema, ...signedInErrors },
        },
      },
      async (request) => {
        const stats = ownerStats(deps, request.actor, request.params.id);
        return { ...stats, unanswered: commentDocuments(deps.db, request.actor, stats.unanswered, false) };
      },
    );

    app.get(
      '/claims',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Claims of businesses (admins)',
          description: `?status= pending (default), approved or rejected; oldest first, at most ${CLAIMS_PAGE}.`,
          security,
          querystring: z.object({ status: z.enum(claimStatuses).optional() }),
          response: { 200: z.array(claimSchema), 400: errorSchema, 401: errorSchema, 403: errorSchema },
        },
      },
      async (request) => listClaims(deps, request.actor, request.query),
    );

    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/claims/:id/${decision}`,
        {
          schema: {
            tags: ['moderation'],
            summary: decision === 'approve' ? 'Approve a claim: the claimant becomes an owner (admins)' : 'Reject a claim (admins)',
            description:
              decision === 'approve'
                ? 'The claimant is told (a claimApproved notification). 409 when the claim was already decided.'
                : `Optional JSON {reason} (up to ${CLAIM_REASON_MAX} characters): what the claimant is told with the claimRejected notification. 409 when the claim was already decided.`,
            security,
            params: z.object({ id: idSchema }),
            ...(decision === 'reject' ? { body: claimRejectBodySchema.nullish() } : {}),
            response: { 200: z.object({ message: z.string(), claim: claimSchema }), ...signedInErrors, 409: errorSchema },
          },
        },
        async (request) => {
          const body = request.body as { reason?: string } | null | undefined;
          const claim = await decideClaim(deps, request.actor, { id: request.params.id, decision, reason: body?.reason || undefined });
          return { message: messageText(decision === 'approve' ? 'claimApproved' : 'claimRejected'), claim };
        },
      );
    }

    app.put(
      '/comment/:id/owner-reply',
      {
        schema: {
          tags: ['comment'],
          summary: "Answer a review of your business, or edit the answer (the business's owners)",
          description:
            'JSON {text} (2–2000 characters). One answer per review: a second PUT replaces its text. Shown under the review as ' +
            "the business's (`ownerReply`); the review's author is notified of a new answer. The spam rules and post limits apply.",
          security,
          params: z.object({ id: idSchema }),
          body: z.object({ text: ownerReplyTextSchema }),
          response: { 200: restCommentSchema, 400: errorSchema, ...signedInErrors },
        },
      },
      async (request) => {
        const card = await putOwnerReply(deps, request.actor, { commentId: request.params.id, text: request.body.text });
        return commentDocuments(deps.db, request.actor, [card], true)[0];
      },
    );

    app.delete(
      '/comment/:id/owner-reply',
      {
        schema: {
          tags: ['comment'],
          summary: "Delete the business's answer to a review (its owners, moderators)",
          description: "Any of the business's owners, or a moderator (logged in the moderation log). 404 when the review has no answer.",
          security,
          params: z.object({ id: idSchema }),
          response: { 200: messageSchema, ...signedInErrors },
        },
      },
      async (request) => {
        await deleteOwnerReply(deps, request.actor, request.params.id);
        return { message: messageText('ownerReplyDeleted') };
      },
    );
  };
}
