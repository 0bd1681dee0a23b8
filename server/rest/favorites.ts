import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { idSchema } from '../../shared/schemas/common';
import { FAVORITES_MAX, listFavoriteBusinesses, setFavorite } from '../services/business/favorites';
import { restBusinessSchema, toRestBusiness } from './business';
import { errorSchema } from './openapi';

const favoriteParams = z.object({ userId: idSchema, businessId: idSchema });
const listReply = z.array(restBusinessSchema).describe("The user's favourite businesses after the change, most recently added first.");
/** 409: the suggestion box cannot be added, or the caller already keeps FAVORITES_MAX. */
const changeResponses = { 200: listReply, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The favourites rows of the documented API, under /api/users beside the accounts routes. */
export function favoriteRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/:id/favoriteBusinesses',
      {
        schema: {
          tags: ['favorites'],
          summary: "A user's favourite businesses",
          description: 'Only the user themself or an admin (403 otherwise). Most recently added first.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: { 200: listReply, 401: errorSchema, 403: errorSchema, 404: errorSchema },
        },
      },
      async (request) => listFavoriteBusinesses(deps, request.actor, request.params.id).map((b) => toRestBusiness(b, request.actor)),
    );

    app.post(
      '/addFavorite/:userId/:businessId',
      {
        schema: {
          tags: ['favorites'],
          summary: 'Add a favourite',
          description: `\`userId\` must be the caller (403 otherwise); any body is ignored. Adding twice changes nothing. A user keeps at most ${FAVORITES_MAX} favourites (409 \`favoritesFull\` for one more).`,
          security: [{ bearer: [] }],
          params: favoriteParams,
          response: changeResponses,
        },
      },
      async (request) => {
        await setFavorite(deps, request.actor, { ...request.params, favorite: true });
        return listFavoriteBusinesses(deps, request.actor, request.params.userId).map((b) => toRestBusiness(b, request.actor));
      },
    );

    app.delete(
      '/removeFavorite/:userId/:businessId',
      {
        schema: {
          tags: ['favorites'],
          summary: 'Remove a favourite',
          description: '`userId` must be the caller (403 otherwise). Removing one that is not there changes nothing.',
          security: [{ bearer: [] }],
          params: favoriteParams,
          response: changeResponses,
        },
      },
      async (request) => {
        await setFavorite(deps, request.actor, { ...request.params, favorite: false });
        return listFavoriteBusinesses(deps, request.actor, request.params.userId).map((b) => toRestBusiness(b, request.actor));
      },
    );
  };
}
