import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { PublicCache } from './public-cache-store';

/**
 * The HTTP server Fastify listens on, with the public cache in front: a hit never reaches
 * Fastify, so it writes no log line, gets no request id, runs no hook and counts against no
 * per-IP limit (docs/decisions/001 says what that means and how to turn it off); `onHit`
 * counts it instead (app.ts logs the count each minute). It carries the same timeouts Fastify
 * would set on its own server.
 */
export function cacheFirstServer(
  cache: PublicCache,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: FastifyServerOptions,
  onHit: () => void = () => undefined,
) {
  const server = http.createServer((request, response) => {
    if (cache.answer(request, response)) onHit();
    else handler(request, response);
  });
  if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  return server;
}
