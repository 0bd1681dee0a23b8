import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { z } from 'zod';
import { SESSION_COOKIE } from '../services/accounts/sessions';
import { formSchemaOf, requestSchemaOf, type FormBody } from './forms';

/**
 * What the OpenAPI document (GET /api/docs) says beyond each route's own schema, in one place:
 * the shared error body, the request bodies of forms (from each route's `config.form`, forms.ts), the statuses every route of a kind can
 * answer, operation ids, tags and the top-level description. The routes keep their summaries,
 * params and reply schemas; `documentBuilder` adds the rest when @fastify/swagger builds the
 * document, so a new route is complete without repeating any of it.
 */

/** The one error body of the API (plugins/errors.ts writes it), `#/components/schemas/Error`. */
export const errorSchema = z
  .object({
    message: z
      .string()
      .describe(
        "The product's English text for `key`, whatever the request's language (`lang` cookie, Accept-Language); " +
          'the login replies `invalid` and `wrong password!` are the legacy texts, unchanged.',
      ),
    key: z.string().describe('A stable key for the message, e.g. `invalidInput`, `tooManyRequests`: show your own translation of it.'),
    errors: z
      .record(z.string(), z.string())
      .optional()
      .describe("Per-field messages of a 400, each one of the product's English texts (e.g. `*Required`, `Too long.`), never a library's."),
    banReason: z.string().optional().describe('The reason an admin gave for the ban, as written (the 403 `banned` of a login with the right password).'),
  })
  .meta({ id: 'Error' });

export const NEXT_CURSOR = 'X-Next-Cursor';

/** Either proves who is calling: the token as a bearer header, or the browser's session cookie. */
export const securitySchemes = {
  bearer: { type: 'http', scheme: 'bearer', description: 'The token of POST /api/users/logIn (or googleLogIn).' },
  session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The httpOnly cookie the sign-in sets in a browser.' },
} as const;

export const documentTags = [
  { name: 'users', description: 'Accounts, sign-in (session cookie or bearer token) and profiles.' },
  { name: 'favorites', description: "A signed-in user's favourite businesses." },
  { name: 'business', description: 'The business directory: businesses, categories, star ratings and photo galleries.' },
  { name: 'comment', description: 'Comments on businesses, their emoji reactions (a 1–5 scale; `rate` is their average) and reports.' },
  { name: 'subComment', description: 'Replies to comments, their emoji reactions (a 1–5 scale) and reports.' },
  { name: 'images', description: 'Image uploads whose id a later form passes as imageId.' },
  { name: 'site', description: 'The contact form and the mail outbox.' },
  { name: 'moderation', description: 'Reports, the moderation log and rating bursts (admins).' },
  { name: 'notifications', description: "The signed-in user's notifications: replies, reactions, new reviews of favourites, moderation." },
];

export function documentInfo(version: string, siteUrl: string) {
  return {
    title: 'Recensera REST API',
    version,
    contact: { name: 'Recensera', url: `${siteUrl}/contact` },
    description:
      'The documented REST API under /api. JSON in and out unless an operation takes multipart/form-data. ' +
      'Sign in with POST /api/users/logIn: the reply sets the httpOnly `session` cookie and returns a token for ' +
      '`Authorization: Bearer`. Every error is an `Error` object: `message` is English, whatever language the request ' +
      "asks for, and `key` names it for a client's own translation. **CORS: same-origin only.** No CORS headers are sent, so browsers let only the site's own " +
      'pages read replies; a state-changing request carrying the session cookie from another site (Origin or ' +
      'Sec-Fetch-Site) is refused with 403, while bearer-token clients outside a browser are not affected. ' +
      'A path used with a method it does not have answers 405 with `Allow`. HEAD answers every GET with the same ' +
      'headers and no body. Public lists for visitors carry an `ETag`, one per content encoding (answer `If-None-Match`, ' +
      'weak, a list or `*`, with 304). Multipart-only operations answer other body types with 415. Writes are ' +
      'limited per user or IP address, and every client to a number of requests a minute and of open connections ' +
      '(429 with Retry-After). JSON bodies: at most 32 KB, arrays and objects nested at most 20 deep.',
  };
}

/**
 * The document's path of a Fastify route: `{param}` for `:param`, no trailing slash (Fastify
 * answers both), and the business's comments under the same template as the removal of one
 * comment. `GET /api/comment/{businessId}` and `DELETE /api/comment/{id}` are one URL shape
 * to a client: OpenAPI (and Spectral's `path-params`) forbid two templates that differ only by
 * a parameter's name, so the document lists one path item whose `{id}` is the business for GET
 * and the comment for DELETE. Requests are unchanged; only the document's name differs.
 */
export function documentPath(url: string): string {
  const path = templateOf(url);
  return Object.entries(renamedParams[path] ?? {}).reduce((renamed, [from, to]) => renamed.replace(`{${from}}`, `{${to}}`), path);
}

/** Path parameters the document names differently from the route, by the route's template. */
const renamedParams: Record<string, Record<string, string>> = { '/api/comment/{businessId}': { businessId: 'id' } };
/** A Fastify URL as an OpenAPI template: `{param}` for `:param`, no trailing slash. */
const templateOf = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1');

/** `getCommentById`, `postUsersLogIn`: the method and the path's words, parameters as `By…`. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const word = (param ? `by-${param[1]}` : segment).replace(/[-_]+(.)/g, (_m, c: string) => c.toUpperCase());
      return word.charAt(0).toUpperCase() + word.slice(1);
    });
  return method.toLowerCase() + words.join('');
}

type RouteFacts = { publicCache: boolean; multipart: boolean; rateLimited: boolean; form?: FormBody; json: boolean };

/**
 * The `transform` and `transformObject` of @fastify/swagger: each route's zod schemas become
 * JSON Schema (`zod`), its path is written as the document writes it and its facts are kept
 * for `completeDocument`, which then adds what no single route says.
 */
export function documentBuilder(
  zod: { transform: SwaggerTransform; transformObject: SwaggerTransformObject },
  servers: { url: string; description: string }[],
) {
  const facts = new Map<string, RouteFacts>();
  const transform: SwaggerTransform = (input) => {
    const out = zod.transform(input);
    const url = documentPath(input.url);
    const renames = renamedParams[templateOf(input.url)];
    const params = (out.schema as { params?: unknown } | undefined)?.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (renames && params?.properties) {
      for (const [from, to] of Object.entries(renames)) {
        params.properties[to] = params.properties[from];
        delete params.properties[from];
        params.required = params.required?.map((name) => (name === from ? to : name));
      }
    }
    const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
    for (const method of ([] as string[]).concat(input.route.method)) {
      facts.set(`${method} ${url}`, {
        publicCache: input.route.config?.publicCache === true,
        multipart: consumes.includes('multipart/form-data'),
        rateLimited: Boolean(input.route.config?.rateLimit),
        form: input.route.config?.form,
        json: consumes.includes('application/json'),
      });
    }
    return { ...out, url };
  };
  const transformObject: SwaggerTransformObject = (input) => completeDocument(zod.transformObject(input), facts, servers);
  return { transform, transformObject };
}

const errorRef = { $ref: '#/components/schemas/Error' };
const retryAfter = { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } };
const errorReply = (description: string, headers?: Record<string, object>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: errorRef } },
});

/** The statuses any route of a kind can answer, whatever its own schema lists. */
const commonResponses = {
  400: errorReply('Bad input: a path parameter, query, or body field that is not valid (`errors` names the fields).'),
  403: errorReply('Forbidden: not allowed, or (for a write with the session cookie) sent from another site.'),
  413: errorReply('The body is too large (JSON over 1 MB, a file over 10 MB).'),
  415: errorReply('The Content-Type is not one the operation reads, or JSON not in UTF-8.'),
  429: errorReply('Too many requests: over a limit of the user or IP address.', { 'Retry-After': retryAfter }),
  500: errorReply('An unexpected error; the details are in the server log.'),
  503: errorReply('The server is busy with other uploads; try again later.', { 'Retry-After': retryAfter }),
};

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  description?: string;
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; headers?: Record<string, object>; content?: Record<string, { schema?: Record<string, unknown> }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> } & Record<string, unknown>;

const WRITES = new Set(['post', 'put', 'delete', 'patch']);

/** Adds to the built document what no single route says (see the top of this file). */
function completeDocument<T>(document: T, routeFacts: Map<string, RouteFacts>, servers: { url: string; description: string }[]): T {
  const doc = document as Doc;
  doc.servers = servers;
  doc.tags = documentTags;
  dropUnusedInputCopies(doc);
  nullInNullableEnums(doc);
  noSafeIntegerBounds(doc);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const facts = routeFacts.get(`${method.toUpperCase()} ${path}`) ?? { publicCache: false, multipart: false, rateLimited: false, json: false };
      op.operationId ??= operationIdOf(method, path);
      if (op.security?.some((s) => 'bearer' in s) && !op.security.some((s) => 'session' in s)) op.security = [...op.security, { session: [] }];
      const r = op.responses;
      // One error schema: inline copies become the shared component.
      for (const reply of Object.values(r)) {
        for (const media of Object.values(reply.content ?? {})) if (isErrorCopy(media.schema)) media.schema = errorRef;
      }
      const add = (status: number, reply: object) => {
        r[status] ??= reply as Operation['responses'][string];
      };
      const hasParams = (op.parameters ?? []).length > 0;
      if (hasParams || op.requestBody || WRITES.has(method)) add(400, commonResponses[400]);
      if (WRITES.has(method)) {
        add(403, commonResponses[403]);
        add(413, commonResponses[413]);
        add(415, commonResponses[415]);
        add(429, commonResponses[429]);
      }
      // Every route counts against the general per-client limit (app.ts), or a limit of its own.
      add(429, commonResponses[429]);
      if (facts.multipart) add(503, commonResponses[503]);
      add(500, commonResponses[500]);
      // A redirect has no body, only where to go.
      for (const status of ['301', '302', '303', '307', '308']) {
        if (!r[status]) continue;
        delete r[status].content;
        r[status].headers = { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } }, ...r[status].headers };
      }
      for (const reply of [r[429], r[503]]) if (reply) reply.headers = { 'Retry-After': retryAfter, ...reply.headers };
      if (facts.publicCache) {
        add(304, { description: "Not modified: the `If-None-Match` sent is the list's current ETag (visitors only)." });
        for (const status of ['200', '304']) {
          if (r[status]) {
            r[status].headers = {
              ETag: { description: 'For visitors (no session): the tag to send back as If-None-Match.', schema: { type: 'string' } },
              'Cache-Control': {
                description:
                  'For visitors: `public, max-age=0, s-maxage=5, stale-while-revalidate=5`: browsers ask again (If-None-Match), shared caches may keep it seconds. With a session or token: `private, no-store`.',
                schema: { type: 'string' },
              },
              ...r[status].headers,
            };
          }
        }
      }
      if ((op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'cursor') && r[200]) {
        r[200].headers = {
          [NEXT_CURSOR]: { description: 'Present when there is a next page: its `?cursor=`.', schema: { type: 'string' } },
          ...r[200].headers,
        };
      }
      // A form's body: the fields its route checks (forms.ts), as multipart and, when it takes JSON too, as JSON.
      const form = facts.form;
      if (form) {
        op.requestBody = {
          required: true,
          content: {
            'multipart/form-data': { schema: formSchemaOf(form) },
            ...(facts.json && form.json ? { 'application/json': { schema: requestSchemaOf(form.json) } } : {}),
          },
        };
      }
      if (op.requestBody) acceptLikeTheServer(op.requestBody.content);
      // The comment path item: one `{id}` for two uses (see documentPath).
      if (path === '/api/comment/{id}') {
        const id = op.parameters?.find((p) => p.in === 'path' && p.name === 'id');
        if (id) id.description = method === 'get' ? 'The business whose comments are listed.' : 'The comment to remove.';
      }
    }
  }
  return document;
}

/**
 * zod-to-JSON writes each registered schema twice, as read (`ErrorInput`) and as written; the
 * document only answers errors, so an input copy nothing refers to is left out.
 */
function dropUnusedInputCopies(doc: Doc) {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const text = JSON.stringify(doc.paths);
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
}

/**
 * OpenAPI 3.0.3: `nullable` does not widen an `enum`, so a nullable enum (a report group's
 * `resolution`) must list null itself, or validators refuse the null the server sends.
 */
function nullInNullableEnums(node: unknown) {
  if (!node || typeof node !== 'object') return;
  const s = node as Record<string, unknown>;
  if (s.nullable === true && Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...(s.enum as unknown[]), null];
  for (const value of Object.values(s)) nullInNullableEnums(value);
}

/**
 * zod writes `z.number().int()` with JavaScript's safe-integer range as minimum and maximum
 * (±9007199254740991): no limit of ours, only noise a client would copy. Bounds the code sets
 * (`.min(1)`, `.max(5)`) stay.
 */
function noSafeIntegerBounds(node: unknown) {
  if (!node || typeof node !== 'object') return;
  const s = node as Record<string, unknown>;
  if (s.type === 'integer') {
    if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  }
  for (const value of Object.values(s)) noSafeIntegerBounds(value);
}

/** An inline object with exactly the error body's properties (a copy left in a route). */
function isErrorCopy(schema: Record<string, unknown> | undefined): boolean {
  const properties = schema?.properties as Record<string, unknown> | undefined;
  if (!properties || schema?.$ref) return false;
  return ['message', 'key', 'errors'].every((k) => k in properties) && Object.keys(properties).length === 3;
}

/**
 * The server trims and lower-cases e-mail addresses before checking them, so the document's
 * e-mail fields carry no `pattern` or `format` of zod's stricter expression (a client checking
 * with them would refuse ` Kim@Example.se `, which the server takes).
 */
function acceptLikeTheServer(content: Record<string, { schema: object }>) {
  const visit = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (s.format === 'email') {
      delete s.format;
      delete s.pattern;
      s.description ??= 'An e-mail address (surrounding spaces are ignored, case does not matter).';
    }
    for (const value of Object.values(s)) visit(value);
  };
  for (const media of Object.values(content)) visit(media.schema);
}
