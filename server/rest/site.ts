import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { contactInputSchema, idSchema, languageSchema } from '../../shared/schemas/common';
import { CONTACT_INBOX_PAGE, contactReadInputSchema } from '../../shared/schemas/contact-inbox';
import { messageText } from '../../shared/schemas/messages';
import { listContactMessages, sendContactMessage, setContactMessageRead } from '../services/moderation/contact';
import { outboxReport } from '../services/ops/mail-outbox';
import { SITE_NAME_MAX, SITE_TAGLINE_MAX, SITE_WELCOME_MAX } from '../../shared/schemas/site-settings';
import { siteSettingsInputSchema } from '../../shared/schemas/site-settings-input';
import { getSiteSettings, updateSiteSettings } from '../services/site/site-settings';
import { pageQuerySchema, withNextCursor } from './comment';
import { errorSchema } from './openapi';

const contactMessageSchema = z.object({
  _id: z.string(),
  fromName: z.string(),
  email: z.string(),
  message: z.string(),
  language: z.enum(['sv', 'en']).describe('The interface language the sender wrote in: answer in it.'),
  date: z.string(),
  mailedAt: z.string().nullable().describe('When it was mailed to CONTACT_EMAIL; null when not (no address set, or not yet).'),
  readAt: z.string().nullable().describe('When an admin marked it read; null while unread.'),
});

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

const bothLanguages = (max: number) =>
  z.object({ sv: z.string().max(max), en: z.string().max(max) }).describe(`Swedish and English, at most ${max} characters each.`);

const siteSettingsSchema = z.object({
  name: z.string().max(SITE_NAME_MAX).describe("The site's name: page titles, mails, share previews (og:site_name) and schema.org data."),
  tagline: bothLanguages(SITE_TAGLINE_MAX).describe('After the name in the home page\'s title ("Recensera – betyg och omdömen …").'),
  welcome: bothLanguages(SITE_WELCOME_MAX).describe('The welcome text at the top of the home page.'),
  updatedAt: z.string().nullable().describe("When an admin last saved them; null while the release's own words are used."),
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

    app.get(
      '/contact-messages',
      {
        schema: {
          tags: ['site'],
          summary: 'Stored contact-form messages, newest first (admins)',
          description:
            'Every message the contact form stored, mailed to CONTACT_EMAIL or not. `?unread=true` narrows to those no admin marked read; ' +
            `\`unread\` counts them all. A page of ${CONTACT_INBOX_PAGE} (?limit= 1–100); \`nextCursor\` (also the header X-Next-Cursor) is the ?cursor= of the next page.`,
          security: [{ bearer: [] }],
          querystring: pageQuerySchema.extend({ unread: z.enum(['true', 'false']).optional().describe('`true`: unread messages only.') }),
          response: {
            200: z.object({ items: z.array(contactMessageSchema), nextCursor: z.string().nullable(), unread: z.number() }),
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        const { unread, ...page } = request.query;
        const result = listContactMessages(deps, request.actor, { ...page, unread: unread === 'true' });
        withNextCursor(reply, result.nextCursor);
        return result;
      },
    );

    app.put(
      '/contact-messages/:id/read',
      {
        schema: {
          tags: ['site'],
          summary: 'Mark a contact message read or unread (admins)',
          description: 'Body `{ "read": true }` marks it read (the first time counts), `false` unread again. 404 for an unknown id.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: contactReadInputSchema.pick({ read: true }),
          response: { 200: contactMessageSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => setContactMessageRead(deps, request.actor, { id: request.params.id, read: request.body.read }),
    );

    app.get(
      '/site-settings',
      {
        config: { publicCache: true },
        schema: {
          tags: ['site'],
          summary: "The site's name, tagline and welcome text",
          description:
            'The words in use: what an admin set (PUT), else the release\'s own ("Recensera" and its home page copy). ' +
            'Page titles, mails, share previews and schema.org data use the name.',
          response: { 200: siteSettingsSchema },
        },
      },
      async () => getSiteSettings(deps),
    );

    app.put(
      '/site-settings',
      {
        schema: {
          tags: ['site'],
          summary: "Set the site's name, tagline and welcome text (admins)",
          description:
            `JSON {name, tagline: {sv, en}, welcome: {sv, en}}, every field required: name at most ${SITE_NAME_MAX} characters, ` +
            `taglines at most ${SITE_TAGLINE_MAX}, welcome texts at most ${SITE_WELCOME_MAX}; line breaks become spaces. An empty ` +
            "field (or the release's own text) means the default. Counted against the admin's edits (30 a minute, 429) and " +
            'written to the moderation log. Every page and public reply shows the change at once.',
          security: [{ bearer: [] }],
          body: siteSettingsInputSchema,
          response: { 200: siteSettingsSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema },
        },
      },
      async (request) => updateSiteSettings(deps, request.actor, request.body),
    );
  };
}
