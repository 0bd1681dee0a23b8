// How a page's HTML goes out: compressed by the visitor's Accept-Encoding like every other reply.
// @fastify/compress adds its hook to each route, and pages are answered by the not-found
// handler (spa.ts), which is no route, so pages were sent uncompressed (160 KB for a business).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodedTag, exactBytes, noneMatchHits, preferredEncoding } from './public-cache-store';
import { addVary } from './vary';

type Encoding = 'br' | 'gzip' | 'identity';

/** A page's HTML kept with its rendered data: its ETag and its bytes per encoding, each made on first use. */
type KeptHtml = { etag: string; bodies: Partial<Record<Encoding, Buffer>> };

/** Below this a page goes out as it is (as the other replies: `threshold` in app.ts). */
const COMPRESS_FROM = 1024;

/**
 * Sends pages' HTML compressed. A page built from a kept render (`keep`: the kept render's own
 * object, which lives as long as the data stamp holds, spa-pages.ts) is put together once per
 * `key` (status, visitor kind, path, language) and compressed once per encoding, harder (brotli
 * quality 5, as the public cache), with an ETag per encoding so a browser's revalidation is a
 * 304. Any other page (a skeleton, a state painted for a query string, a 404) is compressed per
 * request in one call at quality 2, as decision 007 does for replies built per request.
 */
export function pageReplies() {
  const kept = new WeakMap<object, Map<string, KeptHtml>>();

  const encode = (html: Buffer, encoding: Encoding, quality: number) =>
    encoding === 'br' ? brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }) : encoding === 'gzip' ? gzipSync(html) : html;

  return (request: FastifyRequest, reply: FastifyReply, html: () => string, keep: { by: object; key: string } | null) => {
    addVary(reply, 'Accept-Encoding');
    let page: KeptHtml | null = null;
    let identity: Buffer;
    if (keep) {
      let pages = kept.get(keep.by);
      if (!pages) {
        pages = new Map();
        kept.set(keep.by, pages);
      }
      page = pages.get(keep.key) ?? null;
      if (!page) {
        const body = Buffer.from(html());
        page = { etag: `"${createHash('sha1').update(body).digest('base64url')}"`, bodies: { identity: body } };
        pages.set(keep.key, page);
      }
      identity = page.bodies.identity!;
    } else {
      identity = Buffer.from(html());
    }
    const wanted = identity.length < COMPRESS_FROM ? null : preferredEncoding(request.headers['accept-encoding']);
    const encoding: Encoding = wanted ?? 'identity';
    if (page) {
      reply.header('etag', encodedTag(page.etag, wanted));
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch !== undefined && reply.statusCode === 200 && noneMatchHits(ifNoneMatch, page.etag)) return reply.status(304).send();
    }
    // Kept bytes in a buffer of their own size (a zlib result is a slice of a larger chunk).
    const body = page ? (page.bodies[encoding] ??= exactBytes(encode(identity, encoding, 5))) : encode(identity, encoding, 2);
    // The public cache keeps it for the next visitor (public-cache.ts decides whether it may),
    // compressed as it goes out: it keeps only the compressed bytes (public-cache-store.ts).
    if (page) request.publicPage = { body: identity, etag: page.etag, encoded: wanted ? { encoding: wanted, body } : null };
    if (wanted) reply.header('content-encoding', wanted);
    return reply.send(body);
  };
}
