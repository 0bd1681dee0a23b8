import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StampScope } from '../lib/data-stamp';
import { isCacheable, keptWhile, PER_RESPONSE_HEADERS } from './public-cache-eligibility';
import { plainReplyAsked } from './public-cache-eligibility';
import { cacheKeyOf, encodedTag, isGetOrHead, isPagePath, noneMatchHits, type CacheKind, type Compressed, type PublicCache } from './public-cache-store';
import { addVary } from './vary';
import { isAnonymousRequest } from './session';
import { SHARED_PUBLIC } from './shared-cache';

export { cacheFirstServer } from './public-cache-server';
export { createPublicCache, preferredEncoding, type PublicCache, type PublicCacheOptions } from './public-cache-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's anonymous GET replies may be served from the public cache (see below). */
    publicCache?: boolean;
    /**
     * What the route's kept replies depend on (data-stamp.ts, `scopedStamp`); `all` unless it
     * says otherwise. `businesses` only for a reply made of businesses, branches, categories and
     * images alone (no comment count, no user): a reaction or a reply then keeps it.
     * `{ businessParam }`: a reply that shows only the business its route parameter names
     * (its comments, its document), kept under that business's scope unless it is a search.
     */
    keptWhile?: 'businesses' | { businessParam: string };
  }
  interface FastifyRequest {
    publicCacheKey: { key: string; stamp: string; kind: CacheKind; scope: StampScope } | null;
    /**
     * A page's HTML made from a kept render (spa-reply.ts): its ETag and its bytes as they went
     * out (compressed, or as they are), which the cache keeps in its `page` part with the headers
     * the reply goes out with.
     */
    publicPage: { etag: string; body: Buffer | Compressed } | null;
  }
}

/**
 * Keeps anonymous cacheable replies in the cache and answers hits that come in through `inject`.
 * A REST route opts in with `config.publicCache`; a tRPC query by its own declaration
 * (`cachedPublicProcedure`), which `isCacheableProcedure` reads.
 */
export async function registerPublicCache(
  app: FastifyInstance,
  cache: PublicCache,
  isCacheableProcedure: (path: string) => boolean,
  procedureKeptWhile: (path: string) => StampScope = () => 'all',
  pageKeptWhile: (url: string) => StampScope = () => 'all',
) {
  app.decorateRequest('publicCacheKey', null);
  app.decorateRequest('publicPage', null);
  cache.useCookieParser((header) => app.parseCookie(header));

  // @fastify/compress picks the encoding in a hook it adds to each route; this one, added to each
  // route after it, gives a compressed reply the ETag of its encoding (see encodedTag).
  app.addHook('onRoute', (route) => {
    const after = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      // Only the ETags set below: static files' own (@fastify/static) are per file already.
      // Pages are no route, and spa-reply.ts gives each encoding its tag itself.
      if (!request.publicCacheKey || request.publicCacheKey.kind === 'page') return payload;
      const etag = reply.getHeader('etag');
      const encoding = reply.getHeader('content-encoding');
      if (typeof etag === 'string' && typeof encoding === 'string') reply.header('etag', encodedTag(etag, encoding));
      return payload;
    };
    route.onSend = [...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]), after];
  });

  // Runs after the session hook (registered first), so the actor is known here.
  app.addHook('onRequest', async (request, reply) => {
    if (!isGetOrHead(request.method) || !isAnonymousRequest(request)) return;
    const entry = cache.lookup(request.raw);
    if (entry) {
      reply.hijack();
      cache.write(request.raw, reply.raw, entry);
      return reply;
    }
    // A page may be kept once spa-reply.ts has made it from a kept render (publicPage, onSend).
    if (isPagePath(request.url)) {
      if (request.method === 'GET' && plainReplyAsked(request.headers)) {
        const scope = pageKeptWhile(request.url);
        request.publicCacheKey = { key: cacheKeyOf(request.url, request.headers.cookie), stamp: cache.stamp(scope), kind: 'page', scope };
      }
      return;
    }
    const kind = isCacheable(request, isCacheableProcedure);
    if (!kind) return;
    const scope = keptWhile(request, kind, procedureKeptWhile);
    request.publicCacheKey = { key: request.url, stamp: cache.stamp(scope), kind, scope };
  });

  app.addHook('onSend', async (request, reply, sent: unknown) => {
    const pending = request.publicCacheKey;
    if (!pending) return sent;
    if (pending.kind === 'page') {
      // The page's own headers as they go out (Cache-Control, Vary, ETag per encoding: spa.ts,
      // spa-reply.ts), kept with its bytes as they went out (compressed, or as they are); a hit
      // tags them the same way and makes any other encoding from them.
      const page = request.publicPage;
      const shared = reply.statusCode === 200 && reply.getHeader('cache-control') === SHARED_PUBLIC && !reply.hasHeader('set-cookie');
      if (page && shared && isAnonymousRequest(request)) {
        cache.keep(pending.key, pending.stamp, page.body, page.etag, keptHeaders(reply), 'page', pending.scope);
      }
      return sent;
    }
    // tRPC answers with a fetch Response; its (small, JSON) body is read here to keep a copy.
    const payload = sent instanceof Response ? await unwrapResponse(reply, sent) : sent;
    // The reply depends on who asks (a session or a token gets a personal one, `private,
    // no-store`) and on the encoding, nothing else: shared caches may keep it a few seconds.
    const shared = reply.statusCode === 200 && isAnonymousRequest(request);
    reply.header('cache-control', shared ? SHARED_PUBLIC : 'no-cache');
    addVary(reply, 'cookie', 'authorization', 'accept-encoding');
    if (!shared || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('etag', etag);
    cache.keep(pending.key, pending.stamp, body, etag, keptHeaders(reply), pending.kind, pending.scope);
    // A revalidation that missed the kept entry (a write came in between and left this reply
    // the same) is still answered 304 when the tag matches, as a hit would be; Node sends a 304
    // without a body.
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && noneMatchHits(ifNoneMatch, etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
}

/** The reply's headers as a hit replays them: without those of one response only. */
function keptHeaders(reply: FastifyReply): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, String(one)]);
  }
  return headers;
}

async function unwrapResponse(reply: FastifyReply, response: Response): Promise<string> {
  const body = await response.text();
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return body;
}
