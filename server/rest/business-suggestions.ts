import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { idSchema } from '../../shared/schemas/common';
import { messageText } from '../../shared/schemas/messages';
import {
  PENDING_SUGGESTIONS_MAX,
  REJECT_REASON_MAX,
  rejectBodySchema,
  SUGGESTIONS_PAGE,
  suggestionInputSchema,
  suggestionStatuses,
  WEBSITE_MAX,
} from '../../shared/schemas/suggestions';
import { approveSuggestion, listSuggestions, mySuggestions, rejectSuggestion, suggestBusiness } from '../services/business/business-suggestions';
import { pageQuerySchema, withNextCursor } from './comment';
import { errorSchema } from './openapi';

const suggestionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  category: z.string().describe('A category name as the member wrote it (Swedish or English; a new name becomes a new category on approval).'),
  location: z.string().describe("The branch's town."),
  address: z.string().describe("The branch's street address."),
  website: z.string().nullable(),
  status: z.enum(suggestionStatuses),
  reason: z.string().nullable().describe('Why it was rejected, as the member is told it; null otherwise.'),
  businessId: z.string().nullable().describe('The business it became, once approved.'),
  createdAt: z.string().describe('ISO 8601'),
  decidedAt: z.string().nullable().describe('ISO 8601'),
  suggester: z
    .object({ _id: z.string(), firstName: z.string(), lastName: z.string().describe('As the member chose to show it (possibly an initial).') })
    .optional()
    .describe('Who suggested it: the queue (GET /api/business/suggestions) only.'),
});

const tags = ['business'];
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema };

/** Suggest a missing place (issue 31.5): under /api/business, before its /:id routes match. */
export function businessSuggestionRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/suggestions',
      {
        schema: {
          tags,
          summary: 'Suggest a missing place (members)',
          description:
            'A signed-in member who is not banned proposes a business: `title` (2–50), `category` (2–50: a name of the category ' +
            `list in Swedish or English, or a new one), the branch's \`location\` (its town, 2–100) and \`address\` (2–100), optional ` +
            `\`website\` (http:// or https://, at most ${WEBSITE_MAX}). It waits for a moderator (GET /api/business/suggestions). ` +
            `At most ${PENDING_SUGGESTIONS_MAX} of a member's suggestions wait at once (409); the write limit \`edit\` applies (429 with Retry-After).`,
          security: [{ bearer: [] }],
          body: suggestionInputSchema,
          response: { 201: suggestionSchema.extend({ message: z.string() }), ...errors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const created = await suggestBusiness(deps, request.actor, request.body);
        return reply.status(201).send({ message: messageText('suggestionReceived'), ...created });
      },
    );

    app.get(
      '/suggestions',
      {
        schema: {
          tags,
          summary: 'The queue of suggested places (moderators)',
          description:
            'Moderators and admins: `status=pending` (default) oldest first, or `approved` / `rejected` most recent first. ' +
            `A page of ${SUGGESTIONS_PAGE} (?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page.`,
          security: [{ bearer: [] }],
          querystring: pageQuerySchema.extend({ status: z.enum(suggestionStatuses).default('pending') }),
          response: { 200: z.array(suggestionSchema), ...errors },
        },
      },
      async (request, reply) => {
        const page = listSuggestions(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    app.get(
      '/suggestions/mine',
      {
        schema: {
          tags,
          summary: 'Your suggested places and their decisions',
          description: 'The signed-in member’s last 100 suggestions, newest first: pending, approved (with the business) or rejected (with the reason).',
          security: [{ bearer: [] }],
          response: { 200: z.array(suggestionSchema), 401: errorSchema },
        },
      },
      async (request) => mySuggestions(deps, request.actor),
    );

    app.post(
      '/suggestions/:id/approve',
      {
        schema: {
          tags,
          summary: 'Approve a suggested place (moderators)',
          description:
            'The business is created with the suggested name, category (a new category when the list has no such name) and branch, ' +
            'credited to its suggester on its page. Recorded in the moderation log. 409 when it was already decided.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: { 200: suggestionSchema.extend({ message: z.string() }), ...errors, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => ({ message: messageText('suggestionApproved'), ...(await approveSuggestion(deps, request.actor, request.params.id)) }),
    );

    app.post(
      '/suggestions/:id/reject',
      {
        schema: {
          tags,
          summary: 'Reject a suggested place (moderators)',
          description: `\`reason\` (2–${REJECT_REASON_MAX}) is what the member is told. Recorded in the moderation log. 409 when it was already decided.`,
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: rejectBodySchema,
          response: { 200: suggestionSchema.extend({ message: z.string() }), ...errors, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => ({
        message: messageText('suggestionRejected'),
        ...(await rejectSuggestion(deps, request.actor, request.params.id, request.body.reason)),
      }),
    );
  };
}
