import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../../db/client';
import { scopedStamp, type StampScope } from '../lib/data-stamp';
import { SESSION_COOKIE } from '../services/accounts/sessions';
import { plainReplyAsked } from './public-cache-eligibility';
import { mayBeSignedIn } from './session';
import { languageOf } from './spa-html';

type Variant = { head: (string | number)[]; body: Buffer };

/** A reply's bytes compressed already (`size`: their uncompressed length). */
export type Compressed = { encoding: 'br' | 'gzip'; body: Buffer; size: number };

export type Entry = {
  /** Its key (cacheKeyOf). */
  key: string;
  /** The reply's headers as stored (security headers, content type, paging, caching), without its ETag. */
  headers: [string, string][];
  /**
   * The uncompressed bytes, until the first compressed variant is made; from then on null: the
   * entry keeps only what it sends (a page is ~14 times smaller in brotli), and a client that
   * takes no compression gets them rebuilt from a variant (identityOf), per request.
   */
  body: Buffer | null;
  /** The uncompressed length (whether a reply is worth compressing at all). */
  size: number;
  /** The identity encoding's ETag; the others are derived from it (encodedTag). */
  etag: string;
  /** Ready-to-write headers and body per content encoding, built on first use. */
  variants: Partial<Record<'identity' | 'gzip' | 'br', Variant>>;
  notModified: Partial<Record<'identity' | 'gzip' | 'br', (string | number)[]>>;
  bytes: number;
  /** What it depends on: kept while this scope's stamp holds (a `businesses` entry outlives a reaction). */
  scope: StampScope;
  /** The stamp of its scope it was built under. */
  stamp: string;
};

/**
 * Which part of the cache an entry is kept in. Each part has its own bounds, so endless keys
 * (search texts, page addresses) never push out the few lists every visitor reads:
 * - `list`: the public lists and documents, keyed by URL;
 * - `search`: replies to a search text (REST `?search=`, a tRPC input with `search`), keyed by URL;
 * - `page`: pages' HTML made from a kept render (spa-reply.ts), keyed by URL and language.
 */
export type CacheKind = 'list' | 'search' | 'page';

type Bounds = { maxBytes: number; maxEntries: number };

export type PublicCacheOptions = { maxBytes?: number; maxEntries?: number; search?: Partial<Bounds>; page?: Partial<Bounds> };

/** The default bounds of the search part: about 1,000 searches' first pages. */
export const SEARCH_CACHE = { maxEntries: 1000, maxBytes: 8 * 1024 * 1024 };
/**
 * The default bounds of the page part: pages are kept compressed (a business page's 130 KB are
 * ~10 KB in brotli), so up to 2,000 of them fit in its 16 MB (the rendered pages behind them are
 * bounded by RENDERED_PAGES, spa-pages.ts).
 */
export const PAGE_CACHE = { maxEntries: 2000, maxBytes: 16 * 1024 * 1024 };

/**
 * The key of a request in the cache: the raw URL, and for a page (any path outside the API) the
 * language it is shown in too, which the `lang` cookie or `?lang=` picks (spa-html.ts).
 */
export function cacheKeyOf(url: string, cookieHeader: string | undefined): string {
  return isPagePath(url) ? `${url}#${languageOf(url, cookieHeader)}` : url;
}

/** Whether a URL is a page's (answered by the SPA's handler), not the API's or a file's. */
export const isPagePath = (url: string) => !(url.startsWith('/api') || url.startsWith('/trpc') || url.startsWith('/uploads/') || url.startsWith('/assets/'));
export type PublicCache = ReturnType<typeof createPublicCache>;

/**
 * The serialized replies of public lists (feed, business pages, directory) for visitors who are
 * not signed in, keyed by URL. An entry is valid while the database is unchanged (`dataStamp`:
 * our own writes are seen at once, another process's within half a second), so any write
 * empties the cache and no rule has to remember to invalidate it; the one narrower scope is the
 * business lists' (`keptWhile: 'businesses'`), whose entries only a write to businesses,
 * branches, categories or images (SQL triggers, any connection) or another process's commit drops. Signed-in users always get
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
  // One LRU per kind, each with its own bounds; a key is in at most one of them.
  const parts: Record<CacheKind, { entries: Map<string, Entry>; bytes: number } & Bounds> = {
    list: { entries: new Map(), bytes: 0, maxBytes: options.maxBytes ?? 16 * 1024 * 1024, maxEntries: options.maxEntries ?? 2000 },
    search: { entries: new Map(), bytes: 0, ...SEARCH_CACHE, ...options.search },
    page: { entries: new Map(), bytes: 0, ...PAGE_CACHE, ...options.page },
  };
  const kinds = Object.values(parts);
  const size = () => parts.list.entries.size + parts.search.entries.size + parts.page.entries.size;
  // The whole data's stamp when the entries were last brought up to the data.
  let stampAll = '';
  // @fastify/cookie's parser, handed over when the app registers the cache. Before that (the
  // server does not listen yet) a Cookie header that names a session counts as signed in.
  let parseCookie = (header: string): Record<string, string | undefined> => ({ [SESSION_COOKIE]: header });

  const forget = (part: (typeof parts)[CacheKind], key: string) => {
    const entry = part.entries.get(key);
    if (!entry) return;
    part.entries.delete(key);
    part.bytes -= entry.bytes;
  };
  const find = (key: string) => {
    for (const part of kinds) {
      const entry = part.entries.get(key);
      if (entry) return { part, entry };
    }
    return undefined;
  };

  /**
   * Brings the kept entries up to the data: an entry whose scope's stamp moved goes. Every write
   * moves `all` (and nothing moves another scope without moving it), so while `all` holds
   * nothing is looked at; when it moved, each entry of a narrower scope is checked against its
   * own (a reaction in one business keeps the directory's and the other businesses' entries).
   */
  const refresh = () => {
    const all = scopedStamp(db, 'all');
    if (all === stampAll) return;
    stampAll = all;
    const now = new Map<StampScope, string>();
    for (const part of kinds)
      for (const [key, entry] of part.entries) {
        if (entry.scope !== 'all') {
          let current = now.get(entry.scope);
          if (current === undefined) {
            current = scopedStamp(db, entry.scope);
            now.set(entry.scope, current);
          }
          if (current === entry.stamp) continue;
        }
        part.entries.delete(key);
        part.bytes -= entry.bytes;
      }
  };

  /** The current stamp of a scope, the cache brought up to the data first. */
  const freshStamp = (scope: StampScope = 'all') => {
    refresh();
    return scope === 'all' ? stampAll : scopedStamp(db, scope);
  };

  /** The entry for a GET (or HEAD) of this URL, if the data has not changed since it was kept; callers check the request is anonymous. */
  function lookup(request: IncomingMessage): Entry | undefined {
    if (!isGetOrHead(request.method) || size() === 0 || !plainReplyAsked(request.headers)) return undefined;
    refresh();
    const key = cacheKeyOf(request.url ?? '', request.headers.cookie);
    const found = find(key);
    if (!found) return undefined;
    // Least recently used goes first when its part is full: a hit moves to the end.
    found.part.entries.delete(key);
    found.part.entries.set(key, found.entry);
    return found.entry;
  }

  /**
   * Writes an entry: 304 for a matching If-None-Match, else the body, compressed once per entry.
   * Each encoding is its own representation with its own strong ETag (`"tag"`, `"tag-gzip"`,
   * `"tag-br"`); any of them validates, since all carry the same JSON.
   */
  function write(request: IncomingMessage, response: ServerResponse, entry: Entry) {
    const wanted = entry.size < 1024 ? null : preferredEncoding(request.headers['accept-encoding']);
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
      if (wanted) variant = addVariant(entry, wanted, wanted === 'br' ? brotliCompressSync(identityOf(entry), BROTLI) : gzipSync(identityOf(entry)));
      // Uncompressed: its own bytes while the entry has them, else rebuilt for this request only.
      else if (entry.body) variant = entry.variants.identity = variantOf(entry, null, entry.body);
      else variant = variantOf(entry, null, identityOf(entry));
    }
    response.writeHead(200, variant.head);
    // HEAD: the same headers as GET, without the body.
    response.end(request.method === 'HEAD' ? undefined : variant.body);
  }

  /**
   * Keeps a compressed variant of an entry and lets its uncompressed bytes go (they are counted
   * no more): from now on the entry holds what it sends.
   */
  function addVariant(entry: Entry, encoding: 'br' | 'gzip', compressed: Buffer): Variant {
    const body = exactBytes(compressed);
    const variant = variantOf(entry, encoding, body);
    entry.variants[encoding] = variant;
    let grown = body.length;
    if (entry.body) {
      grown -= entry.body.length;
      entry.body = null;
      delete entry.variants.identity;
    }
    entry.bytes += grown;
    const found = find(entry.key);
    if (found?.entry === entry) found.part.bytes += grown;
    return variant;
  }

  return {
    /** Answers an anonymous GET or HEAD from the cache; false when the request must go to the app. */
    answer(request: IncomingMessage, response: ServerResponse): boolean {
      if (size() === 0 || mayBeSignedIn(request.headers, parseCookie)) return false;
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
    /** The stamp a reply being built now would be kept under, in the scope it depends on. */
    stamp: freshStamp,
    /**
     * Keeps a 200 reply built under `builtAt` (the stamp of `scope`) unless a write that moves that
     * scope has landed since, in the part of its kind. `body`: its bytes, or the same reply
     * compressed already (a page, spa-reply.ts), which the entry then keeps as its only bytes.
     */
    keep(
      key: string,
      builtAt: string,
      body: Buffer | Compressed,
      etag: string,
      headers: [string, string][],
      kind: CacheKind = 'list',
      scope: StampScope = 'all',
    ) {
      const part = parts[kind];
      const plain = Buffer.isBuffer(body) ? body : null;
      const compressed = Buffer.isBuffer(body) ? null : body;
      if (freshStamp(scope) !== builtAt || (plain ?? compressed!.body).length > part.maxBytes / 4) return;
      for (const other of kinds) forget(other, key);
      // The ETag is written per encoding (write), not kept with the shared headers.
      const shared = headers.filter(([name]) => name !== 'etag');
      const size = plain?.length ?? compressed!.size;
      const entry: Entry = { key, headers: shared, body: plain, size, etag, variants: {}, notModified: {}, bytes: plain?.length ?? 0, scope, stamp: builtAt };
      part.entries.set(key, entry);
      part.bytes += entry.bytes;
      // Compressed already (a page, spa-reply.ts, with the same quality): kept as it is.
      if (compressed) addVariant(entry, compressed.encoding, compressed.body);
      for (const [oldest] of part.entries) {
        if (part.bytes <= part.maxBytes && part.entries.size <= part.maxEntries) break;
        forget(part, oldest);
      }
    },
    /** How many entries and bytes each part holds (tests check the bounds). */
    sizes() {
      return Object.fromEntries(Object.entries(parts).map(([kind, part]) => [kind, { entries: part.entries.size, bytes: part.bytes }])) as Record<
        CacheKind,
        { entries: number; bytes: number }
      >;
    },
  };
}

type Encoding = 'br' | 'gzip' | null;

/** The public cache's brotli (spa-reply.ts compresses kept pages the same way). */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } };

/** An entry's ready-to-write headers and body in one encoding (null: uncompressed). */
function variantOf(entry: Entry, encoding: Encoding, body: Buffer): Variant {
  const head: (string | number)[] = entry.headers.flat();
  head.push('etag', encodedTag(entry.etag, encoding), 'content-length', body.length);
  if (encoding) head.push('content-encoding', encoding);
  return { head, body };
}

/**
 * The bytes in a buffer of their own size. zlib's one-call functions return a slice of their
 * output chunk (64 KB for brotli): kept, a page's 10 KB of brotli held the whole chunk, and
 * 500 of them held 8 MB where 2 MB were counted.
 */
export function exactBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** An entry's uncompressed bytes: kept, or rebuilt from a compressed variant. */
export function identityOf(entry: Entry): Buffer {
  return entry.body ?? decompressed(entry.variants.br?.body, entry.variants.gzip?.body);
}

/** Uncompressed bytes rebuilt from their brotli or, without it, their gzip (one of them is there). */
export function decompressed(br: Buffer | undefined, gzip: Buffer | undefined): Buffer {
  return br ? brotliDecompressSync(br) : gunzipSync(gzip!);
}

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
