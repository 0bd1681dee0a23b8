import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../deps';
import { contactInputSchema, languageSchema } from '../schemas/common';
import { messageText } from '../schemas/messages';
import { sendContactMessage } from '../services/contact';
import { outboxReport } from '../services/mail-outbox';
import { errorSchema } from './openapi';

const queuedMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.number().nullable().describe('When the next attempt is made (ms since epoch); null once given up'),
  failedAt: z.number().nullable().describe('When the outbox gave up (after 10 attempts)'),
  createdAt: z.number(),
});

/** Site-wide routes at the API root: the contact form, the mail outbox for admins. */
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
            "Reply-To the sender. The `lang` cookie (sv or en, default sv) records the sender's language. " +
            'At most 5 messages a minute per IP address and per e-mail (429). `website` is a spam trap and must be left empty: ' +
            'a message that fills it gets the same 201 and is neither stored nor mailed.',
          body: contactInputSchema,
          response: { 201: z.object({ message: z.string() }), 400: errorSchema, 403: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        await sendContactMessage(deps, request.body, {
          ip: request.ip,
          language: languageSchema.catch('sv').parse(request.cookies.lang),
        });
        return reply.status(201).send({ message: messageText('contactSent') });
      },
    );

    app.get(
      '/mail-outbox',
      {
        schema: {
          tags: ['site'],
          summary: 'Mails waiting to be sent (admins)',
          description:
            'Every mail (confirmation, password reset, contact) is queued and sent by a worker that retries failures with ' +
            'backoff (1 minute doubling up to 6 hours, 10 attempts). `waiting` counts mails still being tried, `failed` those given up (their bodies are removed); ' +
            '`failing` lists the newest 100 that failed at least once, without their bodies.',
          security: [{ bearer: [] }],
          response: {
            200: z.object({ waiting: z.number(), failed: z.number(), failing: z.array(queuedMailSchema) }),
            401: errorSchema,
            403: errorSchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return outboxReport(deps, request.actor);
      },
    );
  };
}
