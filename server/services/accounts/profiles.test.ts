import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../../db/schema';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { rateComment, rateReply } from '../comments/comment-ratings';
import { createComment, getComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { reportPost, resolveReports } from '../moderation/reports';

let t: TestContext;
let anna: TestUser, bo: TestUser, cilla: TestUser, admin: TestUser;
let shop: string;
const ids: { shown: string[]; hidden: string; removed: string } = { shown: [], hidden: '', removed: '' };

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', REPORT_HIDE_THRESHOLD: '2' } });
  [anna, bo, cilla, admin] = await Promise.all([
    createTestUser(t.db, { firstName: 'Anna', lastName: 'Andersson', email: 'anna.andersson@example.com' }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Berg', nameDisplay: 'initial' }),
    createTestUser(t.db, { firstName: 'Cilla', lastName: 'Carlsson' }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
  ]);
  shop = insertBusiness(t.db, 'Profilkaféet');
  await establish(t.deps, [bo, cilla]);
  const review = (text: string) => createComment(t.deps, anna.actor, { businessId: shop, text, businessLocation: 'Lund' });
  for (const text of ['Första recensionen här', 'Andra recensionen här', 'Tredje recensionen här']) ids.shown.push((await review(text))._id);
  ids.hidden = (await review('Den här blir dold av rapporter'))._id;
  ids.removed = (await review('Den här tas bort av moderator'))._id;
  await reportPost(t.deps, bo.actor, 'comment', { id: ids.hidden, reason: 'spam' });
  await reportPost(t.deps, cilla.actor, 'comment', { id: ids.hidden, reason: 'offensive' });
  await reportPost(t.deps, bo.actor, 'comment', { id: ids.removed, reason: 'spam' });
  await resolveReports(t.deps, admin.actor, { id: ids.removed, action: 'remove', note: 'Reklam' });
  const r = await createReply(t.deps, anna.actor, { commentId: ids.shown[0], text: 'Ett svar från Anna' });
  await rateComment(t.deps, bo.actor, { id: ids.shown[1], rate: 5 });
  await rateComment(t.deps, cilla.actor, { id: ids.shown[1], rate: 4 });
  await rateReply(t.deps, bo.actor, { id: r._id, rate: 3 });
});
afterAll(() => t.close());

describe('public profile', () => {
  it('the setup hid one review and removed another', () => {
    const state = (id: string) => t.db.select({ h: comments.hiddenAt, r: comments.removedAt }).from(comments).where(eq(comments.id, id)).get();
    expect(state(ids.hidden)?.h).not.toBeNull();
    expect(state(ids.removed)?.r).not.toBeNull();
  });

  it('REST: no sign-in, public reviews newest first by cursor, counts, no e-mail and no hidden post', async () => {
    const first = await t.app.inject({ url: `/api/users/${anna.id}/profile?limit=2` });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ _id: anna.id, firstName: 'Anna', lastName: 'Andersson', counts: { reviews: 3, replies: 1, reactions: 3 } });
    expect(body.reviews.map((r: { _id: string }) => r._id)).toEqual([ids.shown[2], ids.shown[1]]);
    expect(body.reviews[0]).toMatchObject({ businessId: shop, businessTitle: 'Profilkaféet', text: 'Tredje recensionen här' });
    const cursor = String(first.headers['x-next-cursor']);
    expect(first.headers['x-next-cursor']).toBeTypeOf('string');
    const second = await t.app.inject({ url: `/api/users/${anna.id}/profile?limit=2&cursor=${cursor}` });
    expect(second.json().reviews.map((r: { _id: string }) => r._id)).toEqual([ids.shown[0]]);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    for (const raw of [first.body, second.body]) {
      expect(raw).not.toContain('@');
      expect(raw).not.toContain(ids.hidden);
      expect(raw).not.toContain(ids.removed);
      expect(raw).not.toMatch(/hidden|removed|email|isAdmin|isBanned/i);
    }
  });

  it('REST: 404 for an unknown user, 400 for a bad cursor', async () => {
    expect((await t.app.inject({ url: '/api/users/nobody-here/profile' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/users/${anna.id}/profile?cursor=nonsense` })).statusCode).toBe(400);
  });

  it('tRPC: the same for a visitor, the author and an admin: hidden and removed never appear', async () => {
    for (const who of [null, anna, admin]) {
      const profile = await callerFor(t.deps, who).users.profile({ id: anna.id });
      expect(profile.reviews.map((r) => r._id)).toEqual([...ids.shown].reverse());
      const raw = JSON.stringify(profile);
      expect(raw).not.toContain('@');
      expect(raw).not.toContain(ids.hidden);
      expect(raw).not.toContain(ids.removed);
    }
  });
});

describe('name shown', () => {
  it("an initial-only user's last name is the initial on profiles, cards and replies; full names stay full", async () => {
    expect((await callerFor(t.deps, null).users.profile({ id: bo.id })).lastName).toBe('B.');
    const c = await createComment(t.deps, bo.actor, { businessId: shop, text: 'Bo skriver en recension', businessLocation: 'Lund' });
    expect(getComment(t.deps, null, c._id)).toMatchObject({ firstName: 'Bo', lastName: 'B.' });
    const r = await createReply(t.deps, bo.actor, { commentId: ids.shown[0], text: 'Bo svarar Anna' });
    expect(r).toMatchObject({ firstName: 'Bo', lastName: 'B.' });
    expect(getComment(t.deps, null, ids.shown[0])).toMatchObject({ firstName: 'Anna', lastName: 'Andersson' });
  });

  it('the choice is made on the profile and applies to cards at once (tRPC and REST)', async () => {
    const me = callerFor(t.deps, cilla);
    const c = await createComment(t.deps, cilla.actor, { businessId: shop, text: 'Cilla recenserar', businessLocation: 'Lund' });
    const updated = await me.users.updateProfile({ firstName: 'Cilla', lastName: 'Carlsson', nameDisplay: 'initial' });
    expect(updated).toMatchObject({ lastName: 'Carlsson', nameDisplay: 'initial' });
    expect(getComment(t.deps, null, c._id).lastName).toBe('C.');
    const rest = await t.app.inject({
      method: 'PUT',
      url: `/api/users/update/${cilla.id}`,
      headers: { authorization: `Bearer ${cilla.token}` },
      payload: { nameDisplay: 'full' },
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ nameDisplay: 'full' });
    expect(getComment(t.deps, null, c._id).lastName).toBe('Carlsson');
  });
});

describe('your own reviews and replies (issue 30, item 7)', () => {
  it('tRPC: your reviews newest posted first by cursor, hidden and removed ones marked, the removed text gone', async () => {
    const caller = callerFor(t.deps, anna);
    const first = await caller.users.myPosts({ kind: 'reviews', limit: 3 });
    expect(first.items.map((p) => p._id)).toEqual([ids.removed, ids.hidden, ids.shown[2]]);
    expect(first.items[0]).toMatchObject({ commentId: ids.removed, removed: true, text: '', businessTitle: 'Profilkaféet' });
    expect(first.items[1]).toMatchObject({ hidden: true, removed: false, text: 'Den här blir dold av rapporter' });
    const second = await caller.users.myPosts({ kind: 'reviews', limit: 3, cursor: first.nextCursor! });
    expect(second.items.map((p) => p._id)).toEqual([ids.shown[1], ids.shown[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it('REST: your replies link to their comment; only your own; a visitor gets 401', async () => {
    const res = await t.app.inject({ url: '/api/users/me/posts?kind=replies', headers: { authorization: `Bearer ${anna.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ commentId: ids.shown[0], businessId: shop, text: 'Ett svar från Anna', hidden: false, removed: false }),
    ]);
    const bos = await t.app.inject({ url: '/api/users/me/posts?kind=reviews', headers: { authorization: `Bearer ${bo.token}` } });
    const annas = new Set([...ids.shown, ids.hidden, ids.removed]);
    expect(bos.json().filter((p: { _id: string }) => annas.has(p._id))).toEqual([]);
    expect((await t.app.inject({ url: '/api/users/me/posts?kind=reviews' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users/me/posts?kind=photos', headers: { authorization: `Bearer ${anna.token}` } })).statusCode).toBe(400);
  });
});

describe('reviews of the same millisecond (migration 0040: the lists walk comments_user_idx in its own order)', () => {
  let dana: TestUser;
  const same: string[] = [];
  let older = '';

  beforeAll(async () => {
    dana = await createTestUser(t.db, { firstName: 'Dana', lastName: 'Dahl' });
    // Posted in descending order of the businesses' ids: the rowids then run against the order the
    // lists show them in, so a cursor that compared (date, rowid) alone would repeat and skip some.
    const shops = ['Ett', 'Två', 'Tre', 'Fyra', 'Fem'].map((n) => insertBusiness(t.db, `Samtidigt ${n}`)).sort((a, b) => (a < b ? 1 : -1));
    for (const businessId of shops)
      same.push((await createComment(t.deps, dana.actor, { businessId, text: `Samma stund hos ${businessId}`, businessLocation: 'Lund' }))._id);
    older = (await createComment(t.deps, dana.actor, { businessId: shops[0], text: 'En äldre recension', businessLocation: 'Lund' }))._id;
    // Five reviews of one millisecond on five businesses, and one a second older.
    t.db.$client.prepare('update comments set created_at = ? where user_id = ?').run(1_790_000_000_000, dana.id);
    t.db.$client.prepare('update comments set created_at = ? where id = ?').run(1_789_999_999_000, older);
  });

  const pages = async (url: (cursor: string) => string) => {
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({ url: url(cursor), headers: { authorization: `Bearer ${dana.token}` } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...(Array.isArray(body) ? body : body.reviews).map((r: { _id: string }) => r._id));
      const next = res.headers['x-next-cursor'];
      if (typeof next !== 'string') return seen;
      cursor = next;
    }
    throw new Error('the pages did not end');
  };

  it('REST: the public profile and your own reviews page through all of them, each once, the older one last', async () => {
    const after = (c: string) => (c ? `&cursor=${c}` : '');
    for (const url of [
      (c: string) => `/api/users/${dana.id}/profile?limit=2${after(c)}`,
      (c: string) => `/api/users/me/posts?kind=reviews&limit=2${after(c)}`,
    ]) {
      const seen = await pages(url);
      expect(seen).toHaveLength(6);
      expect(new Set(seen).size).toBe(6);
      expect(new Set(seen.slice(0, 5))).toEqual(new Set(same));
      expect(seen[5]).toBe(older);
    }
  });

  it('a cursor whose review was deleted since goes on with the older reviews (the rest of its millisecond is skipped)', async () => {
    const first = await t.app.inject({ url: `/api/users/${dana.id}/profile?limit=2` });
    const [, last] = first.json().reviews.map((r: { _id: string }) => r._id);
    t.db.$client.prepare('delete from comments where id = ?').run(last);
    const next = await t.app.inject({ url: `/api/users/${dana.id}/profile?limit=10&cursor=${String(first.headers['x-next-cursor'])}` });
    expect(next.statusCode).toBe(200);
    expect(next.json().reviews.map((r: { _id: string }) => r._id)).toEqual([older]);
  });
});
