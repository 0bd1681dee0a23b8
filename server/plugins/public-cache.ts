import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { SESSION_COOKIE } from '../services/sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's anonymous GET replies may be served from the public cache (see below). */
    publicCache?: boolean;
  }
  interface FastifyRequest {
    publicCacheKey: { key: string; stamp: string } | null;
  }
}

/** tRPC queries whose anonymous answers depend only on their input and the data. */
const CACHEABLE_PROCEDURES = new Set([
  'business.directory',
  'business.list',
  'business.byId',
  'comments.feed',
  'comments.byBusiness',
  'comments.byId',
  'comments.replies',
  'home.businesses',
  'home.suggestionBox',
]);

/** How stale a cached reply may be after a write by another process (`npm run admin`). */
const OTHER_WRITES_MS = 500;

/** Headers a cached reply carries besides its body (X-Next-Cursor pages the REST lists). */
const KEPT_HEADERS = ['content-type', 'x-next-cursor'] as const;

type Entry = {
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
  bytes: number;
};

export type PublicCacheOptions = { maxBytes?: number; maxEntries?: number };

/**
 * The serialized replies of public lists (feed, business pages, directory) for visitors who are
 * not signed in, keyed by URL. An entry is valid while the database is unchanged: the stamp is
 * SQLite's total_changes() of our connection plus data_version (which moves when another
 * connection — `npm run admin`, a restore — commits; looked at twice a second), so any write
 * empties the cache and no rule has to remember to invalidate it. Signed-in users always get fresh replies (they
 * carry their own rates and favourites); free-text searches are not cached (unbounded keys).
 */
export async function registerPublicCache(app: FastifyInstance, db: Db, options: PublicCacheOptions = {}) {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxEntries = options.maxEntries ?? 2000;
  const ownChanges = db.$client.prepare('select total_changes()').pluck();
  const otherCommits = db.$client.prepare('pragma data_version').pluck();
  // Our own writes are seen at once (a fraction of a microsecond to ask); asking about other
  // connections' commits costs more, so that is done at most every OTHER_WRITES_MS.
  let version = 0;
  let versionCheckedAt = 0;
  const stampNow = () => {
    const now = performance.now();
    if (now - versionCheckedAt >= OTHER_WRITES_MS) {
      version = otherCommits.get() as number;
      versionCheckedAt = now;
    }
    return `${ownChanges.get() as number}.${version}`;
  };
  const entries = new Map<string, Entry>();
  let stamp = '';
  let bytes = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  app.decorateRequest('publicCacheKey', null);

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || !isAnonymous(request) || !isCacheable(request)) return;
    const now = stampNow();
    if (now !== stamp) {
      entries.clear();
      bytes = 0;
      stamp = now;
    }
    const key = request.url;
    const entry = entries.get(key);
    if (!entry) {
      request.publicCacheKey = { key, stamp: now };
      return;
    }
    // Least recently used goes first when the cache is full: a hit moves to the end.
    entries.delete(key);
    entries.set(key, entry);
    return sendEntry(request, reply, entry);
  });

  app.addHook('onSend', async (request, reply, sent: unknown) => {
    const pending = request.publicCacheKey;
    if (!pending) return sent;
    // tRPC answers with a fetch Response; its (small, JSON) body is read here to keep a copy.
    const payload = sent instanceof Response ? await unwrapResponse(reply, sent) : sent;
    reply.header('cache-control', 'no-cache');
    reply.header('vary', 'cookie, authorization');
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('etag', etag);
    // A write that landed while this reply was built makes it stale already: don't keep it.
    if (pending.stamp !== stamp || stampNow() !== stamp || body.length > maxBytes / 4) return payload;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    forget(pending.key);
    const entry: Entry = { headers, body, etag, bytes: body.length };
    entries.set(pending.key, entry);
    bytes += entry.bytes;
    for (const [key] of entries) {
      if (bytes <= maxBytes && entries.size <= maxEntries) break;
      forget(key);
    }
    return payload;
  });

  /** Serves an entry: 304 for a matching If-None-Match, else the body, compressed once per entry. */
  function sendEntry(request: FastifyRequest, reply: FastifyReply, entry: Entry) {
    reply.headers(entry.headers);
    reply.header('etag', entry.etag);
    reply.header('cache-control', 'no-cache');
    reply.header('vary', 'cookie, authorization, accept-encoding');
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding || entry.body.length < 1024) return reply.send(entry.body);
    let packed = entry[encoding];
    if (!packed) {
      packed = encoding === 'br' ? brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(entry.body);
      entry[encoding] = packed;
      entry.bytes += packed.length;
      bytes += packed.length;
    }
    reply.header('content-encoding', encoding);
    return reply.send(packed);
  }
}

async function unwrapResponse(reply: FastifyReply, response: Response): Promise<string> {
  const body = await response.text();
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return body;
}

function isAnonymous(request: FastifyRequest): boolean {
  return !request.headers.authorization && !request.cookies[SESSION_COOKIE];
}

function isCacheable(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  if (request.routeOptions.config.publicCache) return !hasSearch(query?.search);
  const url = request.url;
  if (!url.startsWith('/trpc/')) return false;
  const end = url.indexOf('?');
  const procedures = decodeURIComponent(url.slice(6, end === -1 ? undefined : end)).split(',');
  if (!procedures.every((name) => CACHEABLE_PROCEDURES.has(name))) return false;
  if (typeof query?.input !== 'string') return true;
  try {
    return !hasSearch(JSON.parse(query.input));
  } catch {
    return false;
  }
}

/** True when a search text is given anywhere in a REST query value or a (batched) tRPC input. */
function hasSearch(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (typeof record.search === 'string' && record.search.trim() !== '') return true;
  return Object.values(record).some((inner) => inner !== null && typeof inner === 'object' && hasSearch(inner));
}

function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  if (/\bbr\b/.test(header)) return 'br';
  if (/\bgzip\b/.test(header)) return 'gzip';
  return null;
}
