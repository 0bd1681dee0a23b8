import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import {
  mailChoices,
  markReadInputSchema,
  notificationKinds,
  NOTIFICATIONS_PAGE,
  notificationSettingsInputSchema,
  READ_IDS_MAX,
  THREAD_COUNT_MAX,
} from '../../shared/schemas/notifications';
import { getNotificationSettings, setNotificationSettings } from '../services/notifications/notification-mails';
import { listNotifications, markNotificationsRead } from '../services/notifications/notifications';
import { pageQuerySchema, withNextCursor } from './comment';
import { errorSchema } from './openapi';

const notificationSchema = z.object({
  _id: z.string().describe('What POST /notifications/read takes.'),
  kind: z
    .enum(notificationKinds)
    .describe(
      'reply: to your comment; threadReply: in a thread you replied in (both one entry per thread while unread, linking to the first reply missed; count: replies since); reaction: to your post (count people); favoriteReview: a new review of a ' +
        'favourite business; ownerReply: the business answered your review (actor null); hidden, removed (reason), restored: your post; ownerReplyHidden, ownerReplyRemoved (reason, may be null), ownerReplyRestored: ' +
        'the answer of a business you own to a review (commentId: the review); reportResolved: a report you made (reason remove or dismiss); ' +
        'suggestionApproved, suggestionRejected (reason): your suggestion of a place; claimApproved, claimRejected (reason, may be null): your claim of a business. ' +
        'The last four have no comment.',
    ),
  createdAt: z.string().describe('ISO 8601; for grouped reactions and replies, the first one.'),
  read: z.boolean(),
  count: z
    .number()
    .int()
    .describe(
      `People who reacted (reaction); replies in the thread from the first one missed on, at most ${THREAD_COUNT_MAX} (reply, threadReply); 1 for the other kinds.`,
    ),
  actor: z
    .object({ _id: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable()
    .describe('Who did it (the first for grouped reactions, the latest replier for reply and threadReply); null for moderation.'),
  commentId: z.string().nullable().describe('The thread; null for a decision on a suggestion or a claim.'),
  replyId: z.string().nullable(),
  businessId: z.string().nullable().describe('The business; null for a rejected suggestion (no business was made).'),
  businessTitle: z.string().describe("The business's name, or the suggested name of a rejected suggestion."),
  suggestionId: z.string().nullable().describe('The suggestion a decision is about (suggestionApproved, suggestionRejected).'),
  reason: z.string().nullable().describe("A removal's or a rejection's reason as its author is told it; a report's outcome (remove or dismiss)."),
  link: z
    .string()
    .describe(
      'Where the entry leads: the exact post (/comment/{commentId}#reply-{replyId} or #comment-{commentId}); /business/{businessId} for an approved ' +
        'suggestion or claim; /suggest (your suggestions with their reasons) for a rejected suggestion; /user (your businesses and claims) for a rejected claim.',
    ),
});

const unreadSchema = z.number().int().describe("The caller's unread notifications.");

/** The signed-in user's notifications (issue 30), under /api/notifications. */
export function notificationRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['notifications'];

    app.get(
      '/',
      {
        schema: {
          tags,
          summary: 'Your notifications, newest first',
          description:
            `The signed-in user's only. A page of ${NOTIFICATIONS_PAGE} (?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page. ` +
            'Nothing from a banned or deleted account; a reply or review hidden since is left out.',
          security: [{ bearer: [] }],
          querystring: pageQuerySchema,
          response: { 200: z.object({ items: z.array(notificationSchema), unread: unreadSchema }), 400: errorSchema, 401: errorSchema },
        },
      },
      async (request, reply) => {
        const page = listNotifications(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return { items: page.items, unread: page.unread };
      },
    );

    app.post(
      '/read',
      {
        schema: {
          tags,
          summary: 'Mark notifications read',
          description: `\`{ "ids": [...] }\` (1–${READ_IDS_MAX} of yours; others' ids change nothing) or \`{ "all": true }\`. Answers the unread count after.`,
          security: [{ bearer: [] }],
          body: markReadInputSchema,
          response: { 200: z.object({ unread: unreadSchema }), 400: errorSchema, 401: errorSchema, 429: errorSchema },
        },
      },
      async (request) => markNotificationsRead(deps, request.actor, request.body),
    );
  };
}

const choice = z.enum(mailChoices);
const settingsSchema = z.object({ replies: choice, reactions: choice, reviews: choice, moderation: choice });

/** The signed-in user's e-mail choices, under /api/notification-settings. */
export function notificationSettingsRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['notifications'];
    const description =
      'E-mail per kind: `instant` (at most one mail per thread an hour), `daily` (one digest a day) or `off`. replies: replies to you and in ' +
      'threads you replied in; reactions; reviews: new reviews of your favourites; moderation: decisions on your posts and reports. ' +
      'Defaults: replies and moderation instant, reactions and reviews daily. Someone who has never posted gets no mail.';

    app.get(
      '/',
      {
        schema: {
          tags,
          summary: 'Your e-mail choices for notifications',
          description,
          security: [{ bearer: [] }],
          response: { 200: settingsSchema, 401: errorSchema },
        },
      },
      async (request) => getNotificationSettings(deps, request.actor),
    );

    app.put(
      '/',
      {
        schema: {
          tags,
          summary: 'Change your e-mail choices for notifications',
          description: `${description} Only the kinds given change.`,
          security: [{ bearer: [] }],
          body: notificationSettingsInputSchema,
          response: { 200: settingsSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
        },
      },
      async (request) => setNotificationSettings(deps, request.actor, request.body),
    );
  };
}
