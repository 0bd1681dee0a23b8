import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../../db/schema';
import { callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { newId } from '../../lib/ids';
import { messageText } from '../../../shared/schemas/messages';
import { closeDb, migrateDb, migrationsFolder, openDb } from '../../../db/client';
import { insertBusiness } from '../../test/comment-fixtures';
import { OTHER_PLACES_MAX, otherPlacesOf } from '../business/branch-ratings';

/**
 * Issue 29.4: places authors type that are none of the business's branches ("Annan plats: Umeå")
 * show in the branch filter beside the branches, grouped ignoring case and spaces, with their
 * numbers of public comments, and the list filters by one (REST ?place=, tRPC `place`).
 */
let t: TestContext;
let admin: TestUser;
let users: TestUser[];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  admin = await createTestUser(t.db, { isAdmin: true, firstName: 'Alma', lastName: 'Admin' });
  users = await Promise.all(Array.from({ length: 4 }, (_, i) => createTestUser(t.db, { firstName: `Person${i}` })));
});
afterAll(() => t.close());

async function newShop() {
  const b = await callerFor(t.deps, admin).business.create({
    title: `Bokhandel ${newId().slice(0, 5)}`,
    category: 'Böcker',
    description: 'Böcker.',
    branches: [{ location: 'Lund' }, { location: 'Malmö' }],
  });
  return { id: b.id, lund: b.branches[0].id, malmo: b.branches[1].id };
}

const post = (user: TestUser, businessId: string, businessLocation: string, text: string) =>
  callerFor(t.deps, user).comments.create({ businessId, businessLocation, text });

describe('typed places in the branch filter', () => {
  let shop: Awaited<ReturnType<typeof newShop>>;
  const umea: string[] = [];
  let hiddenId = '';

  beforeAll(async () => {
    shop = await newShop();
    // Three spellings of one place, oldest first; one more that a moderator hides.
    for (const [i, spelling] of ['umeå', 'Umeå ', 'UMEÅ', 'Umeå', 'Umeå'].entries()) {
      const c = await post(users[i % users.length], shop.id, spelling, `Bra service i Umeå ${i}`);
      // A millisecond each, oldest first: posts are fast enough to share one, and the newest names the place.
      t.db
        .update(comments)
        .set({ createdAt: Date.now() - 1000 + i })
        .where(eq(comments.id, c._id))
        .run();
      umea.push(c._id);
    }
    hiddenId = umea.pop() ?? '';
    t.db.update(comments).set({ hiddenAt: Date.now() }).where(eq(comments.id, hiddenId)).run();
    await post(users[0], shop.id, 'Uppsala  Gottsunda Centrum', 'Trevligt i Gottsunda');
    await post(users[1], shop.id, 'lund', 'Fint i Lund');
    await post(users[2], shop.id, 'Malmö', 'Fint i Malmö');
    await post(users[3], shop.id, 'Malmö', 'Bra i Malmö');
  });

  it('GET /api/business/{id} and tRPC business.byId list the places with their public comments, and count the branches', async () => {
    const expected = [
      { name: 'Umeå', commentCount: 4 },
      { name: 'Uppsala Gottsunda Centrum', commentCount: 1 },
    ];
    const rest = (await t.app.inject({ method: 'GET', url: `/api/business/${shop.id}` })).json();
    expect(rest.places).toEqual(expected);
    expect(rest.branches.map((b: { location: string; commentCount: number }) => [b.location, b.commentCount])).toEqual([
      ['Lund', 1],
      ['Malmö', 2],
    ]);
    const trpc = await callerFor(t.deps, null).business.byId({ id: shop.id });
    expect(trpc.places).toEqual(expected);
    expect(trpc.branches.map((b) => b.commentCount)).toEqual([1, 2]);
  });

  it('REST ?place= and tRPC `place` list that place in any spelling, newest first, across pages; hidden ones only to moderators', async () => {
    const newestFirst = [...umea].reverse();
    for (const place of ['Umeå', ' umeå', 'UMEÅ']) {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const qs = new URLSearchParams({ limit: '2', place, ...(cursor ? { cursor } : {}) });
        const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?${qs.toString()}` });
        expect(res.statusCode).toBe(200);
        ids.push(...res.json<Array<{ _id: string }>>().map((c) => c._id));
        cursor = res.headers['x-next-cursor'] as string | undefined;
      } while (cursor);
      expect(ids).toEqual(newestFirst);
    }
    const first = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, place: 'umeå', limit: 3 });
    const second = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, place: 'umeå', limit: 3, cursor: first.nextCursor ?? undefined });
    expect([...first.items, ...second.items].map((c) => c._id)).toEqual(newestFirst);
    const asAdmin = await callerFor(t.deps, admin).comments.byBusiness({ businessId: shop.id, place: 'Umeå' });
    expect(asAdmin.items.map((c) => c._id)).toEqual([hiddenId, ...newestFirst]);
  });

  it('combines with the search and with another order (the sorted walks)', async () => {
    const found = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, place: 'Umeå', search: 'service' });
    expect(found.items.map((c) => c._id)).toEqual([...umea].reverse());
    const none = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, place: 'Umeå', search: 'gottsunda' });
    expect(none.items).toEqual([]);
    const oldest = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?place=${encodeURIComponent('umeå')}&sort=oldest` });
    expect(oldest.json<Array<{ _id: string }>>().map((c) => c._id)).toEqual(umea);
    const spaced = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, place: 'uppsala gottsunda centrum' });
    expect(spaced.items.map((c) => c.text)).toEqual(['Trevligt i Gottsunda']);
  });

  it('a branch and a place at once is a 400 naming `place`; a place nobody wrote about is an empty list', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?branch=${shop.lund}&place=Ume%C3%A5` });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ place: messageText('commentPlaceWithBranch') });
    await expect(callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, branch: shop.lund, place: 'Umeå' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const empty = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?place=Kiruna` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
  });

  it('a comment moved to a branch leaves the place; a deleted branch becomes one', async () => {
    const other = await newShop();
    const moved = await post(users[0], other.id, 'Umeå', 'Flyttad');
    await post(users[1], other.id, 'Lund', 'I Lund');
    expect((await callerFor(t.deps, null).business.byId({ id: other.id })).places).toEqual([{ name: 'Umeå', commentCount: 1 }]);
    await callerFor(t.deps, users[0]).comments.update({ id: moved._id, text: 'Flyttad', branchId: other.malmo });
    expect((await callerFor(t.deps, null).business.byId({ id: other.id })).places).toEqual([]);
    // The admin's form drops Lund: its comment keeps its text and is listed as another place.
    await callerFor(t.deps, admin).business.update({
      id: other.id,
      title: 'Bokhandel',
      category: 'Böcker',
      description: 'Böcker.',
      branches: [{ id: other.malmo, location: 'Malmö' }],
    });
    const after = await callerFor(t.deps, null).business.byId({ id: other.id });
    expect(after.places).toEqual([{ name: 'Lund', commentCount: 1 }]);
    expect((await callerFor(t.deps, null).comments.byBusiness({ businessId: other.id, place: 'lund' })).items.map((c) => c.text)).toEqual(['I Lund']);
  });

  it('the OpenAPI document has ?place= and the places', async () => {
    const doc = (await t.app.inject('/api/docs')).json();
    const list = doc.paths['/api/comment/{id}'].get;
    expect(list.parameters.some((p: { name: string; in: string }) => p.name === 'place' && p.in === 'query')).toBe(true);
    const business = doc.paths['/api/business/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(business.properties.places.items.properties)).toEqual(['name', 'commentCount']);
    expect(Object.keys(business.properties.branches.items.properties)).toContain('commentCount');
  });
});

describe('a business page lists at most OTHER_PLACES_MAX other places', () => {
  it('keeps the most written about, so many one-off spellings cannot grow every reply', async () => {
    const shop = await newShop();
    const now = Date.now();
    const rows = Array.from({ length: OTHER_PLACES_MAX + 5 }, (_, i) => ({
      id: newId(),
      businessId: shop.id,
      userId: users[i % users.length].id,
      businessLocation: `Ort ${i}`,
      placeKey: `ort ${i}`,
      text: `Besök ${i}`,
      createdAt: now + i,
      updatedAt: now + i,
    }));
    t.db.insert(comments).values(rows).run();
    await post(users[0], shop.id, 'Ort 7', 'Igen i Ort 7');
    const places = otherPlacesOf(t.db, shop.id);
    expect(places).toHaveLength(OTHER_PLACES_MAX);
    expect(places[0]).toEqual({ name: 'Ort 7', commentCount: 2 });
    const page = await callerFor(t.deps, null).business.byId({ id: shop.id });
    expect(page.places).toHaveLength(OTHER_PLACES_MAX);
  });
});

describe('migration 0026 on a database from before it', () => {
  it('gives existing comments at another place their key, and clears stars that do not count', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'recensera-places-upgrade-'));
    try {
      const folder = path.join(root, 'upto-0025');
      cpSync(migrationsFolder, folder, { recursive: true });
      const journalFile = path.join(folder, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0026');
      writeFileSync(journalFile, JSON.stringify(journal));
      const db = openDb(path.join(root, 'recensera.sqlite'));
      migrateDb(db, folder);
      const sqlite = db.$client;
      const now = Date.now();
      const user = sqlite.prepare('INSERT INTO users (id, email, first_name, last_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
      user.run('u1', 'u1@example.se', 'Greta', 'Gammal', now, now);
      user.run('u2', 'u2@example.se', 'Hugo', 'Håll', now, now);
      const shop = insertBusiness(db, 'Bageri');
      sqlite.prepare("INSERT INTO branches (id, business_id, location, position, town) VALUES ('br1', ?, 'Lund', 0, 'Lund')").run(shop);
      const rating = sqlite.prepare('INSERT INTO business_ratings (business_id, user_id, rate, created_at, updated_at, counted) VALUES (?, ?, ?, ?, ?, ?)');
      rating.run(shop, 'u1', 4, now, now, 1);
      rating.run(shop, 'u2', 5, now, now, 0);
      const comment = sqlite.prepare(
        'INSERT INTO comments (id, business_id, user_id, business_location, branch_id, author_rate, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      comment.run('c1', shop, 'u1', 'Lund', 'br1', 4, 'Vid filialen', now, now);
      comment.run('c2', shop, 'u1', 'Umeå ', null, 4, 'Annan plats', now + 1, now);
      comment.run('c3', shop, 'u2', 'UMEÅ', null, 5, 'Hållen', now + 2, now);
      migrateDb(db);
      expect(sqlite.prepare('SELECT id, place_key, author_rate FROM comments ORDER BY id').all()).toEqual([
        { id: 'c1', place_key: null, author_rate: 4 },
        { id: 'c2', place_key: 'umeå', author_rate: 4 },
        { id: 'c3', place_key: 'umeå', author_rate: null },
      ]);
      closeDb(db);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
