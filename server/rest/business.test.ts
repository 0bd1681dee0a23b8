import { readdirSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branches, businessRatings, businesses, favorites, images, users } from '../../db/schema';
import { newId } from '../lib/ids';
import type { BusinessCreateInput } from '../../shared/schemas/business';
import { getBusiness, titleSearchOf } from '../services/business/business';
import { createBusiness } from '../services/business/business-admin';
import { resolveCategory } from '../services/business/categories';
import { setFavorite } from '../services/business/favorites';
import { bearer, callerFor, createCast, createTestApp, type TestContext, type TestUser } from '../test/helpers';

type FilePart = { data: Buffer; filename: string; type: string };
type Who = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
const everyone: Who[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
const allOk = (status: number) => Object.fromEntries(everyone.map((w) => [w, status]));
const adminOnly = (status: number) => ({ visitor: 401, owner: 403, other: 403, banned: 403, admin: status });

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
});
afterAll(() => t.close());

const userOf = (who: Who): TestUser | null => (who === 'visitor' ? null : cast[who]);
const authOf = (who: Who) => {
  const user = userOf(who);
  return user ? bearer(user) : {};
};

async function multipart(parts: Record<string, string | FilePart>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.data)], { type: value.type }), value.filename);
  }
  const request = new Request('http://localhost/api/business/upload', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

async function sendForm(method: 'POST' | 'PUT', url: string, parts: Record<string, string | FilePart>, who: Who) {
  const { payload, contentType } = await multipart(parts);
  return t.app.inject({ method, url, payload, headers: { 'content-type': contentType, ...authOf(who) } });
}

const pngPart = async (background: string, filename = 'a.png'): Promise<FilePart> => ({
  data: await sharp({ create: { width: 80, height: 60, channels: 3, background } })
    .png()
    .toBuffer(),
  filename,
  type: 'image/png',
});

const formFields = (title: string) => ({
  title,
  category: 'Järnhandel',
  description: 'Verktyg, färg och allt för hemmet.\nÖppet alla dagar.',
  rate: '4',
  'branches[0][location]': 'Västerås',
  'branches[0][address]': 'Stora Torget 3',
  'branches[1][location]': 'Umeå',
});

let seq = 0;
const addBusiness = (overrides: Partial<BusinessCreateInput> = {}) => {
  seq += 1;
  return createBusiness(t.deps, cast.admin.actor, {
    title: `Affär ${seq}`,
    category: 'Kläder',
    description: 'Kläder för hela familjen.',
    branches: [{ location: 'Göteborg', address: 'Avenyn 1' }],
    ...overrides,
  });
};

const uploadsNow = () => readdirSync(t.deps.paths.uploads).filter((f) => !f.startsWith('.'));
const settle = () => new Promise((r) => setTimeout(r, 20));

async function statuses(run: (who: Who) => Promise<{ statusCode: number }>) {
  const result: Record<string, number> = {};
  for (const who of everyone) result[who] = (await run(who)).statusCode;
  return result;
}

describe('GET /api/business', () => {
  let ahlens: string;
  let box: string;

  beforeAll(async () => {
    ahlens = (await addBusiness({ title: 'ÅHLÉNS', branches: [{ location: 'Malmö' }] })).id;
    await addBusiness({ title: 'ICA Maxi' });
    box = newId();
    const now = Date.now();
    t.db
      .insert(businesses)
      .values({
        id: box,
        title: 'Add New',
        titleSearch: titleSearchOf('Add New'),
        categoryId: resolveCategory(t.db, 'Förslag', undefined, now),
        description: 'Föreslå en butik.',
        isSuggestionBox: true,
        createdAt: now,
        updatedAt: now,
      })
      .run();
  });

  it('answers everyone with the documented shape, the suggestion box first', async () => {
    expect(await statuses((who) => t.app.inject({ url: '/api/business', headers: authOf(who) }))).toEqual(allOk(200));
    const list = (await t.app.inject({ url: '/api/business' })).json();
    expect(list[0]).toMatchObject({ _id: box, title: 'Add New', isSuggestionBox: true });
    expect(list.find((b: { _id: string }) => b._id === ahlens)).toEqual({
      _id: ahlens,
      title: 'ÅHLÉNS',
      category: 'Kläder',
      categoryEn: 'Clothing',
      description: 'Kläder för hela familjen.',
      descriptionEn: null,
      website: null,
      phone: null,
      rate: null,
      ratingCount: 0,
      image: null,
      icon: null,
      branches: [
        {
          _id: expect.any(String),
          location: 'Malmö',
          address: null,
          town: 'Malmö',
          area: null,
          postalCode: null,
          lat: null,
          lng: null,
          phone: null,
          openingHours: null,
        },
      ],
      isFavorite: {},
      isSuggestionBox: false,
    });
  });

  it("shows only the caller's own favourite entry", async () => {
    await setFavorite(t.deps, cast.owner.actor, { businessId: ahlens, favorite: true });
    await setFavorite(t.deps, cast.other.actor, { businessId: ahlens, favorite: true });
    const find = async (who: Who) =>
      (await t.app.inject({ url: '/api/business', headers: authOf(who) })).json().find((b: { _id: string }) => b._id === ahlens).isFavorite;
    expect(await find('owner')).toEqual({ [cast.owner.id]: true });
    expect(await find('other')).toEqual({ [cast.other.id]: true });
    expect(await find('admin')).toEqual({});
    expect(await find('visitor')).toEqual({});
  });

  it('searches titles ignoring case, Swedish letters included', async () => {
    const search = async (q: string) =>
      (await t.app.inject({ url: `/api/business?search=${encodeURIComponent(q)}` })).json().map((b: { title: string }) => b.title);
    expect(await search('åhléns')).toEqual(['ÅHLÉNS']);
    expect(await search('ica')).toEqual(['ICA Maxi']);
    expect(await search('ingen sådan butik')).toEqual([]);
    expect((await t.app.inject({ url: `/api/business?search=${'x'.repeat(101)}` })).statusCode).toBe(400);
  });
});

describe('GET /api/business/:id', () => {
  it('answers everyone, and 404 with a message for an unknown id', async () => {
    const b = await addBusiness();
    expect(await statuses((who) => t.app.inject({ url: `/api/business/${b.id}`, headers: authOf(who) }))).toEqual(allOk(200));
    const missing = await t.app.inject({ url: '/api/business/does-not-exist' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Business not found.' });
  });
});

describe('POST /api/business/upload', () => {
  it('creates a business with image, icon and branches for an admin only (201), storing no file for anyone else', async () => {
    const before = uploadsNow();
    for (const who of ['visitor', 'owner', 'other', 'banned'] as const) {
      const res = await sendForm('POST', '/api/business/upload', { ...formFields(`Nekad ${who}`), image: await pngPart('#884400') }, who);
      expect(res.statusCode, who).toBe(who === 'visitor' ? 401 : 403);
    }
    expect(uploadsNow()).toEqual(before);
    expect(t.db.select({ n: count() }).from(businesses).where(eq(businesses.title, 'Nekad owner')).get()?.n).toBe(0);

    const res = await sendForm(
      'POST',
      '/api/business/upload',
      { ...formFields('Byggmax'), image: await pngPart('#336699', 'store.png'), icon: await pngPart('#993366', 'icon.png') },
      'admin',
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Byggmax',
      category: 'Järnhandel',
      categoryEn: 'Hardware',
      description: 'Verktyg, färg och allt för hemmet.\nÖppet alla dagar.',
      descriptionEn: null,
      // The admin's rate is the admin's own rating: one rating, counted.
      rate: 4,
      ratingCount: 1,
      isFavorite: {},
      isSuggestionBox: false,
      branches: [
        { location: 'Västerås', address: 'Stora Torget 3' },
        { location: 'Umeå', address: null },
      ],
    });
    expect(body.image).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    expect(body.icon).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    expect((await t.app.inject({ url: body.image })).statusCode).toBe(200);
    const stored = t.db
      .select({ kind: images.kind })
      .from(images)
      .innerJoin(businesses, eq(businesses.iconId, images.id))
      .where(eq(businesses.id, body._id))
      .get();
    expect(stored?.kind).toBe('icon');
    expect(t.db.select().from(businessRatings).where(eq(businessRatings.businessId, body._id)).all()).toMatchObject([{ userId: cast.admin.id, rate: 4 }]);
  });

  it('adds a business without a rate with no rating at all (rate null, count 0), and takes English texts', async () => {
    const { rate: _omitted, ...fields } = formFields('Utan betyg');
    const res = await sendForm(
      'POST',
      '/api/business/upload',
      { ...fields, category: 'Brädspel', categoryEn: 'Board games', descriptionEn: 'Tools and paint.' },
      'admin',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ rate: null, ratingCount: 0, category: 'Brädspel', categoryEn: 'Board games', descriptionEn: 'Tools and paint.' });
    expect(t.db.select({ n: count() }).from(businessRatings).where(eq(businessRatings.businessId, res.json()._id)).get()?.n).toBe(0);
    const fetched = (await t.app.inject({ url: `/api/business/${res.json()._id}` })).json();
    expect(fetched).toMatchObject({ rate: null, ratingCount: 0 });
    // The new category joined the list, both names.
    const list = (await t.app.inject({ url: '/api/business/categories' })).json();
    expect(list).toContainEqual({ _id: expect.any(String), nameSv: 'Brädspel', nameEn: 'Board games' });
    expect(list).toContainEqual({ _id: expect.any(String), nameSv: 'Livsmedel', nameEn: 'Groceries' });
    // A category named in English picks the list's entry.
    const english = await sendForm('POST', '/api/business/upload', { ...fields, title: 'Engelsk kategori', category: 'groceries' }, 'admin');
    expect(english.json()).toMatchObject({ category: 'Livsmedel', categoryEn: 'Groceries' });
    expect((await t.app.inject({ url: '/api/business/categories' })).json().filter((c: { nameSv: string }) => c.nameSv === 'Livsmedel')).toHaveLength(1);
  });

  it('refuses a rate in fractions of a star (400), writing nothing', async () => {
    const res = await sendForm('POST', '/api/business/upload', { ...formFields('Halvt betyg'), rate: '3.5' }, 'admin');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ rate: 'Rate must be a whole number of stars.' });
    expect(t.db.select({ n: count() }).from(businesses).where(eq(businesses.title, 'Halvt betyg')).get()?.n).toBe(0);
  });

  it('answers 400 with the documented messages per field', async () => {
    const res = await sendForm(
      'POST',
      '/api/business/upload',
      {
        title: 'B',
        category: 'x'.repeat(51),
        description: '',
        rate: '0',
        'branches[0][location]': 'y'.repeat(101),
        'branches[0][address]': 'Q',
      },
      'admin',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      title: 'Name Too Short!',
      category: 'Category Too Long!',
      description: '*Required',
      rate: 'Rate Too Low!',
      'branches.0.location': 'Location Too Long!',
      'branches.0.address': 'Address Too Short!',
    });
    const noBranch = await sendForm('POST', '/api/business/upload', { title: 'Utan filial', category: 'Café', description: 'Kaffe.', rate: '6' }, 'admin');
    expect(noBranch.statusCode).toBe(400);
    expect(noBranch.json().errors).toEqual({ rate: 'Rate Too High!', branches: 'Add at least one branch.' });
  });

  it('answers 415 to a body that is not multipart and to a file that is not an image, writing nothing', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/business/upload', payload: { title: 'JSON' }, headers: bearer(cast.admin) });
    expect(json.statusCode).toBe(415);
    const before = uploadsNow();
    const res = await sendForm(
      'POST',
      '/api/business/upload',
      { ...formFields('Fel fil'), image: { data: Buffer.from('not a picture at all'.repeat(10)), filename: 'x.jpg', type: 'image/jpeg' } },
      'admin',
    );
    expect(res.statusCode).toBe(415);
    expect(t.db.select({ n: count() }).from(businesses).where(eq(businesses.title, 'Fel fil')).get()?.n).toBe(0);
    expect(uploadsNow()).toEqual(before);
  });
});

describe('PUT /api/business/:id', () => {
  it('lets only admins edit; keeps empty fields; replaces branches and the image, deleting the old file', async () => {
    const created = await sendForm('POST', '/api/business/upload', { ...formFields('Redigeras'), image: await pngPart('#111111') }, 'admin');
    const { _id: id, image: oldImage } = created.json();
    const update = async (who: Who, extra: Record<string, string | FilePart> = {}) =>
      sendForm(
        'PUT',
        `/api/business/${id}`,
        { title: '', category: '', rate: '', description: `Ändrad av ${who}`, 'branches[0][location]': 'Lund', ...extra },
        who,
      );

    expect(await statuses((who) => update(who))).toEqual(adminOnly(200));
    const res = await update('admin', { image: await pngPart('#eeeeee') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: id,
      title: 'Redigeras',
      category: 'Järnhandel',
      rate: 4,
      description: 'Ändrad av admin',
      branches: [{ location: 'Lund', address: null }],
    });
    expect(res.json().image).not.toBe(oldImage);
    await settle();
    expect(uploadsNow()).not.toContain(oldImage.replace('/uploads/', ''));
    expect(t.db.select({ n: count() }).from(branches).where(eq(branches.businessId, id)).get()?.n).toBe(1);

    const missing = await sendForm('PUT', '/api/business/nope', { description: 'Finns inte', 'branches[0][location]': 'Lund' }, 'admin');
    expect(missing.statusCode).toBe(404);
    const invalid = await sendForm('PUT', `/api/business/${id}`, { title: 'X', description: 'Ok text', 'branches[0][location]': 'Lund' }, 'admin');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ title: 'Name Too Short!' });
  });
});

describe('DELETE /api/business/delete/:id', () => {
  it('lets only admins delete, with the documented message; the suggestion box stays (409)', async () => {
    const targets: Record<string, string> = {};
    for (const who of everyone) targets[who] = (await addBusiness()).id;
    expect(await statuses((who) => t.app.inject({ method: 'DELETE', url: `/api/business/delete/${targets[who]}`, headers: authOf(who) }))).toEqual(
      adminOnly(200),
    );
    expect(() => getBusiness(t.deps, null, targets.admin)).toThrowError();
    expect(getBusiness(t.deps, null, targets.owner).id).toBe(targets.owner);

    const again = await t.app.inject({ method: 'DELETE', url: `/api/business/delete/${targets.owner}`, headers: bearer(cast.admin) });
    expect(again.json()).toEqual({ message: 'Business removed successfully!' });
    const missing = await t.app.inject({ method: 'DELETE', url: `/api/business/delete/${targets.owner}`, headers: bearer(cast.admin) });
    expect(missing.statusCode).toBe(404);

    const box = t.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).get()!.id;
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/business/delete/${box}`, headers: bearer(cast.admin) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'The suggestion box cannot be deleted.' });
  });
});

describe('POST /api/business/addRate/:id', () => {
  it('lets active users rate and returns the new average and count', async () => {
    const b = await addBusiness({ rate: 1 });
    const rate = (who: Who, value: unknown, id = b.id) =>
      t.app.inject({ method: 'POST', url: `/api/business/addRate/${id}`, payload: { rate: value }, headers: authOf(who) });
    expect(await statuses((who) => rate(who, 4))).toEqual({ visitor: 401, owner: 200, other: 200, banned: 403, admin: 200 });
    const again = await rate('owner', 1);
    expect(again.json()).toEqual({ rate: 3, ratingCount: 3 });
    expect((await rate('visitor', 4)).json()).toMatchObject({ message: 'Please log in to submit a rate' });
    expect((await rate('owner', 0)).statusCode).toBe(400);
    expect((await rate('owner', 6)).json()).toMatchObject({ errors: { rate: 'Rate Too High!' } });
    expect((await rate('owner', 'five')).statusCode).toBe(400);
    expect((await rate('owner', 3, 'nope')).statusCode).toBe(404);
    expect(getBusiness(t.deps, null, b.id)).toMatchObject({ rate: 3, ratingCount: 3 });
  });
});

describe('favourites under /api/users', () => {
  it('GET /users/:id/favoriteBusinesses: the user themself or an admin', async () => {
    const b = await addBusiness();
    await setFavorite(t.deps, cast.owner.actor, { businessId: b.id, favorite: true });
    const url = `/api/users/${cast.owner.id}/favoriteBusinesses`;
    expect(await statuses((who) => t.app.inject({ url, headers: authOf(who) }))).toEqual({ visitor: 401, owner: 200, other: 403, banned: 403, admin: 200 });
    const list = (await t.app.inject({ url, headers: bearer(cast.owner) })).json();
    expect(list[0]).toMatchObject({ _id: b.id, isFavorite: { [cast.owner.id]: true } });
    expect((await t.app.inject({ url: '/api/users/nobody/favoriteBusinesses', headers: bearer(cast.admin) })).statusCode).toBe(404);
  });

  it('answers 409 to rating or favouriting the suggestion box', async () => {
    const box = t.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).get()!.id;
    const rate = await t.app.inject({ method: 'POST', url: `/api/business/addRate/${box}`, payload: { rate: 4 }, headers: bearer(cast.owner) });
    expect(rate.statusCode).toBe(409);
    expect(rate.json().message).toBe('The suggestion box takes suggestions, not ratings.');
    const favourite = await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${cast.owner.id}/${box}`, headers: bearer(cast.owner) });
    expect(favourite.statusCode).toBe(409);
    expect((await t.app.inject({ url: `/api/business/${box}` })).json()).toMatchObject({ rate: null, ratingCount: 0, isFavorite: {} });
  });

  it('POST addFavorite and DELETE removeFavorite: only for oneself, answering with the updated list', async () => {
    const b = await addBusiness();
    const add = (who: Who, userId: string) =>
      t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${userId}/${b.id}`, payload: { userId, businessId: b.id }, headers: authOf(who) });
    const remove = (who: Who, userId: string) => t.app.inject({ method: 'DELETE', url: `/api/users/removeFavorite/${userId}/${b.id}`, headers: authOf(who) });
    const own = (who: Who) => userOf(who)?.id ?? cast.owner.id;
    const countOf = (user: TestUser) => t.db.select({ n: users.favoritesCount }).from(users).where(eq(users.id, user.id)).get()?.n;
    const ownerBefore = countOf(cast.owner);

    expect(await statuses((who) => add(who, own(who)))).toEqual({ visitor: 401, owner: 200, other: 200, banned: 403, admin: 200 });
    expect((await add('other', cast.owner.id)).statusCode).toBe(403);
    expect((await add('admin', cast.owner.id)).statusCode).toBe(403);
    expect((await add('visitor', cast.owner.id)).json()).toMatchObject({ message: 'Please log in to toggle favorite status' });
    expect(countOf(cast.owner)).toBe((ownerBefore ?? 0) + 1);
    const listed = (await add('owner', cast.owner.id)).json();
    expect(listed.filter((x: { _id: string }) => x._id === b.id)).toHaveLength(1);
    expect(countOf(cast.owner)).toBe((ownerBefore ?? 0) + 1);
    // The user object carries the ids, as the description's legacy client reads them (both doors).
    const favoriteIds = listed.map((x: { _id: string }) => x._id).sort();
    const me = (await t.app.inject({ url: `/api/users/${cast.owner.id}`, headers: bearer(cast.owner) })).json();
    expect([...me.favoriteBusinesses].sort()).toEqual(favoriteIds);
    expect((await t.app.inject({ url: '/api/users/auth/check', headers: bearer(cast.owner) })).json().user.favoriteBusinesses).toContain(b.id);
    expect((await callerFor(t.deps, cast.owner).users.me())?.favoriteBusinesses).toContain(b.id);

    expect((await remove('other', cast.owner.id)).statusCode).toBe(403);
    expect((await remove('admin', cast.owner.id)).statusCode).toBe(403);
    expect(await statuses((who) => remove(who, own(who)))).toEqual({ visitor: 401, owner: 200, other: 200, banned: 403, admin: 200 });
    expect(countOf(cast.owner)).toBe(ownerBefore);
    const after = (await remove('owner', cast.owner.id)).json();
    expect(after.some((x: { _id: string }) => x._id === b.id)).toBe(false);
    expect((await t.app.inject({ url: `/api/users/${cast.owner.id}`, headers: bearer(cast.owner) })).json().favoriteBusinesses).not.toContain(b.id);
    expect(t.db.select({ n: count() }).from(favorites).where(eq(favorites.businessId, b.id)).get()?.n).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${cast.owner.id}/nope`, headers: bearer(cast.owner) })).statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents every business and favourites route', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/business',
        '/api/business/{id}',
        '/api/business/upload',
        '/api/business/delete/{id}',
        '/api/business/addRate/{id}',
        '/api/users/{id}/favoriteBusinesses',
        '/api/users/addFavorite/{userId}/{businessId}',
        '/api/users/removeFavorite/{userId}/{businessId}',
      ]),
    );
  });
});
