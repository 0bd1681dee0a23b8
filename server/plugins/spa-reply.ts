// How a page's HTML goes out: compressed by the visitor's Accept-Encoding like every other reply.
// @fastify/compress adds its hook to each route, and pages are answered by the not-found
// handler (spa.ts), which is no route, so pages were sent uncompressed (160 KB for a business).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decompressed, encodedTag, exactBytes, noneMatchHits, preferredEncoding } from './public-cache-store';
import { addVary } from './vary';

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * A page's HTML kept with its rendered data: its ETag, its length, and its bytes per encoding,
 * each made on first use. Its uncompressed bytes are let go once a compressed body is made (a
 * business page's 130 KB are ~10 KB in brotli); a client that takes no compression then gets them
 * rebuilt for its request (`identityOf`, as the public cache does).
 */
export type KeptHtml = { etag: string; size: number; body: Buffer | null; bodies: Partial<Record<'br' | 'gzip', Buffer>> };

/** Below this a page goes out as it is (as the other replies: `threshold` in app.ts). */
const COMPRESS_FROM = 1024;

/** A kept page's uncompressed bytes: kept, or rebuilt from a compressed body. */
const identityOf = (page: KeptHtml): Buffer => page.body ?? decompressed(page.bodies.br, page.bodies.gzip);

/**
 * Sends pages' HTML compressed. A page built from a kept render (`keep`: the kept render's own
 * object, which lives as long as the data stamp holds, spa-pages.ts) is put together once per
 * `key` (status, visitor kind, path, language) and compressed once per encoding, harder (brotli
 * quality 5, as the public cache), with an ETag per encoding so a browser's revalidation is a
 * 304. Any other page (a skeleton, a state painted for a query string, a 404) is compressed per
 * request in one call at quality 2, as decision 007 does for replies built per request.
 */
export function pageReplies(kept = new WeakMap<object, Map<string, KeptHtml>>()) {
  const encode = (html: Buffer, encoding: Encoding, quality: number) =>
    encoding === 'br' ? brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }) : encoding === 'gzip' ? gzipSync(html) : html;

  return (request: FastifyRequest, reply: FastifyReply, html: () => string, keep: { by: object; key: string } | null) => {
    addVary(reply, 'Accept-Encoding');
    if (!keep) {
      const body = Buffer.from(html());
      const wanted = body.length < COMPRESS_FROM ? null : preferredEncoding(request.headers['accept-encoding']);
      if (wanted) reply.header('content-encoding', wanted);
      return reply.send(encode(body, wanted ?? 'identity', 2));
    }
    let pages = kept.get(keep.by);
    if (!pages) {
      pages = new Map();
      kept.set(keep.by, pages);
    }
    let page = pages.get(keep.key);
    if (!page) {
      const body = Buffer.from(html());
      page = { etag: `"${createHash('sha1').update(body).digest('base64url')}"`, size: body.length, body, bodies: {} };
      pages.set(keep.key, page);
    }
    const wanted = page.size < COMPRESS_FROM ? null : preferredEncoding(request.headers['accept-encoding']);
    reply.header('etag', encodedTag(page.etag, wanted));
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && reply.statusCode === 200 && noneMatchHits(ifNoneMatch, page.etag)) return reply.status(304).send();
    if (!wanted) {
      // Uncompressed: its own bytes while the page has them, else rebuilt for this request only.
      const body = identityOf(page);
      request.publicPage = { etag: page.etag, body };
      return reply.send(body);
    }
    let body = page.bodies[wanted];
    if (!body) {
      // Kept in a buffer of its own size (a zlib result is a slice of a larger chunk).
      body = page.bodies[wanted] = exactBytes(encode(identityOf(page), wanted, 5));
      page.body = null;
    }
    // The public cache keeps it for the next visitor (public-cache.ts decides whether it may),
    // compressed as it goes out: it keeps only the compressed bytes (public-cache-store.ts).
    request.publicPage = { etag: page.etag, body: { encoding: wanted, body, size: page.size } };
    reply.header('content-encoding', wanted);
    return reply.send(body);
  };
}
