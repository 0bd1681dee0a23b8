import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pageReplies, type KeptHtml } from './spa-reply';

describe('pageReplies', () => {
  it('lets a kept page’s uncompressed bytes go once it is compressed, and rebuilds them for a client that takes none', async () => {
    const html = `<!doctype html><html><body>${'<p>Kaffe ☕ och bullar på torget 🥐</p>'.repeat(400)}</body></html>`;
    const plain = Buffer.from(html);
    const kept = new WeakMap<object, Map<string, KeptHtml>>();
    const render = {};
    let built = 0;
    const app = Fastify();
    // What the public cache is handed (public-cache.ts keeps it for anonymous visitors).
    const handed: (FastifyRequest['publicPage'] | undefined)[] = [];
    app.addHook('onSend', async (request) => {
      handed.push(request.publicPage);
    });
    const send = pageReplies(kept);
    app.get('/page', (request, reply) =>
      send(
        request,
        reply,
        () => {
          built++;
          return html;
        },
        { by: render, key: 'sv|/page' },
      ),
    );
    const page = () => kept.get(render)!.get('sv|/page')!;
    const get = (encoding?: string) => app.inject({ url: '/page', headers: encoding ? { 'accept-encoding': encoding } : {} });
    try {
      const first = await get();
      expect(first.rawPayload.equals(plain)).toBe(true);
      expect(page().body?.equals(plain)).toBe(true);
      const br = await get('br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).equals(plain)).toBe(true);
      // The cache is handed the bytes as they went out: first as they are, then compressed, with their length.
      expect(handed[0]).toEqual({ etag: first.headers.etag, body: plain });
      expect(handed[1]).toEqual({ etag: first.headers.etag, body: { encoding: 'br', body: br.rawPayload, size: plain.length } });
      // Compressed, the page keeps only those bytes, in a buffer of their own size.
      expect(page().body).toBeNull();
      expect(page().bodies.br!.buffer.byteLength).toBe(br.rawPayload.length);
      // A client without compression gets the same bytes and ETag, rebuilt; nothing more is kept.
      const again = await get();
      expect(again.rawPayload.equals(plain)).toBe(true);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['content-length']).toBe(String(plain.length));
      expect(page().body).toBeNull();
      // gzip is made from them once and kept beside brotli; the render is put together once.
      const gzip = await get('gzip');
      expect(gunzipSync(gzip.rawPayload).equals(plain)).toBe(true);
      expect(page().bodies.gzip!.equals(gzip.rawPayload)).toBe(true);
      expect(built).toBe(1);
      // Revalidation still answers 304 from the kept tag.
      const revalidated = await app.inject({ url: '/page', headers: { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string } });
      expect(revalidated.statusCode).toBe(304);
    } finally {
      await app.close();
    }
  });

  it('rebuilds a page kept only as gzip for a client that takes no compression', async () => {
    const html = `<!doctype html><html><body>${'<p>Smörgåstårta i Ystad</p>'.repeat(300)}</body></html>`;
    const kept = new WeakMap<object, Map<string, KeptHtml>>();
    const render = {};
    const app = Fastify();
    const send = pageReplies(kept);
    app.get('/gz', (request, reply) => send(request, reply, () => html, { by: render, key: 'gz' }));
    try {
      const gzip = await app.inject({ url: '/gz', headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);
      expect(kept.get(render)!.get('gz')!.body).toBeNull();
      const plain = await app.inject('/gz');
      expect(plain.body).toBe(html);
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(html)));
    } finally {
      await app.close();
    }
  });

  it('keeps a page too small to compress as it is', async () => {
    const kept = new WeakMap<object, Map<string, KeptHtml>>();
    const render = {};
    const app = Fastify();
    const send = pageReplies(kept);
    app.get('/tiny', (request, reply) => send(request, reply, () => '<p>Liten</p>', { by: render, key: 'tiny' }));
    try {
      const res = await app.inject({ url: '/tiny', headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe('<p>Liten</p>');
      expect(kept.get(render)!.get('tiny')!.body?.toString()).toBe('<p>Liten</p>');
    } finally {
      await app.close();
    }
  });
});
