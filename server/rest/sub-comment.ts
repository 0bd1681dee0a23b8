import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { idSchema } from '../../shared/schemas/common';
import { REPLIES_PAGE, replyUpdateSchema } from '../../shared/schemas/comments';
import { messageText } from '../../shared/schemas/messages';
import { replyDocuments } from './comment-documents';
import { rateReply, ratingLists } from '../services/comments/comment-ratings';
import { deleteReply, listAllReplies, updateReply } from '../services/comments/replies';
import {
  editPostRoute,
  messageSchema,
  replyEditForm,
  postErrors,
  pageQuerySchema,
  rateBodySchema,
  rateReplySchema,
  restReplySchema,
  withNextCursor,
} from './comment';
import { errorSchema } from './openapi';

export function subCommentRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['subComment'];

    app.get(
      '/',
      {
        config: { publicCache: true },
        schema: {
          tags,
          summary: 'All replies, newest first',
          description: `A page of replies (?limit= 1–100, default ${REPLIES_PAGE}); the header X-Next-Cursor holds the ?cursor= of the next page.`,
          querystring: pageQuerySchema,
          response: { 200: z.array(restReplySchema), 400: errorSchema },
        },
      },
      async (request, reply) => {
        const page = listAllReplies(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return replyDocuments(deps.db, request.actor, page.items);
      },
    );

    editPostRoute(fastify, deps, {
      tags,
      summary: 'Edit your reply',
      description:
        'multipart/form-data: text (at least 2 characters); a new file in `image` replaces the picture (it is kept at ' +
        'most 300 px and 100 KB), removeImage=true drops it; a file in any other field is a 400. userId in the form is ignored. ' +
        '429 and 503 carry Retry-After.',
      form: replyEditForm,
      input: replyUpdateSchema,
      document: restReplySchema,
      edit: updateReply,
      shape: (actor, card) => replyDocuments(deps.db, actor, [card])[0],
    });

    app.delete(
      '/delete/:id',
      {
        schema: {
          tags,
          summary: 'Delete a reply (your own, or any for admins)',
          description: 'Its ratings go with it.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: { 200: messageSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => {
        await deleteReply(deps, request.actor, request.params.id);
        return { message: messageText('replyRemoved') };
      },
    );

    app.post(
      '/addRate/:id',
      {
        schema: {
          tags,
          summary: "React to someone else's reply with an emoji (1–5)",
          description: 'JSON {rate}: 1–5 sets or replaces your reaction, null takes it back. You cannot react to your own reply (403).',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: rateBodySchema,
          response: { 200: rateReplySchema, ...postErrors },
        },
      },
      async (request) => {
        const result = await rateReply(deps, request.actor, { id: request.params.id, rate: request.body.rate });
        return { ...result, ratings: ratingLists(deps.db, 'reply', [request.params.id], request.actor?.id ?? null).get(request.params.id) ?? [] };
      },
    );
  };
}
