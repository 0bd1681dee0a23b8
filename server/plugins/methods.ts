import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';
import { appErrorBody } from './errors';

type ApiRoute = { method: string; pattern: RegExp };

/** A route path as a regular expression for a concrete path: `:param` is one segment. */
const patternOf = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[^/]+/g, '[^/]+')
      .replace(/\*/g, '.*')}$`,
  );

/**
 * REST paths used with a method they do not have answer 405 with `Allow` (RFC 9110 15.5.6),
 * instead of 404, or instead of being taken by a parametric route of that method: today
 * `GET /api/users/logIn` reached `GET /api/users/:id` (id "logIn") and said 401, and
 * `DELETE /api/comment/most-rated` reached `DELETE /api/comment/:id`. Register before the routes.
 */
export function registerMethodCheck(app: FastifyInstance) {
  const routes: ApiRoute[] = [];
  /** Literal paths and their methods: the check on a parametric match is one lookup. */
  const literal = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of ([] as string[]).concat(route.method)) {
      const isLiteral = !/[:*]/.test(route.url);
      routes.push({ method, pattern: patternOf(route.url) });
      if (isLiteral) literal.set(route.url, (literal.get(route.url) ?? new Set()).add(method));
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const matched = request.is404 ? null : request.routeOptions.url;
    // A literal path was matched as it should be: nothing to check.
    if (matched && !/[:*]/.test(matched)) return;
    const end = request.url.indexOf('?');
    const path = end === -1 ? request.url : request.url.slice(0, end);
    let allow: string[];
    if (matched) {
      // Taken by a parameter: only a literal path of other methods counts, so `GET
      // /api/users/<id>` stays a user lookup.
      const methods = literal.get(path);
      if (!methods || methods.has(request.method)) return;
      allow = [...methods];
    } else {
      // Not found: a literal path's methods, else those of any route whose pattern matches
      // (rare, so a scan).
      const methods = literal.get(path);
      allow = methods ? [...methods] : routes.filter((r) => r.method !== request.method && r.pattern.test(path)).map((r) => r.method);
      if (allow.length === 0) return;
    }
    return reply
      .status(405)
      .header('allow', [...new Set(allow)].sort().join(', '))
      .send(appErrorBody(new AppError('METHOD_NOT_ALLOWED', 'methodNotAllowed')));
  });
}

/**
 * HEAD of a catch-all route that has no HEAD of its own runs as its GET: tRPC's handler (one
 * route for every method) answers HEAD with an empty 204, where a client expects the GET's
 * status and headers (ETag, Vary, Cache-Control, Content-Length). Node's response was made
 * for a HEAD request, so it sends the headers and no body. Fastify's own routes get a HEAD
 * route from their GET and need none of this. Register in the scope of such routes.
 */
export function registerHeadAsGet(scope: FastifyInstance) {
  scope.addHook('onRequest', async (request) => {
    if (request.raw.method === 'HEAD') request.raw.method = 'GET';
  });
}

/**
 * Fastify's own HEAD routes end their onSend hooks with a step that drops the body and sets
 * Content-Length from it; @fastify/compress, added to each route later, then sees no body: a
 * HEAD of a compressed reply lost its Content-Encoding and Vary and gave the uncompressed
 * length. Registered after compress, this moves that step behind compress's hook, so HEAD
 * answers the GET's headers exactly. Fastify names the step `headRouteOnSendHandler`
 * (lib/head-route.js); rest/http-details.test.ts fails if it stops finding it.
 */
export function registerHeadAfterCompression(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD' || !Array.isArray(route.onSend)) return;
    const hooks = route.onSend as ((...args: never[]) => unknown)[];
    const index = hooks.findIndex((hook) => hook.name === 'headRouteOnSendHandler');
    if (index === -1 || index === hooks.length - 1) return;
    const [dropBody] = hooks.splice(index, 1);
    hooks.push(dropBody);
  });
}
