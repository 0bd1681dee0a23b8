import path from 'node:path';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCast, createTestApp, type TestContext } from '../test/helpers';
import { createPublicCache, preferredEncoding } from './public-cache';
import { identityOf } from './public-cache-store';
import { OTHER_WRITES_MS } from '../lib/data-stamp';
import { insertBusiness } from '../test/comment-fixtures';
import { rateComment } from '../services/comments/comment-ratings';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { createBusiness } from '../services/business/business-admin';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Konsum');
  await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Första kommentaren', businessLocation: 'Lund' });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const texts = (body: string) => (JSON.parse(body) as { text: string }[]).map((c) => c.text);

describe('public reply cache', () => {
  it('answers a repeated anonymous GET with the same body and ETag, and 304 to If-None-Match', async () => {
    const first = await get('/api/comment');
    const second = await get('/api/comment');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    const revalidated = await get('/api/comment', { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('answers 304 to a revalidation after a write that left the reply the same (a miss with the same tag)', async () => {
    const url = `/api/comment/${shop}`;
    const first = await get(url);
    // Any write empties the cache; this one does not touch the shop's comments.
    insertBusiness(t.db, 'Annan butik');
    const revalidated = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(first.headers.etag);
    // The miss kept the reply again: a plain GET is a hit with the same bytes.
    expect((await get(url)).body).toBe(first.body);
  });

  it('serves a fresh reply after any write through the app', async () => {
    await get('/api/comment');
    const created = await createComment(t.deps, cast.other.actor, { businessId: shop, text: 'Ny kommentar direkt', businessLocation: 'Lund' });
    expect(texts((await get('/api/comment')).body)[0]).toBe('Ny kommentar direkt');
    const before = (await get(`/api/comment/${shop}`)).body;
    await rateComment(t.deps, cast.owner.actor, { id: created._id, rate: 5 });
    const after = JSON.parse((await get(`/api/comment/${shop}`)).body) as { _id: string; ratingCount: number }[];
    expect(after.find((c) => c._id === created._id)?.ratingCount).toBe(1);
    expect(JSON.stringify(after)).not.toBe(before);
  });

  it('serves a fresh reply after a write by another connection (a script, a restore)', async () => {
    await get('/api/comment');
    const other = new Database(path.join(t.dir, 'recensera.sqlite'));
    try {
      other.prepare("update comments set text = 'Ändrad utifrån' where text = 'Första kommentaren'").run();
    } finally {
      other.close();
    }
    // The stamp asks for other connections' commits every OTHER_WRITES_MS: poll until it has.
    await expect.poll(async () => texts((await get('/api/comment')).body), { timeout: 5 * OTHER_WRITES_MS, interval: 25 }).toContain('Ändrad utifrån');
  });

  it('keeps the paging header of a cached list', async () => {
    const first = await get('/api/comment?limit=1');
    const cached = await get('/api/comment?limit=1');
    expect(first.headers['x-next-cursor']).toBeTruthy();
    expect(cached.headers['x-next-cursor']).toBe(first.headers['x-next-cursor']);
  });

  it('compresses a cached reply once and serves the same bytes', async () => {
    for (let i = 0; i < 30; i++) {
      await createComment(t.deps, cast.admin.actor, {
        businessId: shop,
        text: `Kommentar nummer ${i} med lite mer text så att svaret blir stort`,
        businessLocation: 'Malmö',
      });
    }
    const plain = await get('/api/comment?limit=30');
    const zipped = await get('/api/comment?limit=30', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
  });

  it('respects q=0 in Accept-Encoding: a refused brotli is never sent', async () => {
    const plain = await get('/api/comment?limit=30');
    const refused = await get('/api/comment?limit=30', { 'accept-encoding': 'gzip, br;q=0' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(refused.rawPayload).toString()).toBe(plain.body);
    const none = await get('/api/comment?limit=30', { 'accept-encoding': 'br;q=0, gzip;q=0.000' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(plain.body);
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('BR;Q=0.5')).toBe('br');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('brotli, xgzip')).toBeNull();
  });

  it('neither keeps nor serves a streamed tRPC reply (trpc-accept), which plain clients cannot read', async () => {
    const url = '/trpc/home.summary,home.suggestionBox?batch=1&input=%7B%7D';
    const streamed = await get(url, { 'trpc-accept': 'application/jsonl' });
    expect(streamed.statusCode).toBe(200);
    const plain = await get(url);
    expect(plain.headers['content-type']).toBe('application/json');
    expect(JSON.parse(plain.body)).toHaveLength(2);
    // And a kept plain reply is not handed to a client that asked for the stream.
    const again = await get(url, { 'trpc-accept': 'application/jsonl' });
    expect(again.headers.etag).toBeUndefined();
  });

  it('never serves a signed-in user from the cache', async () => {
    await get('/api/comment');
    const signedIn = await get('/api/comment', bearer(cast.owner));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers.etag).toBeUndefined();
    const search = await get('/api/business?search=konsum', bearer(cast.owner));
    expect(search.statusCode).toBe(200);
    expect(search.headers.etag).toBeUndefined();
  });

  it('keeps searches (REST and tRPC) in their own part: the kept reply is the one built, and a write moves it', async () => {
    const urls = [
      '/api/business?search=konsum&limit=24',
      `/trpc/business.directoryPage?input=${encodeURIComponent(JSON.stringify({ search: 'konsum', limit: 24 }))}`,
      `/trpc/comments.byBusiness?input=${encodeURIComponent(JSON.stringify({ businessId: shop, search: 'lund' }))}`,
    ];
    for (const url of urls) {
      insertBusiness(t.db, `Tom ${url.length}`); // a write: the next reply is built, not kept
      const built = await get(url, { 'accept-encoding': 'gzip' });
      const kept = await get(url, { 'accept-encoding': 'gzip' });
      expect(built.statusCode, url).toBe(200);
      expect(built.headers.etag, url).toBeTruthy();
      expect(kept.headers, url).toEqual({ ...built.headers, date: kept.headers.date });
      const text = (reply: typeof kept) => (reply.headers['content-encoding'] === 'gzip' ? gunzipSync(reply.rawPayload) : reply.rawPayload).toString();
      expect(text(kept), url).toBe(text(built));
      // The member's reply (never kept) has the same data as the visitor's kept one.
      const member = await get(url, bearer(cast.other));
      if (url.startsWith('/api/')) expect(member.body, url).toBe(text(kept));
    }
    const titles = (body: string) => (JSON.parse(body) as { title: string }[]).map((b) => b.title);
    const before = titles((await get('/api/business?search=konsum&limit=24')).body);
    await createBusiness(t.deps, cast.admin.actor, { title: 'Konsum Väst', category: 'Livsmedel', description: 'Ny butik.', branches: [{ location: 'Lund' }] });
    const after = titles((await get('/api/business?search=konsum&limit=24')).body);
    expect(after).toEqual(expect.arrayContaining([...before, 'Konsum Väst']));
    expect(after).toHaveLength(before.length + 1);
  });

  it('keeps the home feed lists (most replied, top rated, newest): the kept reply is the one built (issue 32)', async () => {
    const c = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Flest svar här', businessLocation: 'Lund' });
    await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Ett svar' });
    await rateComment(t.deps, cast.other.actor, { id: c._id, rate: 4 });
    for (const url of ['/api/comment/most-subcomments', '/api/comment/most-rated', '/api/comment?limit=12']) {
      insertBusiness(t.db, `Tom ${url.length}`); // a write: the next reply is built, not kept
      const built = await get(url, { 'accept-encoding': 'gzip' });
      const kept = await get(url, { 'accept-encoding': 'gzip' });
      expect(built.statusCode, url).toBe(200);
      expect(kept.headers, url).toEqual({ ...built.headers, date: kept.headers.date });
      const text = (reply: typeof kept) => (reply.headers['content-encoding'] === 'gzip' ? gunzipSync(reply.rawPayload) : reply.rawPayload).toString();
      expect(text(kept), url).toBe(text(built));
      expect(texts(text(kept)), url).toContain('Flest svar här');
    }
  });

  it('caches public tRPC queries but not others, and no error replies', async () => {
    const feed = `/trpc/comments.feed?input=${encodeURIComponent(JSON.stringify({ filter: 'all' }))}`;
    expect((await get(feed)).headers.etag).toBeTruthy();
    expect((await get('/trpc/users.me')).headers.etag).toBeUndefined();
    const missing = await get('/api/business/0000000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers HEAD with the status and headers of GET and no body, for REST lists and tRPC queries', async () => {
    const same = (reply: { headers: Record<string, unknown> }) => Object.entries(reply.headers).filter(([name]) => name !== 'date');
    for (const url of [`/api/comment/${shop}?limit=5`, '/api/business', '/api/business/nope', '/trpc/business.directory', '/api/users/auth/check']) {
      // HEAD first (a miss, built by the app), then GET, then HEAD again (a hit where cached).
      const miss = await t.app.inject({ method: 'HEAD', url });
      const full = await get(url);
      const hit = await t.app.inject({ method: 'HEAD', url });
      for (const head of [miss, hit]) {
        expect(head.statusCode, url).toBe(full.statusCode);
        expect(same(head), url).toEqual(same(full));
        expect(head.rawPayload.length, url).toBe(0);
      }
    }
    const tag = (await get('/api/business')).headers.etag;
    expect(tag).toBeTruthy();
    expect((await t.app.inject({ method: 'HEAD', url: '/api/business', headers: { 'if-none-match': String(tag) } })).statusCode).toBe(304);
  });

  it('over a real server, answers a hit with the headers the app gave the first reply, until a write', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/api/comment/${shop}`;
    const first = await fetch(url);
    const firstText = await first.text();
    const hit = await fetch(url);
    const hitText = await hit.text();
    expect(hit.status).toBe(200);
    expect(hitText).toBe(firstText);
    const headersOf = (reply: Response) =>
      [...reply.headers].filter(([name]) => !['date', 'keep-alive', 'connection', 'content-length', 'transfer-encoding'].includes(name));
    expect(headersOf(hit)).toEqual(headersOf(first));
    expect(hit.headers.get('content-security-policy')).toContain("default-src 'self'");
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(await plain.text())));
    expect((await fetch(url, { headers: { 'if-none-match': String(hit.headers.get('etag')) } })).status).toBe(304);
    // HEAD of a hit, answered before Fastify: the same headers, no body.
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(headersOf(head)).toEqual(headersOf(hit));
    expect(head.headers.get('content-length')).toBe(hit.headers.get('content-length'));
    expect(await head.text()).toBe('');
    const query = `${address}/trpc/business.directory`;
    const queryHead = await fetch(query, { method: 'HEAD' });
    expect(queryHead.status).toBe(200);
    expect(headersOf(queryHead)).toEqual(headersOf(await fetch(query)));

    const signedIn = await fetch(url, { headers: { cookie: 'lang=sv; session=not-a-session' } });
    expect(signedIn.headers.get('etag')).toBeNull();

    await createComment(t.deps, cast.other.actor, { businessId: shop, text: 'Skriven medan sidan låg i cachen', businessLocation: 'Lund' });
    const after = await (await fetch(url)).text();
    expect(texts(after)).toContain('Skriven medan sidan låg i cachen');
  });
});

describe('who counts as anonymous', () => {
  let u: TestContext;
  let people: Awaited<ReturnType<typeof createCast>>;
  let store: string;
  let address: string;

  beforeAll(async () => {
    u = await createTestApp({ env: { RATE_LIMITS: '0' } });
    people = await createCast(u.db);
    store = insertBusiness(u.db, 'Kakbutiken');
    const comment = await createComment(u.deps, people.other.actor, { businessId: store, text: 'Om kakorna', businessLocation: 'Lund' });
    await rateComment(u.deps, people.owner.actor, { id: comment._id, rate: 4 });
    address = await u.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => u.close());

  // The signed-in view of a business's comments carries the caller's own rate.
  const listUrl = (limit: number) => `/trpc/comments.byBusiness?input=${encodeURIComponent(JSON.stringify({ businessId: store, limit }))}`;
  const myRates = (body: string) => (JSON.parse(body) as { result: { data: { items: { myRate: number | null }[] } } }).result.data.items.map((c) => c.myRate);
  // Spellings @fastify/cookie reads as the session cookie, so the user is signed in by them.
  const spellings = (token: string) => [`session =${token}`, `lang=sv;session=${token}`, `lang=sv; session\t=${token}`];

  it('over a real socket, never answers a signed-in cookie from the cache, however it is spelt', async () => {
    const url = `${address}${listUrl(20)}`;
    expect(myRates(await (await fetch(url)).text())).toEqual([null]);
    expect((await fetch(url)).headers.get('etag')).toBeTruthy();
    for (const cookie of spellings(people.owner.token)) {
      const reply = await fetch(url, { headers: { cookie } });
      expect(myRates(await reply.text()), cookie).toEqual([4]);
      expect(reply.headers.get('etag'), cookie).toBeNull();
    }
  });

  it('over a real socket, never keeps a signed-in reply for the next visitor', async () => {
    const url = `${address}${listUrl(5)}`;
    for (const cookie of spellings(people.owner.token)) {
      const signedIn = await fetch(url, { headers: { cookie } });
      expect(myRates(await signedIn.text()), cookie).toEqual([4]);
      const visitor = await fetch(url);
      expect(myRates(await visitor.text()), cookie).toEqual([null]);
    }
  });

  it('through inject, neither keeps nor serves a signed-in reply', async () => {
    const url = listUrl(6);
    for (const cookie of spellings(people.owner.token)) {
      const signedIn = await u.app.inject({ url, headers: { cookie } });
      expect(myRates(signedIn.body), cookie).toEqual([4]);
      expect(signedIn.headers.etag, cookie).toBeUndefined();
      expect(myRates((await u.app.inject(url)).body), cookie).toEqual([null]);
    }
    // A cookie that only looks like a session is an anonymous visitor, whose reply is shared.
    const lookalike = await u.app.inject({ url, headers: { cookie: 'sessionless=1; Session=x' } });
    expect(lookalike.headers.etag).toBeTruthy();
  });
});

describe('the public cache bounds', () => {
  it('holds each part within its own entries and bytes: searches and pages never push out the lists', async () => {
    const db = t.db;
    const cache = createPublicCache(db, { maxEntries: 5, search: { maxEntries: 3, maxBytes: 64 * 1024 }, page: { maxEntries: 2, maxBytes: 1024 * 1024 } });
    const stamp = cache.stamp();
    const body = (n: number) => Buffer.alloc(n, 'a');
    for (let i = 0; i < 4; i++) cache.keep(`/api/list/${i}`, stamp, body(100), `"l${i}"`, []);
    for (let i = 0; i < 50; i++) cache.keep(`/api/business?search=${i}`, stamp, body(1000), `"s${i}"`, [], 'search');
    for (let i = 0; i < 9; i++) cache.keep(`/business/${i}#sv`, stamp, body(2000), `"p${i}"`, [], 'page');
    expect(cache.sizes()).toEqual({
      list: { entries: 4, bytes: 400 },
      search: { entries: 3, bytes: 3000 },
      page: { entries: 2, bytes: 4000 },
    });
    // By bytes: entries of 10 KB in a part of 64 KB; one over a quarter of it is not kept at all.
    const bytes = createPublicCache(db, { search: { maxEntries: 100, maxBytes: 64 * 1024 } });
    for (let i = 0; i < 20; i++) bytes.keep(`/api/business?search=big${i}`, bytes.stamp(), body(10 * 1024), `"b${i}"`, [], 'search');
    expect(bytes.sizes().search).toEqual({ entries: 6, bytes: 60 * 1024 });
    bytes.keep('/api/business?search=huge', bytes.stamp(), body(17 * 1024), '"h"', [], 'search');
    expect(bytes.sizes().search.entries).toBe(6);
    expect(cache.sizes().list.entries).toBe(4);
    // A write empties every part.
    insertBusiness(db, 'Tömmer cachen');
    cache.stamp();
    expect(cache.sizes()).toEqual({ list: { entries: 0, bytes: 0 }, search: { entries: 0, bytes: 0 }, page: { entries: 0, bytes: 0 } });
  });

  it('keeps an entry compressed once it is: its part counts only the compressed bytes, and every client gets the same reply', async () => {
    const cache = createPublicCache(t.db);
    const json = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ _id: `c${i}`, text: `Rad ${i}: en lista som upprepar sig` }))));
    cache.keep('/api/xlist', cache.stamp(), json, '"l"', [['content-type', 'application/json']]);
    expect(cache.sizes().list).toEqual({ entries: 1, bytes: json.length });
    const server = createServer((req, res) => {
      if (!cache.answer(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    // Raw bytes as sent (fetch would decode them).
    const get = (encoding: string, path = '/api/xlist') =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((done, fail) => {
        httpRequest({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': encoding } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => done({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
        })
          .on('error', fail)
          .end();
      });
    try {
      const br = await get('gzip, deflate, br, zstd');
      expect(br.encoding).toBe('br');
      expect(brotliDecompressSync(br.body).equals(json)).toBe(true);
      // Only the brotli bytes are left: the uncompressed ones were let go and are no longer counted.
      expect(br.body.length).toBeLessThan(json.length / 4);
      expect(cache.sizes().list).toEqual({ entries: 1, bytes: br.body.length });
      const entry = cache.lookup(Object.assign(Object.create(null), { method: 'GET', url: '/api/xlist', headers: {} }));
      expect(entry?.body).toBeNull();
      expect(identityOf(entry!).equals(json)).toBe(true);
      // Kept in a buffer of their own size, not in zlib's 64 KB output chunk.
      expect(entry?.variants.br?.body.buffer.byteLength).toBe(br.body.length);
      // A client that takes no compression gets the bytes rebuilt, each time, and nothing more is kept.
      for (let i = 0; i < 2; i++) {
        const plain = await get('identity');
        expect(plain.encoding).toBeUndefined();
        expect(plain.body.equals(json)).toBe(true);
      }
      expect(entry?.variants.identity).toBeUndefined();
      expect(cache.sizes().list.bytes).toBe(br.body.length);
      // gzip is made from them once and kept beside brotli.
      const gzip = await get('gzip');
      expect(gzip.encoding).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(json)).toBe(true);
      expect(cache.sizes().list.bytes).toBe(br.body.length + gzip.body.length);
      expect((await get('br')).body.equals(br.body)).toBe(true);
      // A page comes compressed already (spa-reply.ts): only those bytes are kept, from the start.
      const html = Buffer.from(`<!doctype html><html><body>${'<p>Ett stycke text på sidan.</p>'.repeat(200)}</body></html>`);
      const page = brotliCompressSync(html);
      cache.keep(
        '/api/xpage',
        cache.stamp(),
        { encoding: 'br', body: page, size: html.length },
        '"p"',
        [['content-type', 'text/html; charset=utf-8']],
        'page',
        'all',
      );
      expect(cache.sizes().page).toEqual({ entries: 1, bytes: page.length });
      const raw = (await get('identity', '/api/xpage')).body;
      expect(raw.equals(html)).toBe(true);
      // Bounds and a write count what the entries hold: evicted or dropped, their bytes go with them.
      const small = createPublicCache(t.db, { page: { maxEntries: 2, maxBytes: 1024 * 1024 } });
      const pages = [1, 2, 3].map((n) => brotliCompressSync(Buffer.from(`<p>Sida ${n}</p>`.repeat(300 * n))));
      pages.forEach((encoded, n) =>
        small.keep(`/business/${n}#sv`, small.stamp(), { encoding: 'br', body: encoded, size: 2048 * (n + 1) }, `"s${n}"`, [], 'page', 'all'),
      );
      expect(small.sizes().page).toEqual({ entries: 2, bytes: pages[1].length + pages[2].length });
      // Too small to compress (spa-reply.ts sends it as it is): kept as it is.
      small.keep('/business/tiny#sv', small.stamp(), Buffer.from('<p>Liten</p>'), '"t"', [], 'page', 'all');
      expect(small.sizes().page).toEqual({ entries: 2, bytes: pages[2].length + '<p>Liten</p>'.length });
      insertBusiness(t.db, 'Tömmer sidorna');
      small.stamp();
      expect(small.sizes().page).toEqual({ entries: 0, bytes: 0 });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
