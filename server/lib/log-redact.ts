import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets: the token of a confirmation or reset link and
 * the one-time code and state Google sends back to /google-logIn. Anyone who reads the log
 * could otherwise confirm or reset an account, or finish someone's sign-in.
 */
const SECRET_PARAMS = /([?&](?:token|code|state|id_token|access_token)=)[^&#]*/gi;

/** A URL as the log may show it: secret query values replaced with [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's own request serializer for the log, with the URL redacted. */
export function requestLogValue(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Fastify's response serializer for the "request completed" line: with the method, the route
 * that answered (its pattern, e.g. /api/comment/:id; absent for a 404) and the redacted path,
 * so a failed request is found without matching request ids to their "incoming request" line.
 */
export function responseLogValue(reply: { statusCode?: number; request?: Pick<FastifyRequest, 'method' | 'url'> & { routeOptions?: { url?: string } } }) {
  const request = reply.request;
  if (!request) return { statusCode: reply.statusCode };
  return {
    statusCode: reply.statusCode,
    method: request.method,
    route: request.routeOptions?.url,
    url: redactUrl(request.url),
  };
}
