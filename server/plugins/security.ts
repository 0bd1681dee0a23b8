import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Env } from '../env';
import { AppError } from '../lib/errors';
import { tileSource } from '../../shared/schemas/map-settings';
import { appErrorBody } from './errors';
import { bearerTokenOf, mayBeSignedIn } from './session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The headers helmet would set with these options, collected once from its middleware. */
export function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet failed', { cause: err });
  });
  return headers;
}

/** helmet's options for our site: a strict CSP (no inline script), HSTS behind https. */
export function securityHeaderOptions(env: Env): HelmetOptions {
  const https = env.PUBLIC_URL.startsWith('https://');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Ark UI positions popovers with style attributes; no inline <script> is ever allowed.
        'style-src': ["'self'", "'unsafe-inline'"],
        // The map's tiles come from MAP_TILE_URL's host (OpenStreetMap unless set; none when off).
        'img-src': ["'self'", 'data:', 'blob:', ...(env.MAP_TILE_URL ? [tileSource(env.MAP_TILE_URL)] : [])],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/** Security headers with a strict CSP (no inline script), and the same-origin check. */
export async function registerSecurity(app: FastifyInstance, env: Env) {
  const headers = headersOf(securityHeaderOptions(env));
  // The same headers go on every reply, so helmet computes them once at start (decision 011).
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });

  const publicOrigin = new URL(env.PUBLIC_URL).origin;
  // State-changing requests must come from our own pages, so a cross-site form cannot act for a
  // signed-in user. Non-browser clients (no Origin, no Sec-Fetch-Site) authenticate by bearer.
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    // A bearer token is never sent by a browser on its own, so such requests cannot be forged
    // cross-site; only cookie-carrying requests need the check (docs/product.md §3).
    const bearerOnly =
      bearerTokenOf(request.headers.authorization) !== null && !mayBeSignedIn({ cookie: request.headers.cookie }, (header) => app.parseCookie(header));
    if (bearerOnly) return;
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') return refuse();
    const origin = request.headers.origin;
    if (origin && origin !== 'null') {
      const host = request.headers['x-forwarded-host'] && env.TRUST_PROXY ? request.headers['x-forwarded-host'] : request.headers.host;
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        return refuse();
      }
      if (origin !== publicOrigin && originHost !== host) return refuse();
    } else if (origin === 'null') {
      return refuse();
    }
    function refuse() {
      return reply.status(403).send(appErrorBody(new AppError('FORBIDDEN', 'crossSite')));
    }
  });
}
