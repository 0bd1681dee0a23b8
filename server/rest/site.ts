import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../deps';
import { contactInputSchema, languageSchema } from '../schemas/common';
import { messageText } from '../schemas/messages';
import { sendContactMessage } from '../services/contact';

const errorSchema = z.object({
  message: z.string(),
  key: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});

/** Site-wide routes at the API root: the contact form. */
export function siteRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/contact',
      {
        schema: {
          tags: ['site'],
          summary: 'Send a message to the site',
          description:
            'JSON {from_name, user_email, message}, all required (name at most 100, e-mail at most 254, message at most ' +
            '5000 characters). The message is stored and, when the site has a contact address, mailed there with ' +
            'Reply-To the sender. The `lang` cookie (sv or en, default sv) records the sender\'s language. ' +
            'At most 5 messages a minute per IP address and per e-mail (429).',
          body: contactInputSchema,
          response: { 201: z.object({ message: z.string() }), 400: errorSchema, 403: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        await sendContactMessage(deps, request.body, {
          ip: request.ip,
          language: languageSchema.catch('sv').parse(request.cookies.lang),
          log: request.log,
        });
        return reply.status(201).send({ message: messageText('contactSent') });
      },
    );
  };
}
