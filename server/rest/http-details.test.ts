import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../db/schema';
import { messages } from '../../shared/schemas/messages';
import { createComment } from '../services/comments/comments';
import { insertBusiness, pngBytes } from '../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

/** Issue 28, item 4: the HTTP details an outside integrator found, a test each. */
let t: TestContext;
let user: TestUser;
let shop: string;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  user = await createTestUser(t.db);
  shop = insertBusiness(t.db, 'Konsum');
  // Enough comments that the list is over the 1 KB compression threshold.
  for (let i = 0; i < 12; i++) {
    await createComment(t.deps, user.actor, { businessId: shop, text: `Kommentar ${i} med lite text så att listan blir stor`, businessLocation: 'Lund' });
  }
});
afterAll(() => t.close());

const list = () => `/api/comment/${shop}`;

/** A multipart body whose fields and files are given as name/value pairs, repeats allowed. */
async function formOf(parts: [string, string | Buffer][]) {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value)], { type: 'image/png' }), `${name}.png`);
  }
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type') as string } };
}

describe('conditional requests', () => {
  it('answers weak, listed and * If-None-Match with 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: list() });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `"other", W/${etag}`, '*']) {
      const res = await t.app.inject({ method: 'GET', url: list(), headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
      expect(res.body, header).toBe('');
    }
    expect((await t.app.inject({ method: 'GET', url: list(), headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('gives gzip, br and identity replies an ETag each, and any of them validates', async () => {
    const tags = new Map<string, string>();
    for (const encoding of ['identity', 'gzip', 'br']) {
      // The first request of each builds the reply (Fastify and compress), the second is a kept one.
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'GET', url: `${list()}?limit=20&e=${encoding}`, headers: { 'accept-encoding': encoding } });
        expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
        const tag = res.headers.etag as string;
        if (i === 1) expect(tag, encoding).toBe(tags.get(encoding));
        tags.set(encoding, tag);
      }
    }
    expect(new Set(tags.values()).size).toBe(3);
    const zipped = await t.app.inject({
      method: 'GET',
      url: `${list()}?limit=20&e=gzip`,
      headers: { 'if-none-match': tags.get('gzip'), 'accept-encoding': 'gzip' },
    });
    expect(zipped.statusCode).toBe(304);
    expect(zipped.headers.etag).toBe(tags.get('gzip'));
  });
});

describe('HEAD', () => {
  it('on a compressed personal reply keeps Content-Encoding, Vary and the compressed length', async () => {
    const headers = { ...bearer(user), 'accept-encoding': 'gzip' };
    const get = await t.app.inject({ method: 'GET', url: list(), headers });
    expect(get.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(get.rawPayload).toString())).toHaveLength(12);
    const head = await t.app.inject({ method: 'HEAD', url: list(), headers });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload).toHaveLength(0);
    for (const name of ['content-encoding', 'vary', 'content-length', 'cache-control', 'content-type'])
      expect(head.headers[name], name).toBe(get.headers[name]);
    expect(Number(head.headers['content-length'])).toBe(get.rawPayload.length);
  });
});

describe('Vary on replies that depend on who asks', () => {
  it('says Cookie and Authorization on personal JSON, public lists and errors, REST and tRPC', async () => {
    const replies = [
      await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers: bearer(user) }),
      await t.app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers: bearer(user) }),
      await t.app.inject({ method: 'GET', url: '/api/users/auth/check' }),
      await t.app.inject({ method: 'GET', url: list() }),
      await t.app.inject({ method: 'GET', url: '/trpc/users.me', headers: bearer(user) }),
    ];
    for (const res of replies) {
      const vary = String(res.headers.vary ?? '')
        .split(',')
        .map((v) => v.trim().toLowerCase());
      expect(vary, res.raw.req.url).toEqual(expect.arrayContaining(['cookie', 'authorization']));
    }
  });
});

describe('request bodies', () => {
  const createUrl = () => `/api/comment/create/${shop}`;

  it('answers more than 40 multipart fields with "too many fields", not a picture too large', async () => {
    const parts: [string, string][] = [
      ['text', 'Många fält'],
      ['businessLocation', 'Lund'],
    ];
    for (let i = 0; i < 45; i++) parts.push([`extra${i}`, 'x']);
    const form = await formOf(parts);
    const res = await t.app.inject({ method: 'POST', url: createUrl(), payload: form.payload, headers: { ...form.headers, ...bearer(user) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'formTooManyFields', message: messages.formTooManyFields });
  });

  it('answers JSON sent to a multipart-only operation with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: createUrl(), headers: bearer(user), payload: { text: 'Som JSON', businessLocation: 'Lund' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ key: 'unsupportedContentType' });
    const upload = await t.app.inject({ method: 'POST', url: '/api/images', headers: bearer(user), payload: { kind: 'comment' } });
    expect(upload.statusCode).toBe(415);
    // No body at all is still the operation's own 400.
    expect((await t.app.inject({ method: 'POST', url: '/api/images', headers: bearer(user) })).json()).toMatchObject({ key: 'imageMissing' });
  });

  it('refuses two files in the one-file image field instead of dropping one', async () => {
    const before = t.db.select().from(comments).all().length;
    const form = await formOf([
      ['text', 'Två bilder'],
      ['businessLocation', 'Lund'],
      ['image', await pngBytes()],
      ['image', await pngBytes()],
    ]);
    const res = await t.app.inject({ method: 'POST', url: createUrl(), payload: form.payload, headers: { ...form.headers, ...bearer(user) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ image: messages.fileRepeated });
    expect(t.db.select().from(comments).all()).toHaveLength(before);
  });

  it('refuses JSON that is not UTF-8 with a 400', async () => {
    const bytes = Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xff, 0xfe]), Buffer.from('@example.com","password":"Secret-pass-123"}')]);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/logIn', headers: { 'content-type': 'application/json' }, payload: bytes });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'invalidUtf8' });
  });

  it('takes ?limit only as plain decimal digits', async () => {
    for (const limit of ['0x10', '1e1', '+5', '01', ' 5', '5.0', '']) {
      const res = await t.app.inject({ method: 'GET', url: `${list()}?limit=${encodeURIComponent(limit)}` });
      expect(res.statusCode, limit).toBe(400);
    }
    const ok = await t.app.inject({ method: 'GET', url: `${list()}?limit=10` });
    expect(ok.json()).toHaveLength(10);
  });
});

describe('a removed comment', () => {
  it('is marked removed: true over REST, as over tRPC', async () => {
    const mine = await createComment(t.deps, user.actor, { businessId: shop, text: 'Snart borttagen', businessLocation: 'Lund' });
    t.db.update(comments).set({ removedAt: Date.now(), text: '' }).where(eq(comments.id, mine._id)).run();
    const rest = (await t.app.inject({ method: 'GET', url: `${list()}?limit=100`, headers: bearer(user) })).json<{ _id: string; removed: boolean }[]>();
    expect(rest.find((c) => c._id === mine._id)).toMatchObject({ removed: true, text: '' });
    expect(rest.filter((c) => c._id !== mine._id).every((c) => c.removed === false)).toBe(true);
    const trpc = await callerFor(t.deps, user).comments.byBusiness({ businessId: shop, limit: 100 });
    expect(trpc.items.find((c) => c._id === mine._id)).toMatchObject({ removed: true });
  });
});
