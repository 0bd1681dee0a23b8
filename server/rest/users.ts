import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { secureCookies } from '../env';
import { clearSessionCookie, setSessionCookie } from '../plugins/session';
import {
  changePasswordInputSchema,
  confirmEmailOptionsSchema,
  emailInputSchema,
  googleIdTokenInputSchema,
  loginInputSchema,
  registerFields,
  registerInputSchema,
  nameDisplaySchema,
  userFlagsSchema,
} from '../../shared/schemas/accounts';
import { idSchema, languageSchema, MAX_UPLOAD_BYTES } from '../../shared/schemas/common';
import { messageText } from '../../shared/schemas/messages';
import { bannedError, changePassword, checkAuth, confirmEmail, logIn, logOut, registerUser, resendConfirmation } from '../services/accounts/accounts';
import { deleteAccount } from '../services/accounts/accounts-delete';
import { exportUserData } from '../services/accounts/accounts-export';
import { GOOGLE_FLOW_MAX_AGE_S, GOOGLE_STATE_COOKIE, GOOGLE_VERIFIER_COOKIE, googleLogInWithIdToken, startGoogleSignIn } from '../services/accounts/google';
import { parseInput } from '../lib/validation';
import { getUser, listUsers, listUsersPage, updateUser, type PublicUser } from '../services/accounts/users';
import { getPublicProfile, listMyPosts } from '../services/accounts/profiles';
import { MY_POSTS_PAGE, myPostSchema, PROFILE_PAGE, type ProfileReview } from '../../shared/schemas/profiles';
import { pageQuerySchema, queryInteger, withNextCursor } from './comment';
import { checkForm, fileFieldsOf, formBody, formFile, type FormBody } from './forms';
import { withMultipartForm } from './images';
import { errorSchema } from './openapi';

/** The reply schema strips anything not listed, so no secret can slip into a user object. */
const publicUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string().describe('As stored; others see the initial ("E.") in every lastName when nameDisplay is initial.'),
  nameDisplay: nameDisplaySchema.describe('How others see the name: initial ("Förnamn E.", the default for new accounts) or full.'),
  email: z.string(),
  image: z.string().nullable(),
  isAdmin: z.boolean(),
  isModerator: z.boolean().describe('Works the moderation queue, the rating bursts and the log (appointed by an admin).'),
  isBanned: z.boolean(),
  emailConfirmed: z.boolean(),
  isGoogleLogin: z.boolean(),
  language: languageSchema,
  favoritesCount: z.number(),
  favoriteBusinesses: z.array(z.string()).describe('The ids of the businesses among your favourites (GET /api/users/{id}/favoriteBusinesses lists them).'),
  createdAt: z.number(),
}) satisfies z.ZodType<PublicUser>;

const rows = z.array(z.record(z.string(), z.unknown()));
const exportSchema = z.object({
  exportedAt: z.string(),
  profile: publicUserSchema,
  favorites: rows,
  businessRatings: rows,
  comments: rows,
  replies: rows,
  commentRatings: rows,
  replyRatings: rows,
});

const messageSchema = z.object({ message: z.string() });
const idParams = z.object({ id: idSchema });

const profileReviewSchema = z.object({
  _id: z.string().describe('The comment: /comment/{_id} shows it.'),
  businessId: z.string(),
  businessTitle: z.string(),
  businessLocation: z.string(),
  stars: z.number().int().nullable().describe("The author's current star rating of the business (1–5); null while they have none."),
  text: z.string(),
  image: z.string().nullable(),
  date: z.string().describe('ISO 8601'),
  replyCount: z.number().int(),
  rate: z.number().nullable().describe('The average emoji rate (1–5); null while nobody has rated.'),
  ratingCount: z.number().int(),
}) satisfies z.ZodType<ProfileReview>;

const publicProfileSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string().describe('As the user shows it: the full last name, or its initial ("E.").'),
  image: z.string().nullable(),
  memberSince: z.string().describe('ISO 8601'),
  counts: z.object({
    reviews: z.number().int().describe('Public reviews (comments).'),
    replies: z.number().int().describe('Public replies.'),
    reactions: z.number().int().describe('Emoji reactions their public posts received.'),
  }),
  reviews: z.array(profileReviewSchema).describe('Their public reviews, newest first; X-Next-Cursor holds the next page.'),
});
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorSchema]));

/** Multipart text fields and JSON alike: "true"/"false" as sent by a form, or real booleans. */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional();

const updateBodySchema = z.object({
  // The service checks the names with the registration's rules (2–50 characters).
  firstName: z.string().max(200).optional().meta({ minLength: 2, maxLength: 50 }),
  lastName: z.string().max(200).optional().meta({ minLength: 2, maxLength: 50 }),
  imageId: idSchema.nullable().optional(),
  language: languageSchema.optional(),
  nameDisplay: nameDisplaySchema.optional(),
  isBanned: flag,
  banReason: userFlagsSchema.shape.banReason,
  isAdmin: flag,
  isModerator: flag,
});

const avatarFile = formFile(
  `An avatar picture (JPEG, PNG, WebP, GIF or AVIF, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB); re-encoded to WebP without metadata.`,
);

/** POST /users/register: the fields registerInputSchema parses, and the avatar. Other fields are refused. */
const registerForm = formBody(
  { ...registerFields.shape, image: avatarFile },
  {
    required: ['firstName', 'lastName', 'email', 'password', 'confirmPassword'],
    parsedLater: ['firstName', 'lastName', 'email', 'password', 'confirmPassword', 'language', 'website'],
    json: registerInputSchema,
  },
);

/** PUT /users/update/{id}: the fields updateBodySchema parses, and the avatar; the rest of a user object is ignored. */
const updateForm = formBody(
  { ...updateBodySchema.shape, image: avatarFile },
  {
    others: 'ignored',
    parsedLater: ['firstName', 'lastName', 'imageId', 'language', 'nameDisplay', 'isBanned', 'banReason', 'isAdmin', 'isModerator'],
    json: updateBodySchema,
  },
);

/**
 * The documented forms are multipart with the avatar in `image` (the only file field taken);
 * JSON bodies are accepted for the same fields.
 */
async function withForm<T>(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  body: FormBody,
  work: (form: { fields: Record<string, unknown>; image?: Buffer }) => Promise<T>,
): Promise<T> {
  // JSON: the same fields (body.json documents them); as in every JSON body, other properties are dropped.
  if (!request.isMultipart()) return work({ fields: (request.body ?? {}) as Record<string, unknown> });
  return withMultipartForm(deps, request, reply, fileFieldsOf(body), (form) => {
    checkForm(body, form);
    return work({ fields: form.fields, image: form.files.image });
  });
}

export function userRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['users'];
    const security = [{ bearer: [] }];

    app.post(
      '/logIn',
      {
        schema: {
          tags,
          summary: 'Log in with e-mail and password',
          description:
            "Sets the httpOnly session cookie and returns the token for `Authorization: Bearer`. 401 with message 'invalid' " +
            "(unknown e-mail) or 'wrong password!'; 403 when the e-mail is not confirmed or the account is banned. A banned account " +
            'with the right password gets 403 `Your account has been banned.` with the reason in `banReason`, and a restricted ' +
            'session cookie that may only log out, export the data (GET /api/users/me/export) and delete the account.',
          body: loginInputSchema,
          response: { 200: z.object({ message: z.literal('success'), userData: publicUserSchema, token: z.string() }), ...errors(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        const result = await logIn(deps, request.body, { ip: request.ip });
        setSessionCookie(reply, deps.env, result.token, result.expiresAt);
        if (result.user.isBanned) throw bannedError(result.banReason);
        return { message: 'success' as const, userData: result.user, token: result.token };
      },
    );

    app.post(
      '/googleLogIn',
      {
        schema: {
          tags,
          summary: 'Log in with a Google ID token',
          description:
            "Verifies the token's signature, issuer, audience and expiry. 404 when Google sign-in is not configured. A banned account gets 403 " +
            '`Your account has been banned.` with the reason in `banReason`, and a restricted session cookie (log out, export, delete the account).',
          body: googleIdTokenInputSchema,
          response: { 200: z.object({ user: publicUserSchema, token: z.string() }), ...errors(400, 403, 404, 429) },
        },
      },
      async (request, reply) => {
        const result = await googleLogInWithIdToken(deps, request.body, { ip: request.ip });
        setSessionCookie(reply, deps.env, result.token, result.expiresAt);
        if (result.user.isBanned) throw bannedError(result.banReason);
        return { user: result.user, token: result.token };
      },
    );

    app.get(
      '/google',
      {
        schema: {
          tags,
          summary: 'Start Google sign-in',
          description: 'Redirects (302) to the provider with state and PKCE; the provider returns the browser to /google-logIn.',
          response: { 302: z.null().describe('Redirect to the provider'), ...errors(400, 404) },
        },
      },
      async (_request, reply) => {
        const { url, state, codeVerifier } = await startGoogleSignIn(deps);
        const cookie = { httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(deps.env), path: '/', maxAge: GOOGLE_FLOW_MAX_AGE_S };
        reply.setCookie(GOOGLE_STATE_COOKIE, state, cookie);
        reply.setCookie(GOOGLE_VERIFIER_COOKIE, codeVerifier, cookie);
        return reply.redirect(url, 302);
      },
    );

    app.post(
      '/register',
      {
        config: { form: registerForm },
        schema: {
          tags,
          summary: 'Register',
          description:
            'multipart/form-data (or JSON) with firstName, lastName, email, password, confirmPassword, optional language (sv, en: ' +
            'the language of the confirmation mail) and an optional avatar file `image` (a file in any other field: 400). The field ' +
            '`website` is a spam trap and must be left empty: a form that fills it gets a 201 and nothing is stored. 201 account ' +
            'created and confirmation mail sent; 200 the e-mail is registered but unconfirmed and a new confirmation mail was ' +
            'sent; 409 already registered; 429 and 503 (with Retry-After) over the limits or while the server is busy.',
          consumes: ['multipart/form-data', 'application/json'],
          response: {
            201: z.object({ message: z.string(), user: publicUserSchema }),
            200: z.object({ message: z.string(), user: z.null() }),
            ...errors(400, 409, 413, 415, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const result = await withForm(deps, request, reply, registerForm, ({ fields, image }) =>
          registerUser(deps, { ...parseInput(registerInputSchema, fields), image }, { ip: request.ip }),
        );
        return reply.status(result.status).send({ message: messageText(result.message), user: result.user });
      },
    );

    app.post(
      '/resend-confirmation',
      {
        schema: {
          tags,
          summary: 'Resend the confirmation mail',
          description: 'The reply is the same whether or not the e-mail is registered.',
          body: emailInputSchema,
          response: { 200: messageSchema, ...errors(400, 429) },
        },
      },
      async (request) => ({ message: messageText((await resendConfirmation(deps, request.body, { ip: request.ip })).message) }),
    );

    app.put(
      '/confirm-email',
      {
        schema: {
          tags,
          summary: 'Confirm an e-mail address',
          description:
            "The token from the mailed link. 400 'This link is invalid or missing. Request a new one below.', or a message that the link expired or was used. " +
            'A link from resend-confirmation carries no password: the reply then holds `setPasswordToken`, a one-time token for ' +
            'the reset-password page (valid one hour), with which the address owner chooses the password. ' +
            "An address registered more than once (its mails differ only in the token, and one may be a stranger's) confirms only with a JSON body: " +
            '`password`, the password of the registration the link belongs to, or `choosePassword: true`, which confirms the address without a ' +
            "password and answers with `setPasswordToken` as above. Without either: 400 with `errors.password` 'This email was registered more than once. …'; " +
            "with another password: 400 'That is not the password of the registration this link belongs to. …'; 10 passwords per network and per link " +
            'in 15 minutes, then 429. An address registered once confirms with the token alone, with no body.',
          querystring: z.object({ token: z.string().max(200, 'tokenMissing').optional() }),
          body: confirmEmailOptionsSchema.nullish(),
          response: { 200: messageSchema.extend({ setPasswordToken: z.string().optional() }), ...errors(400, 429) },
        },
      },
      async (request) => {
        const result = await confirmEmail(deps, { token: request.query.token ?? '', ...request.body }, { ip: request.ip });
        return { message: messageText(result.message), ...(result.setPasswordToken ? { setPasswordToken: result.setPasswordToken } : {}) };
      },
    );

    app.get(
      '/auth/check',
      {
        schema: {
          tags,
          security,
          summary: 'The signed-in user',
          description: 'The user of the session cookie or bearer token; 401 without one, or when it expired.',
          response: { 200: z.object({ user: publicUserSchema }), ...errors(401) },
        },
      },
      async (request) => checkAuth(deps, request.actor),
    );

    app.post(
      '/logOut',
      {
        schema: {
          tags,
          security,
          summary: 'Log out',
          description: 'Ends this session and clears the cookie.',
          response: { 200: messageSchema, ...errors(401) },
        },
      },
      async (request, reply) => {
        const result = logOut(deps, request.actor, request.sessionId);
        clearSessionCookie(reply, deps.env);
        return { message: messageText(result.message) };
      },
    );

    app.post(
      '/me/password',
      {
        schema: {
          tags,
          security,
          summary: 'Change my password',
          description:
            'Needs the current password. Ends every other session of the account; this one stays. 400 when the current password ' +
            'is wrong or the account has none yet (choose one through the forgot-password mail); 429 after 5 attempts in 15 minutes.',
          body: changePasswordInputSchema,
          response: { 200: messageSchema, ...errors(400, 401, 429) },
        },
      },
      async (request) => {
        const result = await changePassword(deps, request.actor, request.sessionId, request.body);
        return { message: messageText(result.message) };
      },
    );

    app.get(
      '/me/export',
      {
        schema: {
          tags,
          security,
          summary: 'Download my data',
          description: 'A JSON file with the profile (no secrets), favourites, ratings, comments and replies of the signed-in user.',
          response: { 200: exportSchema, ...errors(401) },
        },
      },
      async (request, reply) => {
        const data = exportUserData(deps, request.actor);
        const day = data.exportedAt.slice(0, 10);
        reply.header('content-disposition', `attachment; filename="recensera-data-${day}.json"`);
        reply.header('cache-control', 'no-store');
        return data;
      },
    );

    app.get(
      '/',
      {
        schema: {
          tags,
          security,
          summary: 'All users (admins)',
          description:
            'Every account, oldest first. With `?q=` (any part of the name or e-mail) or `?limit=` (1–200) it answers one page ' +
            'instead; the header X-Next-Cursor then holds the ?cursor= of the next page.',
          querystring: z.object({
            q: z.string().trim().max(200).optional().describe('Part of a name ("first last") or an e-mail address.'),
            limit: queryInteger(1, 200).optional().describe('How many accounts, 1–200.'),
            cursor: z.string().min(1).max(200).optional().describe('The X-Next-Cursor header of the previous page.'),
          }),
          response: { 200: z.array(publicUserSchema), ...errors(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { q, limit, cursor } = request.query;
        if (q === undefined && limit === undefined && cursor === undefined) return listUsers(deps, request.actor);
        const page = listUsersPage(deps, request.actor, { q, limit, cursor });
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    app.get(
      '/me/posts',
      {
        schema: {
          tags,
          security,
          summary: 'My reviews or my replies',
          description:
            `The signed-in user's own reviews (?kind=reviews) or replies (?kind=replies), newest first, a page of ${MY_POSTS_PAGE} ` +
            '(?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page. Hidden and removed ones are listed too, marked.',
          querystring: pageQuerySchema.extend({ kind: z.enum(['reviews', 'replies']).describe('reviews or replies') }),
          response: { 200: z.array(myPostSchema), ...errors(400, 401) },
        },
      },
      async (request, reply) => {
        const page = listMyPosts(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return page.items;
      },
    );

    app.get(
      '/:id/profile',
      {
        schema: {
          tags,
          summary: "A user's public profile",
          description:
            'No sign-in needed. Name as the user chose to show it, avatar, member since, counts, and their public reviews newest first: ' +
            `a page of ${PROFILE_PAGE} (?limit= 1–100); the header X-Next-Cursor holds the ?cursor= of the next page. ` +
            'Hidden and removed posts never appear; no e-mail address or account flag is ever part of it.',
          params: idParams,
          querystring: pageQuerySchema,
          response: { 200: publicProfileSchema, ...errors(400, 404) },
        },
      },
      async (request, reply) => {
        const { nextCursor, ...profile } = getPublicProfile(deps, { id: request.params.id, ...request.query });
        withNextCursor(reply, nextCursor);
        return profile;
      },
    );

    app.get(
      '/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One user (yourself, or anyone for admins)',
          description: 'The user object with the ids of their favourite businesses; 403 for anyone else.',
          params: idParams,
          response: { 200: publicUserSchema, ...errors(401, 403, 404) },
        },
      },
      async (request) => getUser(deps, request.actor, request.params.id),
    );

    app.put(
      '/update/:id',
      {
        config: { form: updateForm },
        schema: {
          tags,
          security,
          summary: 'Update a user',
          description:
            'Yourself: firstName, lastName, nameDisplay (initial or full), language and an avatar (multipart file `image`, or `imageId` from POST /api/images; ' +
            '`imageId: null` removes it). ' +
            'Admins on any user: isBanned (with an optional `banReason`, up to 500 characters, stored, logged and shown to the user at login), isAdmin and isModerator (the whole user object may be sent; other fields are ignored). ' +
            'multipart/form-data or JSON.',
          consumes: ['multipart/form-data', 'application/json'],
          params: idParams,
          response: { 200: publicUserSchema, ...errors(400, 401, 403, 404, 409, 413, 415, 429, 503) },
        },
      },
      async (request, reply) =>
        withForm(deps, request, reply, updateForm, ({ fields, image }) =>
          updateUser(deps, request.actor, request.params.id, { ...parseInput(updateBodySchema, fields), image }),
        ),
    );

    app.delete(
      '/deleteUser/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Delete a user (yourself, or anyone for admins)',
          description: 'Removes the account with everything it wrote and rated; 409 for the last admin.',
          params: idParams,
          response: { 200: z.object({ success: z.literal(true) }), ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => deleteAccount(deps, request.actor, request.params.id),
    );
  };
}
