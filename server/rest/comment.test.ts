import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, replies } from '../../db/schema';
import { bearer, createCast, createTestApp, type TestContext } from '../test/helpers';
import { fileExists, insertBusiness, pngBytes } from '../test/comment-fixtures';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Systembolaget');
});
afterAll(() => t.close());

type Role = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
const roles: Role[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
const authOf = (role: Role): Record<string, string> => (role === 'visitor' ? {} : bearer(cast[role]));

/** A multipart/form-data body as a browser would send it. */
function multipart(fields: Record<string, string>, file?: { field?: string; data: Buffer }) {
  const boundary = `----recensera${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const ownersComment = () => createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Bra sortiment', businessLocation: 'Lund' });
const ownersReply = async () => createReply(t.deps, cast.owner.actor, { commentId: (await ownersComment())._id, text: 'Instämmer' });

describe('who may call which route (docs/product.md §2)', () => {
  type Row = {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: () => Promise<string> | string;
    body?: () => Promise<ReturnType<typeof multipart>> | ReturnType<typeof multipart>;
    json?: unknown;
    expected: Record<Role, number>;
  };
  const everyone = (status: number) => ({ visitor: status, owner: status, other: status, banned: status, admin: status });
  const form = (fields: Record<string, string>) => () => multipart(fields);

  const rows: Record<string, Row> = {
    'GET /comment': { method: 'GET', url: () => '/api/comment', expected: everyone(200) },
    'GET /comment/most-subcomments': { method: 'GET', url: () => '/api/comment/most-subcomments', expected: everyone(200) },
    'GET /comment/most-rated': { method: 'GET', url: () => '/api/comment/most-rated', expected: everyone(200) },
    'GET /comment/{businessId}': { method: 'GET', url: () => `/api/comment/${shop}`, expected: everyone(200) },
    'POST /comment/create/{businessId}': {
      method: 'POST',
      url: () => `/api/comment/create/${shop}`,
      body: form({ text: 'Mycket bra', businessLocation: 'Malmö' }),
      expected: { visitor: 401, owner: 201, other: 201, banned: 403, admin: 201 },
    },
    'PUT /comment/update/{id}': {
      method: 'PUT',
      url: async () => `/api/comment/update/${(await ownersComment())._id}`,
      body: form({ text: 'Ändrad' }),
      expected: { visitor: 401, owner: 200, other: 403, banned: 403, admin: 403 },
    },
    'DELETE /comment/delete/{id}': {
      method: 'DELETE',
      url: async () => `/api/comment/delete/${(await ownersComment())._id}`,
      expected: { visitor: 401, owner: 200, other: 403, banned: 403, admin: 403 },
    },
    'DELETE /comment/{id}': {
      method: 'DELETE',
      url: async () => `/api/comment/${(await ownersComment())._id}`,
      expected: { visitor: 401, owner: 403, other: 403, banned: 403, admin: 200 },
    },
    'POST /comment/addRate/{id}': {
      method: 'POST',
      url: async () => `/api/comment/addRate/${(await ownersComment())._id}`,
      json: { rate: 5 },
      expected: { visitor: 401, owner: 403, other: 200, banned: 403, admin: 200 },
    },
    'POST /comment/addSubComment/{commentId}': {
      method: 'POST',
      url: async () => `/api/comment/addSubComment/${(await ownersComment())._id}`,
      body: form({ text: 'Ett svar' }),
      expected: { visitor: 401, owner: 201, other: 201, banned: 403, admin: 201 },
    },
    'GET /subComment': { method: 'GET', url: () => '/api/subComment', expected: everyone(200) },
    'PUT /subComment/update/{id}': {
      method: 'PUT',
      url: async () => `/api/subComment/update/${(await ownersReply())._id}`,
      body: form({ text: 'Ändrat svar' }),
      expected: { visitor: 401, owner: 200, other: 403, banned: 403, admin: 403 },
    },
    'DELETE /subComment/delete/{id}': {
      method: 'DELETE',
      url: async () => `/api/subComment/delete/${(await ownersReply())._id}`,
      expected: { visitor: 401, owner: 200, other: 403, banned: 403, admin: 200 },
    },
    'POST /subComment/addRate/{id}': {
      method: 'POST',
      url: async () => `/api/subComment/addRate/${(await ownersReply())._id}`,
      json: { rate: 1 },
      expected: { visitor: 401, owner: 403, other: 200, banned: 403, admin: 200 },
    },
  };

  for (const [name, row] of Object.entries(rows)) {
    it(name, async () => {
      const got: Record<string, number> = {};
      for (const role of roles) {
        const body = row.body ? await row.body() : undefined;
        const res = await t.app.inject({
          method: row.method,
          url: await row.url(),
          headers: { ...authOf(role), ...(body?.headers ?? {}) },
          ...(body ? { payload: body.payload } : row.json !== undefined ? { payload: row.json as object } : {}),
        });
        got[role] = res.statusCode;
      }
      expect(got).toEqual(row.expected);
    });
  }

  it("unknown ids answer 404 with the description's wording", async () => {
    const admin = bearer(cast.admin);
    const missingReply = await t.app.inject({ method: 'DELETE', url: '/api/subComment/delete/nope', headers: admin });
    expect(missingReply.statusCode).toBe(404);
    expect(missingReply.json().message).toBe('Sub-comment not found');
    expect((await t.app.inject({ method: 'GET', url: '/api/comment/nope' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/comment/nope', headers: admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/comment/addRate/nope', headers: admin, payload: { rate: 2 } })).statusCode).toBe(404);
  });
});

describe('identity comes from the session', () => {
  it('userId, firstName, lastName and userImage in the form are ignored', async () => {
    const body = multipart({
      text: 'Äkta kommentar',
      businessLocation: 'Umeå',
      userId: cast.admin.id,
      firstName: 'Falsk',
      lastName: 'Person',
      userImage: 'https://evil.example/x.png',
      businessId: 'other-business',
      businessIcon: 'https://evil.example/icon.png',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...bearer(cast.other), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ userId: cast.other.id, firstName: 'Ada', lastName: 'Other', userImage: null, businessId: shop });
    const stored = t.db.select().from(comments).where(eq(comments.id, created._id)).get()!;
    expect(stored.userId).toBe(cast.other.id);

    const replyBody = multipart({ text: 'Äkta svar', userId: cast.admin.id, firstName: 'Falsk' });
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/comment/addSubComment/${created._id}`,
      headers: { ...bearer(cast.owner), ...replyBody.headers },
      payload: replyBody.payload,
    });
    expect(reply.json()).toMatchObject({ userId: cast.owner.id, firstName: 'Olle', commentId: created._id, businessId: shop });
    expect(t.db.select().from(replies).where(eq(replies.id, reply.json()._id)).get()!.userId).toBe(cast.owner.id);
  });
});

describe('documented shapes and behaviour', () => {
  it('creates a comment with a photo (201) and lists it with ratings and replies', async () => {
    const b = insertBusiness(t.db, 'ICA Maxi');
    const body = multipart({ text: 'Fina grönsaker', businessLocation: 'Västerås', rate: '4' }, { data: await pngBytes(300, 200) });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${b}`,
      headers: { ...bearer(cast.owner), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.image).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    expect(fileExists(`${t.deps.paths.uploads}/${created.image.slice('/uploads/'.length)}`)).toBe(true);
    expect(created).toMatchObject({ businessId: b, businessLocation: 'Västerås', rate: null, ratings: [], subComments: [], replyCount: 0 });

    await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${created._id}`, headers: bearer(cast.other), payload: { rate: 5 } });
    const replyBody = multipart({ text: 'Håller med' });
    await t.app.inject({
      method: 'POST',
      url: `/api/comment/addSubComment/${created._id}`,
      headers: { ...bearer(cast.other), ...replyBody.headers },
      payload: replyBody.payload,
    });

    const list = await t.app.inject({ method: 'GET', url: `/api/comment/${b}`, headers: bearer(cast.owner) });
    expect(list.statusCode).toBe(200);
    const [c] = list.json();
    expect(Object.keys(c).sort()).toEqual(
      [
        '_id',
        'userId',
        'businessId',
        'businessIcon',
        'businessTitle',
        'businessLocation',
        'branchId',
        'text',
        'image',
        'rate',
        'ratings',
        'firstName',
        'lastName',
        'userImage',
        'date',
        'subComments',
        'replyCount',
        'ratingCount',
        'emojiCounts',
        'authorRate',
        'removed',
        'ownerReply',
      ].sort(),
    );
    expect(c).toMatchObject({ rate: 5, ratingCount: 1, ratings: [{ userId: cast.other.id, rate: 5 }], replyCount: 1, emojiCounts: { 5: 1 } });
    expect(new Date(c.date).toISOString()).toBe(c.date);
    expect(c.subComments[0]).toMatchObject({
      userId: cast.other.id,
      commentId: c._id,
      businessId: b,
      text: 'Håller med',
      isConfirmed: true,
      ratings: [],
      rate: null,
    });
    for (const key of ['_id', 'date', 'image', 'firstName', 'lastName', 'userImage']) expect(c.subComments[0]).toHaveProperty(key);
  });

  it('addRate answers { ratings, rate }; null takes the rating back; 0 is refused', async () => {
    const c = await ownersComment();
    const rated = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${c._id}`, headers: bearer(cast.other), payload: { rate: 2 } });
    expect(rated.json()).toMatchObject({ rate: 2, ratings: [{ userId: cast.other.id, rate: 2 }] });
    const zero = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${c._id}`, headers: bearer(cast.other), payload: { rate: 0 } });
    expect(zero.statusCode).toBe(400);
    const back = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${c._id}`, headers: bearer(cast.other), payload: { rate: null } });
    expect(back.json()).toMatchObject({ rate: null, ratings: [], ratingCount: 0 });
    const own = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${c._id}`, headers: bearer(cast.owner), payload: { rate: 5 } });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You cannot react to your own post.');
  });

  it("validation errors are 400 with the description's messages per field", async () => {
    const bad = multipart({ text: 'x', businessLocation: 'Stora Nygatan i Malmö C norra delen' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...bearer(cast.owner), ...bad.headers },
      payload: bad.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ text: 'Comment too short!', businessLocation: 'Business location should consist of at most 6 words' });
    const empty = multipart({});
    const res2 = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...bearer(cast.owner), ...empty.headers },
      payload: empty.payload,
    });
    expect(res2.json().errors).toEqual({ text: '*Please write a comment', businessLocation: '*Please add store location' });
    const notMultipart = await t.app.inject({ method: 'POST', url: `/api/comment/create/${shop}`, headers: bearer(cast.owner), payload: { text: 'Hej hej' } });
    expect(notMultipart.statusCode).toBe(415);
    const reply = multipart({ text: 'x' });
    const c = await ownersComment();
    const res3 = await t.app.inject({
      method: 'POST',
      url: `/api/comment/addSubComment/${c._id}`,
      headers: { ...bearer(cast.owner), ...reply.headers },
      payload: reply.payload,
    });
    expect(res3.json().errors).toEqual({ text: 'Title too short!' });
    const r = await ownersReply();
    const edit = multipart({ text: '' });
    const res4 = await t.app.inject({
      method: 'PUT',
      url: `/api/subComment/update/${r._id}`,
      headers: { ...bearer(cast.owner), ...edit.headers },
      payload: edit.payload,
    });
    expect(res4.json().errors).toEqual({ text: '*Please write a subcomment' });
    const notImage = multipart({ text: 'Med fil', businessLocation: 'Lund' }, { data: Buffer.from('just text, not a picture') });
    const res5 = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...bearer(cast.owner), ...notImage.headers },
      payload: notImage.payload,
    });
    expect(res5.statusCode).toBe(415);
  });

  it('GET /comment pages newest first with X-Next-Cursor; bad paging input is a 400', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/comment?limit=3' });
    expect(first.json()).toHaveLength(3);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await t.app.inject({ method: 'GET', url: `/api/comment?limit=3&cursor=${cursor}` });
    const ids = [...first.json(), ...second.json()].map((c: { _id: string }) => c._id);
    expect(new Set(ids).size).toBe(6);
    const dates = [...first.json(), ...second.json()].map((c: { date: string }) => Date.parse(c.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(first.json()[0].subComments).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/comment?limit=1000' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/comment?cursor=%%%' })).statusCode).toBe(400);
    const replies = await t.app.inject({ method: 'GET', url: '/api/subComment?limit=2' });
    expect(replies.json()).toHaveLength(2);
    expect(replies.headers['x-next-cursor']).toBeTruthy();
  });

  it('the business list searches with ?search= and never fails on odd text', async () => {
    const b = insertBusiness(t.db, 'Sök');
    await createComment(t.deps, cast.owner.actor, { businessId: b, text: 'Goda semlor', businessLocation: 'Göteborg' });
    await createComment(t.deps, cast.owner.actor, { businessId: b, text: 'Dyra priser', businessLocation: 'Lund' });
    const hit = await t.app.inject({ method: 'GET', url: `/api/comment/${b}?search=${encodeURIComponent('goteborg')}` });
    expect(hit.json().map((c: { text: string }) => c.text)).toEqual(['Goda semlor']);
    const odd = await t.app.inject({ method: 'GET', url: `/api/comment/${b}?search=${encodeURIComponent('"NEAR( * ^ :')}` });
    expect(odd.statusCode).toBe(200);
  });

  it('static routes win over /comment/{businessId}', async () => {
    for (const url of ['/api/comment/most-rated', '/api/comment/most-subcomments']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    }
  });

  it('a deleted comment says so in the documented words', async () => {
    const c = await ownersComment();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/comment/delete/${c._id}`, headers: bearer(cast.owner) });
    expect(res.json()).toEqual({ message: 'Your comment was removed' });
    const c2 = await ownersComment();
    const mod = await t.app.inject({ method: 'DELETE', url: `/api/comment/${c2._id}`, headers: bearer(cast.admin) });
    expect(mod.json()).toEqual({ message: 'Comment removed!' });
    const r = await ownersReply();
    const modReply = await t.app.inject({ method: 'DELETE', url: `/api/subComment/delete/${r._id}`, headers: bearer(cast.admin) });
    expect(modReply.json()).toEqual({ message: 'SubComment removed!' });
  });

  it('every route is in the API docs', async () => {
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    const paths = Object.keys(docs.paths);
    for (const p of [
      '/api/comment',
      '/api/comment/most-subcomments',
      '/api/comment/most-rated',
      '/api/comment/create/{businessId}',
      '/api/comment/update/{id}',
      '/api/comment/delete/{id}',
      '/api/comment/{id}',
      '/api/comment/addRate/{id}',
      '/api/comment/addSubComment/{commentId}',
      '/api/subComment',
      '/api/subComment/update/{id}',
      '/api/subComment/delete/{id}',
      '/api/subComment/addRate/{id}',
    ]) {
      expect(paths, p).toContain(p);
    }
    // The comments of a business share the path item of DELETE /comment/{id} (rest/openapi.ts).
    expect(Object.keys(docs.paths['/api/comment/{id}']).sort()).toEqual(['delete', 'get']);
  });
});
