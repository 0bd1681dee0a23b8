import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../../db/client';
import { dataStamp } from '../lib/data-stamp';
import { SESSION_COOKIE } from '../services/accounts/sessions';
import { plainReplyAsked } from './public-cache-eligibility';
import { mayBeSignedIn } from './session';

type Variant = { head: (string | number)[]; body: Buffer };

export type Entry = {
  /** The reply's headers as stored (security headers, content type, paging, caching), without its ETag. */
  headers: [string, string][];
  body: Buffer;
  /** The identity encoding's ETag; the others are derived from it (encodedTag). */
  etag: string;
  /** Ready-to-write headers and body per content encoding, built on first use. */
  variants: Partial<Record<'identity' | 'gzip' | 'br', Variant>>;
  notModified: Partial<Record<'identity' | 'gzip' | 'br', (string | number)[]>>;
  bytes: number;
};

export type PublicCacheOptions = { maxBytes?: number; maxEntries?: number };
export type PublicCache = ReturnType<typeof createPublicCache>;

/**
 * The serialized replies of public lists (feed, business pages, directory) for visitors who are
 * not signed in, keyed by URL. An entry is valid while the database is unchanged (`dataStamp`:
 * our own writes are seen at once, another process's within half a second), so any write
 * empties the cache and no rule has to remember to invalidate it. Signed-in users always get
 * fresh replies (they carry their own rates and favourites); free-text searches are not cached
 * (unbounded keys).
 *
 * A hit is answered straight from the HTTP server's request event (see `cacheFirstServer`),
 * before Fastify builds its request, routes and runs hooks: only URLs that Fastify once
 * answered for an anonymous cacheable GET are ever in the cache, and a hit writes the very
 * headers that reply had. Under `inject` (tests) the `onRequest` hook answers hits the same way.
 *
 * "Anonymous" has one meaning on both paths: no Authorization header and no session cookie as
 * @fastify/cookie reads the Cookie header (before Fastify, with that plugin's own parser), and
 * on the Fastify side also no resolved actor. A reply is kept only for such a request.
 */
export function createPublicCache(db: Db, options: PublicCacheOptions = {}) {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxEntries = options.maxEntries ?? 2000;
  const stampNow = () => dataStamp(db);
  const entries = new Map<string, Entry>();
  let stamp = '';
  let bytes = 0;
  // @fastify/cookie's parser, handed over when the app registers the cache. Before that (the
  // server does not listen yet) a Cookie header that names a session counts as signed in.
  let parseCookie = (header: string): Record<string, string | undefined> => ({ [SESSION_COOKIE]: header });

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  /** The current stamp; a moved stamp empties the cache first. */
  const freshStamp = () => {
    const now = stampNow();
    if (now !== stamp) {
      entries.clear();
      bytes = 0;
      stamp = now;
    }
    return now;
  };

  /** The entry for a GET (or HEAD) of this URL, if the data has not changed since it was kept; callers check the request is anonymous. */
  function lookup(request: IncomingMessage): Entry | undefined {
    if (!isGetOrHead(request.method) || entries.size === 0 || !plainReplyAsked(request.headers)) return undefined;
    freshStamp();
    const entry = entries.get(request.url ?? '');
    if (!entry) return undefined;
    // Least recently used goes first when the cache is full: a hit moves to the end.
    entries.delete(request.url ?? '');
    entries.set(request.url ?? '', entry);
    return entry;
  }

  /**
   * Writes an entry: 304 for a matching If-None-Match, else the body, compressed once per entry.
   * Each encoding is its own representation with its own strong ETag (`"tag"`, `"tag-gzip"`,
   * `"tag-br"`); any of them validates, since all carry the same JSON.
   */
  function write(request: IncomingMessage, response: ServerResponse, entry: Entry) {
    const wanted = entry.body.length < 1024 ? null : preferredEncoding(request.headers['accept-encoding']);
    const encoding = wanted ?? 'identity';
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && noneMatchHits(ifNoneMatch, entry.etag)) {
      entry.notModified[encoding] ??= [...entry.headers.flat(), 'etag', encodedTag(entry.etag, wanted)];
      response.writeHead(304, entry.notModified[encoding]);
      response.end();
      return;
    }
    let variant = entry.variants[encoding];
    if (!variant) {
      const body =
        wanted === 'br'
          ? brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
          : wanted === 'gzip'
            ? gzipSync(entry.body)
            : entry.body;
      const head: (string | number)[] = entry.headers.flat();
      head.push('etag', encodedTag(entry.etag, wanted), 'content-length', body.length);
      if (wanted) head.push('content-encoding', wanted);
      variant = { head, body };
      entry.variants[encoding] = variant;
      if (wanted) {
        entry.bytes += body.length;
        bytes += body.length;
      }
    }
    response.writeHead(200, variant.head);
    // HEAD: the same headers as GET, without the body.
    response.end(request.method === 'HEAD' ? undefined : variant.body);
  }

  return {
    /** Answers an anonymous GET or HEAD from the cache; false when the request must go to the app. */
    answer(request: IncomingMessage, response: ServerResponse): boolean {
      if (entries.size === 0 || mayBeSignedIn(request.headers, parseCookie)) return false;
      const entry = lookup(request);
      if (!entry) return false;
      write(request, response, entry);
      return true;
    },
    lookup,
    write,
    /** Reads Cookie headers before Fastify with the parser its cookie plugin uses. */
    useCookieParser(parser: (header: string) => Record<string, string | undefined>) {
      parseCookie = parser;
    },
    /** The stamp a reply being built now would be kept under. */
    stamp: freshStamp,
    /** Keeps a 200 reply built under `builtAt` unless a write has landed since. */
    keep(key: string, builtAt: string, body: Buffer, etag: string, headers: [string, string][]) {
      if (builtAt !== stamp || stampNow() !== stamp || body.length > maxBytes / 4) return;
      forget(key);
      // The ETag is written per encoding (write), not kept with the shared headers.
      const shared = headers.filter(([name]) => name !== 'etag');
      const entry: Entry = { headers: shared, body, etag, variants: {}, notModified: {}, bytes: body.length };
      entries.set(key, entry);
      bytes += entry.bytes;
      for (const [oldest] of entries) {
        if (bytes <= maxBytes && entries.size <= maxEntries) break;
        forget(oldest);
      }
    },
  };
}

type Encoding = 'br' | 'gzip' | null;

/** The strong ETag of one encoding of a reply whose identity ETag is `etag`. */
export function encodedTag(etag: string, encoding: string | null | undefined): string {
  return !encoding || encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/**
 * Whether an If-None-Match header names the reply (RFC 9110 13.1.2): `*`, or a list of tags
 * compared weakly (a `W/` prefix ignored), each encoding's tag counting.
 */
export function noneMatchHits(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const ours = new Set([etag, encodedTag(etag, 'gzip'), encodedTag(etag, 'br')]);
  return header.split(',').some((part) => ours.has(part.trim().replace(/^W\//, '')));
}
/** Browsers send one Accept-Encoding string over and over, so each is read once. */
const encodingOfHeader = new Map<string, Encoding>();

/**
 * Brotli if the client accepts it, else gzip, else none (RFC 9110 §12.5.3): a coding listed
 * with q=0 is refused ("gzip, br;q=0" gets gzip), and an unlisted one is never used.
 */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return null;
  const known = encodingOfHeader.get(header);
  if (known !== undefined) return known;
  let br = false;
  let gzip = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === 'x-gzip') gzip = true;
  }
  const result: Encoding = br ? 'br' : gzip ? 'gzip' : null;
  if (encodingOfHeader.size < 256) encodingOfHeader.set(header, result);
  return result;
}

/** HEAD is a GET without the body: the same entry, ETag, Vary and Cache-Control. */
export const isGetOrHead = (method: string | undefined) => method === 'GET' || method === 'HEAD';
