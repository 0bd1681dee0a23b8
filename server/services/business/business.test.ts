import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { count, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { branches, businessRatings, businesses, commentRatings, comments, favorites, images, replies, replyRatings, users } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { businessCreateSchema, type BusinessCreateInput } from '../../../shared/schemas/business';
import { callerFor, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { applyBusinessRating, rateBusiness } from './business-ratings';
import { getBusiness, titleSearchOf } from './business';
import { createBusiness, deleteBusiness, updateBusiness } from './business-admin';
import { listBusinesses, listDirectory } from './directory';
import { indexQueuedComments, searchKeyOf } from '../comments/comment-search';
import { FAVORITES_MAX, listFavoriteBusinesses, setFavorite } from './favorites';
import { insertBusiness } from '../../test/comment-fixtures';
import { resolveCategory } from './categories';
import { imageFilesSettled, storeImage } from '../comments/images';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
});
afterAll(() => t.close());
// The admin of the cast writes more than a minute's worth of the per-user limits in this file.
beforeEach(() => t.deps.limits.reset());

let seq = 0;
function input(overrides: Partial<BusinessCreateInput> = {}): BusinessCreateInput {
  seq += 1;
  return {
    title: `Butik ${seq}`,
    category: 'Livsmedel',
    description: 'En vanlig butik i centrum med ett brett sortiment.',
    branches: [{ location: 'Malmö', address: 'Storgatan 1' }],
    ...overrides,
  };
}

const addBusiness = (overrides: Partial<BusinessCreateInput> = {}) => createBusiness(t.deps, cast.admin.actor, input(overrides));

function suggestionBox(): string {
  const id = newId();
  const now = Date.now();
  t.db
    .insert(businesses)
    .values({
      id,
      title: 'Add New',
      titleSearch: titleSearchOf('Add New'),
      categoryId: resolveCategory(t.db, 'Förslag', undefined, now),
      description: 'Saknar du en butik? Föreslå den här.',
      isSuggestionBox: true,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return id;
}

const png = (background: string) =>
  sharp({ create: { width: 60, height: 40, channels: 3, background } })
    .png()
    .toBuffer();
const uploadsNow = () => readdirSync(t.deps.paths.uploads).filter((f) => !f.startsWith('.'));
const favoritesCountOf = (user: TestUser) => t.db.select({ n: users.favoritesCount }).from(users).where(eq(users.id, user.id)).get()?.n;

describe('title search', () => {
  it('stores the title lower-cased by Swedish rules', () => {
    expect(titleSearchOf('ÅHLÉNS')).toBe('åhléns');
    expect(titleSearchOf('ICA Maxi')).toBe('ica maxi');
    // A decomposed "Å" (A + combining ring) is stored composed, like a typed one.
    expect(titleSearchOf('A\u030AHLÉNS')).toBe('åhléns');
  });

  it("finds 'ÅHLÉNS' by 'åhléns' and 'ICA Maxi' by 'ica', in the directory and the REST list", async () => {
    const ahlens = await addBusiness({ title: 'ÅHLÉNS' });
    const ica = await addBusiness({ title: 'ICA Maxi' });
    await addBusiness({ title: 'Clas Ohlson' });

    expect(listDirectory(t.deps, null, { search: 'åhléns' }).map((b) => b.id)).toEqual([ahlens.id]);
    expect(listDirectory(t.deps, null, { search: 'ÅhLéNs' }).map((b) => b.id)).toEqual([ahlens.id]);
    expect(listDirectory(t.deps, null, { search: 'ica' }).map((b) => b.id)).toEqual([ica.id]);
    expect(listDirectory(t.deps, null, { search: '  ica ' }).map((b) => b.id)).toEqual([ica.id]);
    expect(listBusinesses(t.deps, null, { search: 'åhl' }).map((b) => b.id)).toEqual([ahlens.id]);
    expect(listDirectory(t.deps, null, { search: 'ohl' }).map((b) => b.title)).toEqual(['Clas Ohlson']);
  });

  it('gives an empty list when nothing matches, and treats LIKE wildcards as plain text', async () => {
    await addBusiness({ title: '100% Kaffe' });
    expect(listDirectory(t.deps, null, { search: 'finns inte' })).toEqual([]);
    expect(listDirectory(t.deps, null, { search: '%' }).map((b) => b.title)).toEqual(['100% Kaffe']);
    expect(listDirectory(t.deps, null, { search: '_' })).toEqual([]);
    expect(listDirectory(t.deps, null, { search: "'; drop table businesses; --" })).toEqual([]);
    expect(t.db.select({ n: count() }).from(businesses).get()?.n).toBeGreaterThan(0);
  });

  it('follows a renamed title', async () => {
    const b = await addBusiness({ title: 'Gamla Namnet' });
    await updateBusiness(t.deps, cast.admin.actor, b.id, { title: 'Östra Hallen', description: b.description, branches: [{ location: 'Umeå' }] });
    expect(listDirectory(t.deps, null, { search: 'gamla' })).toEqual([]);
    expect(listDirectory(t.deps, null, { search: 'östra' }).map((r) => r.id)).toEqual([b.id]);
  });
});

describe('listing', () => {
  it('puts the suggestion box first and the rest in Swedish alphabetical order', async () => {
    const box = suggestionBox();
    const list = listDirectory(t.deps, null);
    expect(list[0].id).toBe(box);
    expect(list[0].isSuggestionBox).toBe(true);
    const titles = list.slice(1).map((b) => b.title);
    expect([...titles].sort(new Intl.Collator('sv').compare)).toEqual(titles);
    expect(titles.indexOf('ÅHLÉNS')).toBeLessThan(titles.indexOf('Östra Hallen'));
    expect(titles.indexOf('Clas Ohlson')).toBeLessThan(titles.indexOf('ÅHLÉNS'));
    expect(listBusinesses(t.deps, null)[0].id).toBe(box);
    const newest = await addBusiness({ title: 'Aaa Nyast' });
    expect(
      listBusinesses(t.deps, null, { sort: 'newest' })
        .map((b) => b.id)
        .slice(0, 2),
    ).toEqual([box, newest.id]);
  });

  it('keeps Swedish order for a title added after a list was sorted', async () => {
    listDirectory(t.deps, null);
    const added = await addBusiness({ title: 'Äppelgården' });
    const titles = listDirectory(t.deps, null)
      .slice(1)
      .map((b) => b.title);
    expect(titles.indexOf('ÅHLÉNS')).toBeLessThan(titles.indexOf(added.title));
    expect(titles.indexOf(added.title)).toBeLessThan(titles.indexOf('Östra Hallen'));
    expect(
      listBusinesses(t.deps, null)
        .slice(1)
        .map((b) => b.title),
    ).toEqual(titles);
  });

  it('sends only the first 180 characters of a description to a card, and says when it goes on', async () => {
    const long = await addBusiness({ title: 'Lång Text', description: 'Åtta ord som tillsammans blir längre än trettio tecken. '.repeat(4) });
    const short = await addBusiness({ title: 'Kort Text', description: 'Kort.' });
    const cards = listDirectory(t.deps, null);
    const longCard = cards.find((c) => c.id === long.id)!;
    expect(longCard.excerpt).toBe('Åtta ord som tillsammans blir längre än trettio tecken. '.repeat(4).slice(0, 180));
    expect([...longCard.excerpt]).toHaveLength(180);
    expect(longCard.excerptCut).toBe(true);
    expect(cards.find((c) => c.id === short.id)).toMatchObject({ excerpt: 'Kort.', excerptCut: false });
  });

  it("marks only the acting user's own favourites", async () => {
    const b = await addBusiness();
    await setFavorite(t.deps, cast.owner.actor, { businessId: b.id, favorite: true });
    expect(listDirectory(t.deps, cast.owner.actor).find((c) => c.id === b.id)?.isFavorite).toBe(true);
    expect(listDirectory(t.deps, cast.other.actor).find((c) => c.id === b.id)?.isFavorite).toBe(false);
    expect(listDirectory(t.deps, null).find((c) => c.id === b.id)?.isFavorite).toBe(false);
    expect(getBusiness(t.deps, cast.owner.actor, b.id).isFavorite).toBe(true);
    expect(listBusinesses(t.deps, cast.other.actor).find((c) => c.id === b.id)?.isFavorite).toBe(false);
    await setFavorite(t.deps, cast.owner.actor, { businessId: b.id, favorite: false });
  });

  it('shows a new star rating and a new favourite on the next directory list', async () => {
    const b = await addBusiness({ title: 'Snabbt Svar' });
    const before = listDirectory(t.deps, cast.owner.actor).find((c) => c.id === b.id)!;
    expect(before).toMatchObject({ ratingCount: 0, isFavorite: false });
    await rateBusiness(t.deps, cast.other.actor, b.id, 4);
    await setFavorite(t.deps, cast.owner.actor, { businessId: b.id, favorite: true });
    expect(listDirectory(t.deps, cast.owner.actor).find((c) => c.id === b.id)).toMatchObject({ ratingCount: 1, rate: 4, isFavorite: true });
    expect(listDirectory(t.deps, null, { search: 'snabbt' })).toMatchObject([{ id: b.id, ratingCount: 1, isFavorite: false }]);
    await setFavorite(t.deps, cast.owner.actor, { businessId: b.id, favorite: false });
  });

  it('returns branches in the order entered, with a missing address as null', async () => {
    const b = await addBusiness({
      branches: [{ location: 'Västerås', address: 'Kopparbergsvägen 2' }, { location: 'Göteborg', address: '' }, { location: 'Umeå' }],
    });
    expect(getBusiness(t.deps, null, b.id).branches.map(({ location, address }) => ({ location, address }))).toEqual([
      { location: 'Västerås', address: 'Kopparbergsvägen 2' },
      { location: 'Göteborg', address: null },
      { location: 'Umeå', address: null },
    ]);
  });

  it('answers NOT_FOUND for an unknown id', () => {
    expect(() => getBusiness(t.deps, null, 'nope')).toThrowError(expect.objectContaining({ code: 'NOT_FOUND', key: 'businessNotFound' }));
  });
});

describe('star ratings', () => {
  it('has no rate (null) and count 0 until someone rates', async () => {
    const b = await addBusiness();
    expect(b).toMatchObject({ rate: null, ratingCount: 0, myRate: null });
    expect(getBusiness(t.deps, null, b.id)).toMatchObject({ rate: null, ratingCount: 0, myRate: null });
    expect(listDirectory(t.deps, null).find((c) => c.id === b.id)).toMatchObject({ rate: null, ratingCount: 0 });
    expect(t.db.select({ n: count() }).from(businessRatings).where(eq(businessRatings.businessId, b.id)).get()?.n).toBe(0);
  });

  it("makes the adding admin's rate that admin's own rating, counted and averaged like anyone's", async () => {
    const b = await addBusiness({ rate: 3 });
    expect(b).toMatchObject({ rate: 3, ratingCount: 1, myRate: 3 });
    expect(t.db.select().from(businessRatings).where(eq(businessRatings.businessId, b.id)).all()).toMatchObject([{ userId: cast.admin.id, rate: 3 }]);
    expect(getBusiness(t.deps, null, b.id)).toMatchObject({ rate: 3, ratingCount: 1, myRate: null });
    expect(await rateBusiness(t.deps, cast.owner.actor, b.id, 5)).toEqual({ rate: 4, ratingCount: 2, myRate: 5 });
    // The admin's rate in the edit form replaces the admin's own rating, not anyone else's.
    const edited = await updateBusiness(t.deps, cast.admin.actor, b.id, { description: b.description, branches: [{ location: 'Malmö' }], rate: 1 });
    expect(edited).toMatchObject({ rate: 3, ratingCount: 2, myRate: 1 });
    // Another admin's rate in the form is one more rating.
    const second = await createTestUser(t.db, { isAdmin: true });
    expect(await updateBusiness(t.deps, second.actor, b.id, { description: b.description, branches: [{ location: 'Malmö' }], rate: 3 })).toMatchObject({
      rate: 3,
      ratingCount: 3,
      myRate: 3,
    });
    // Leaving the rate empty keeps every rating.
    expect(await updateBusiness(t.deps, cast.admin.actor, b.id, { description: b.description, branches: [{ location: 'Malmö' }] })).toMatchObject({
      rate: 3,
      ratingCount: 3,
      myRate: 1,
    });
  });

  it('refuses a rate that is not whole stars from 1 to 5, writing nothing', async () => {
    for (const [rate, key] of [
      [3.5, 'rateNotWhole'],
      [0, 'rateTooLow'],
      [6, 'rateTooHigh'],
    ] as const) {
      const parsed = businessCreateSchema.safeParse(input({ rate }));
      expect(parsed.success, String(rate)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([key]);
    }
  });

  it('counts a first rating, replaces a re-rating, and averages several users', async () => {
    const b = await addBusiness();
    expect(await rateBusiness(t.deps, cast.owner.actor, b.id, 5)).toEqual({ rate: 5, ratingCount: 1, myRate: 5 });
    expect(await rateBusiness(t.deps, cast.owner.actor, b.id, 2)).toEqual({ rate: 2, ratingCount: 1, myRate: 2 });
    expect(await rateBusiness(t.deps, cast.other.actor, b.id, 5)).toEqual({ rate: 3.5, ratingCount: 2, myRate: 5 });
    expect(await rateBusiness(t.deps, cast.admin.actor, b.id, 4)).toEqual({ rate: 11 / 3, ratingCount: 3, myRate: 4 });

    const row = t.db.select().from(businesses).where(eq(businesses.id, b.id)).get()!;
    expect([row.ratingSum, row.ratingCount]).toEqual([11, 3]);
    expect(t.db.select({ n: count() }).from(businessRatings).where(eq(businessRatings.businessId, b.id)).get()?.n).toBe(3);
    expect(getBusiness(t.deps, cast.owner.actor, b.id)).toMatchObject({ rate: 11 / 3, ratingCount: 3, myRate: 2 });
    expect(getBusiness(t.deps, null, b.id).myRate).toBeNull();
  });

  it("moves the sum and count inside the caller's transaction, so a rollback leaves both untouched", async () => {
    const b = await addBusiness();
    expect(() =>
      t.db.transaction(() => {
        expect(applyBusinessRating(t.db, b.id, cast.other.id, 5)).toEqual({ rate: 5, ratingCount: 1, myRate: 5 });
        throw new Error('the comment that carried the rating failed');
      }),
    ).toThrowError('the comment');
    expect(getBusiness(t.deps, null, b.id)).toMatchObject({ rate: null, ratingCount: 0 });
    expect(t.db.select({ n: count() }).from(businessRatings).where(eq(businessRatings.businessId, b.id)).get()?.n).toBe(0);
  });

  it('refuses visitors (with the documented message), banned users, and unknown businesses', async () => {
    const b = await addBusiness();
    await expect(rateBusiness(t.deps, null, b.id, 4)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'Please log in to submit a rate' });
    await expect(rateBusiness(t.deps, cast.banned.actor, b.id, 4)).rejects.toMatchObject({ code: 'FORBIDDEN', key: 'banned' });
    await expect(rateBusiness(t.deps, cast.owner.actor, 'nope', 4)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(getBusiness(t.deps, null, b.id).ratingCount).toBe(0);
  });
});

describe('favourites', () => {
  it('adds and removes once each, keeping users.favorites_count in step', async () => {
    const user = await createTestUser(t.db);
    const [a, b] = [await addBusiness(), await addBusiness()];
    expect(await setFavorite(t.deps, user.actor, { businessId: a.id, favorite: true })).toEqual({ businessId: a.id, isFavorite: true, favoritesCount: 1 });
    expect((await setFavorite(t.deps, user.actor, { userId: user.id, businessId: b.id, favorite: true })).favoritesCount).toBe(2);
    expect((await setFavorite(t.deps, user.actor, { businessId: b.id, favorite: true })).favoritesCount).toBe(2);
    expect(
      listFavoriteBusinesses(t.deps, user.actor, user.id)
        .map((f) => f.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect((await setFavorite(t.deps, user.actor, { businessId: a.id, favorite: false })).favoritesCount).toBe(1);
    expect((await setFavorite(t.deps, user.actor, { businessId: a.id, favorite: false })).favoritesCount).toBe(1);
    expect(favoritesCountOf(user)).toBe(1);
    expect(listFavoriteBusinesses(t.deps, user.actor, user.id).map((f) => f.id)).toEqual([b.id]);
  });

  it('keeps at most FAVORITES_MAX; one more is refused (REST too) and nothing of it is written', async () => {
    const user = await createTestUser(t.db);
    const kept = Array.from({ length: FAVORITES_MAX }, () => insertBusiness(t.db));
    // Set-up: the first FAVORITES_MAX straight into the table, with the count they make.
    t.db
      .insert(favorites)
      .values(kept.map((businessId) => ({ userId: user.id, businessId, createdAt: Date.now() })))
      .run();
    t.db.update(users).set({ favoritesCount: FAVORITES_MAX }).where(eq(users.id, user.id)).run();
    const one = insertBusiness(t.db);
    await expect(setFavorite(t.deps, user.actor, { businessId: one, favorite: true })).rejects.toThrowError(expect.objectContaining({ code: 'CONFLICT' }));
    const res = await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${user.id}/${one}`, headers: { authorization: `Bearer ${user.token}` } });
    expect(res.statusCode).toBe(409);
    expect(res.json().key).toBe('favoritesFull');
    expect(favoritesCountOf(user)).toBe(FAVORITES_MAX);
    expect(t.db.select({ n: count() }).from(favorites).where(eq(favorites.userId, user.id)).get()?.n).toBe(FAVORITES_MAX);
    // One already kept can be added again (nothing changes), and after removing one there is room.
    expect((await setFavorite(t.deps, user.actor, { businessId: kept[0], favorite: true })).favoritesCount).toBe(FAVORITES_MAX);
    await setFavorite(t.deps, user.actor, { businessId: kept[0], favorite: false });
    expect((await setFavorite(t.deps, user.actor, { businessId: one, favorite: true })).favoritesCount).toBe(FAVORITES_MAX);
  });

  it("never changes another user's favourites, not even for an admin", async () => {
    const b = await addBusiness();
    await expect(setFavorite(t.deps, cast.other.actor, { userId: cast.owner.id, businessId: b.id, favorite: true })).rejects.toThrowError(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    await expect(setFavorite(t.deps, cast.admin.actor, { userId: cast.owner.id, businessId: b.id, favorite: true })).rejects.toThrowError(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    await expect(setFavorite(t.deps, null, { businessId: b.id, favorite: true })).rejects.toThrowError(
      expect.objectContaining({ code: 'UNAUTHENTICATED', message: 'Please log in to toggle favorite status' }),
    );
    await expect(setFavorite(t.deps, cast.banned.actor, { businessId: b.id, favorite: true })).rejects.toThrowError(
      expect.objectContaining({ code: 'FORBIDDEN', key: 'banned' }),
    );
    await expect(setFavorite(t.deps, cast.owner.actor, { businessId: 'nope', favorite: true })).rejects.toThrowError(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(t.db.select({ n: count() }).from(favorites).where(eq(favorites.businessId, b.id)).get()?.n).toBe(0);
  });

  it('shows a list only to its owner or an admin', async () => {
    const user = await createTestUser(t.db);
    expect(listFavoriteBusinesses(t.deps, cast.admin.actor, user.id)).toEqual([]);
    expect(() => listFavoriteBusinesses(t.deps, cast.other.actor, user.id)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => listFavoriteBusinesses(t.deps, null, user.id)).toThrowError(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => listFavoriteBusinesses(t.deps, cast.admin.actor, 'nobody')).toThrowError(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});

describe('adding and editing', () => {
  it('refuses an image id that does not exist, writing nothing', async () => {
    const before = t.db.select({ n: count() }).from(businesses).get()?.n;
    await expect(addBusiness({ title: 'Bildlös', imageId: 'missing' })).rejects.toMatchObject({ code: 'BAD_INPUT', key: 'imageUnknown' });
    expect(t.db.select({ n: count() }).from(businesses).get()?.n).toBe(before);
  });

  it("refuses another user's uploaded image", async () => {
    const stored = await storeImage(t.deps, { bytes: await png('#112233'), kind: 'comment', ownerId: cast.owner.id });
    await expect(addBusiness({ imageId: stored.id })).rejects.toMatchObject({ code: 'BAD_INPUT', key: 'imageUnknown' });
  });

  it('keeps title, category and rate when left empty, replaces branches, and releases a replaced image', async () => {
    const first = await storeImage(t.deps, { bytes: await png('#aa0000'), kind: 'business', ownerId: cast.admin.id });
    const icon = await storeImage(t.deps, { bytes: await png('#00aa00'), kind: 'icon', ownerId: cast.admin.id });
    const b = await addBusiness({ title: 'Före', category: 'Kategori', rate: 2, imageId: first.id, iconId: icon.id });
    expect(b).toMatchObject({ image: first.url, icon: icon.url });

    const second = await storeImage(t.deps, { bytes: await png('#0000aa'), kind: 'business', ownerId: cast.admin.id });
    const updated = await updateBusiness(t.deps, cast.admin.actor, b.id, {
      title: '',
      category: undefined,
      description: 'Ny beskrivning.',
      imageId: second.id,
      branches: [{ location: 'Lund' }, { location: 'Kiruna', address: 'Gruvvägen 1' }],
    });
    expect(updated).toMatchObject({
      title: 'Före',
      category: 'Kategori',
      rate: 2,
      ratingCount: 1,
      description: 'Ny beskrivning.',
      image: second.url,
      icon: icon.url,
    });
    expect(updated.branches.map((br) => br.location)).toEqual(['Lund', 'Kiruna']);
    expect(t.db.select({ n: count() }).from(branches).where(eq(branches.businessId, b.id)).get()?.n).toBe(2);
    await imageFilesSettled(t.deps);
    expect(existsSync(path.join(t.deps.paths.uploads, first.fileName))).toBe(false);
    expect(t.db.select().from(images).where(eq(images.id, first.id)).get()).toBeUndefined();

    const removed = await updateBusiness(t.deps, cast.admin.actor, b.id, {
      description: 'Utan ikon.',
      iconId: null,
      rate: 5,
      branches: [{ location: 'Lund' }],
    });
    expect(removed).toMatchObject({ icon: null, image: second.url, rate: 5, ratingCount: 1, myRate: 5 });
    await imageFilesSettled(t.deps);
    expect(existsSync(path.join(t.deps.paths.uploads, icon.fileName))).toBe(false);
  });

  it('answers NOT_FOUND when editing or deleting an unknown business', async () => {
    await expect(updateBusiness(t.deps, cast.admin.actor, 'nope', { description: 'Hej hej', branches: [{ location: 'Lund' }] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(deleteBusiness(t.deps, cast.admin.actor, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('deleting a business', () => {
  it('refuses to delete the suggestion box', async () => {
    const box = t.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).get()?.id ?? suggestionBox();
    await expect(deleteBusiness(t.deps, cast.admin.actor, box)).rejects.toMatchObject({ code: 'CONFLICT', key: 'suggestionBoxUndeletable' });
    expect(getBusiness(t.deps, null, box).id).toBe(box);
  });

  it('gives the suggestion box no rating and no favourite, however asked (tRPC too)', async () => {
    const box = t.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).get()?.id ?? suggestionBox();
    const conflict = (key: string) => ({ code: 'CONFLICT', key });
    await expect(rateBusiness(t.deps, cast.owner.actor, box, 5)).rejects.toMatchObject(conflict('suggestionBoxNotRated'));
    const current = getBusiness(t.deps, null, box);
    await expect(
      updateBusiness(t.deps, cast.admin.actor, box, { description: current.description, branches: [{ location: 'Hela Sverige' }], rate: 5 }),
    ).rejects.toMatchObject(conflict('suggestionBoxNotRated'));
    await expect(setFavorite(t.deps, cast.owner.actor, { businessId: box, favorite: true })).rejects.toMatchObject(conflict('suggestionBoxNoFavorite'));
    const trpc = await callerFor(t.deps, cast.other)
      .business.rate({ id: box, rate: 3 })
      .catch((e: { code: string }) => e.code);
    expect(trpc).toBe('CONFLICT');
    expect(getBusiness(t.deps, null, box)).toMatchObject({ rate: null, ratingCount: 0, isFavorite: false });
    expect(t.db.select({ n: count() }).from(favorites).where(eq(favorites.businessId, box)).get()?.n).toBe(0);
  });

  it('removes every row hanging off it and every file it owned, and nothing of other businesses', async () => {
    const [fan1, fan2] = [await createTestUser(t.db), await createTestUser(t.db)];
    const img = async (color: string, kind: 'business' | 'icon' | 'comment' | 'reply', owner: string) =>
      storeImage(t.deps, { bytes: await png(color), kind, ownerId: owner });
    const picture = await img('#101010', 'business', cast.admin.id);
    const icon = await img('#202020', 'icon', cast.admin.id);
    const doomed = await addBusiness({ title: 'Försvinner', imageId: picture.id, iconId: icon.id, branches: [{ location: 'Malmö' }, { location: 'Luleå' }] });
    const kept = await addBusiness({ title: 'Stannar kvar' });

    await rateBusiness(t.deps, fan1.actor, doomed.id, 4);
    await rateBusiness(t.deps, fan1.actor, kept.id, 2);
    await setFavorite(t.deps, fan1.actor, { businessId: doomed.id, favorite: true });
    await setFavorite(t.deps, fan1.actor, { businessId: kept.id, favorite: true });
    await setFavorite(t.deps, fan2.actor, { businessId: doomed.id, favorite: true });

    const now = Date.now();
    const commentImage = await img('#303030', 'comment', fan1.id);
    const replyImage = await img('#404040', 'reply', fan2.id);
    const commentId = newId();
    const keptCommentId = newId();
    const replyId = newId();
    t.db
      .insert(comments)
      .values([
        {
          id: commentId,
          businessId: doomed.id,
          userId: fan1.id,
          businessLocation: 'Malmö',
          text: 'Bra butik',
          imageId: commentImage.id,
          createdAt: now,
          updatedAt: now,
        },
        { id: keptCommentId, businessId: kept.id, userId: fan1.id, businessLocation: 'Lund', text: 'Också bra', createdAt: now, updatedAt: now },
      ])
      .run();
    t.db
      .insert(replies)
      .values({ id: replyId, commentId, businessId: doomed.id, userId: fan2.id, text: 'Håller med', imageId: replyImage.id, createdAt: now, updatedAt: now })
      .run();
    t.db.insert(commentRatings).values({ commentId, userId: fan2.id, rate: 5, createdAt: now }).run();
    t.db.insert(replyRatings).values({ replyId, userId: fan1.id, rate: 3, createdAt: now }).run();

    const ownedFiles = [picture, icon, commentImage, replyImage].map((i) => i.fileName);
    expect(uploadsNow()).toEqual(expect.arrayContaining(ownedFiles));
    const indexedWordsOf = (id: string) =>
      t.db.get<{ n: number }>(sql`select count(*) as n from comments_fts where comments_fts match ${`"${searchKeyOf(id)}"*`}`).n;
    indexQueuedComments(t.db);
    expect(indexedWordsOf(doomed.id)).toBe(1);

    await deleteBusiness(t.deps, cast.admin.actor, doomed.id);

    const rowsOf = (table: SQLiteTable, where: SQL) => t.db.select({ n: count() }).from(table).where(where).get()?.n;
    expect(rowsOf(businesses, eq(businesses.id, doomed.id))).toBe(0);
    expect(rowsOf(branches, eq(branches.businessId, doomed.id))).toBe(0);
    expect(rowsOf(businessRatings, eq(businessRatings.businessId, doomed.id))).toBe(0);
    expect(rowsOf(favorites, eq(favorites.businessId, doomed.id))).toBe(0);
    expect(rowsOf(comments, eq(comments.businessId, doomed.id))).toBe(0);
    expect(rowsOf(replies, eq(replies.commentId, commentId))).toBe(0);
    expect(rowsOf(commentRatings, eq(commentRatings.commentId, commentId))).toBe(0);
    expect(rowsOf(replyRatings, eq(replyRatings.replyId, replyId))).toBe(0);
    expect(indexedWordsOf(doomed.id)).toBe(0);
    expect(indexedWordsOf(kept.id)).toBe(1);
    for (const image of [picture, icon, commentImage, replyImage]) {
      expect(t.db.select().from(images).where(eq(images.id, image.id)).get()).toBeUndefined();
    }
    await imageFilesSettled(t.deps);
    for (const file of ownedFiles) expect(uploadsNow()).not.toContain(file);

    expect(favoritesCountOf(fan1)).toBe(1);
    expect(favoritesCountOf(fan2)).toBe(0);
    expect(getBusiness(t.deps, fan1.actor, kept.id)).toMatchObject({ ratingCount: 1, isFavorite: true });
    expect(rowsOf(comments, eq(comments.id, keptCommentId))).toBe(1);
    expect(indexedWordsOf(kept.id)).toBeGreaterThan(0);
  });
});

describe('tRPC business procedures: who may call what', () => {
  type Who = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
  const everyone: Who[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
  const caller = (who: Who) => callerFor(t.deps, who === 'visitor' ? null : cast[who]);

  async function outcome(run: () => Promise<unknown>): Promise<string> {
    try {
      await run();
      return 'ok';
    } catch (err) {
      return (err as { code: string }).code;
    }
  }

  async function matrix(run: (who: Who) => Promise<unknown>) {
    const result: Record<string, string> = {};
    for (const who of everyone) result[who] = await outcome(() => run(who));
    return result;
  }

  it('lets everyone read the directory and a business', async () => {
    const b = await addBusiness({ title: 'Läsbar' });
    expect(await matrix((who) => caller(who).business.directory({ search: 'läsbar' }))).toEqual(Object.fromEntries(everyone.map((w) => [w, 'ok'])));
    expect(await matrix((who) => caller(who).business.byId({ id: b.id }))).toEqual(Object.fromEntries(everyone.map((w) => [w, 'ok'])));
    expect(await outcome(() => caller('visitor').business.byId({ id: 'nope' }))).toBe('NOT_FOUND');
    expect((await caller('visitor').business.directory({ search: 'LÄSBAR' })).map((c) => c.id)).toEqual([b.id]);
  });

  it('lets only admins create, update and remove, and read the whole management list', async () => {
    const adminOnly = { visitor: 'UNAUTHORIZED', owner: 'FORBIDDEN', other: 'FORBIDDEN', banned: 'FORBIDDEN', admin: 'ok' };
    // Every business with its branches: 25 MB at 10,000 businesses, for the admins' table only.
    expect(await matrix((who) => caller(who).business.list())).toEqual(adminOnly);
    expect(await matrix((who) => caller(who).business.create(input()))).toEqual(adminOnly);
    const b = await addBusiness();
    expect(await matrix((who) => caller(who).business.update({ id: b.id, description: `Av ${who}`, branches: [{ location: 'Ystad' }] }))).toEqual(adminOnly);
    expect(getBusiness(t.deps, null, b.id).description).toBe('Av admin');
    const targets = await Promise.all(everyone.map(() => addBusiness()));
    const removal = await matrix((who) => caller(who).business.remove({ id: targets[everyone.indexOf(who)].id }));
    expect(removal).toEqual(adminOnly);
    expect(listBusinesses(t.deps, null).filter((x) => targets.some((tb) => tb.id === x.id))).toHaveLength(4);
  });

  it('validates input with the documented messages', async () => {
    const admin = caller('admin');
    const err = await admin.business
      .create({ title: 'A', category: '', description: 'x'.repeat(1000), rate: 6, branches: [{ location: 'L', address: 'A' }] })
      .catch((e) => e);
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.cause.issues.map((i: { path: PropertyKey[]; message: string }) => [i.path.join('.'), i.message])).toEqual([
      ['title', 'titleTooShort'],
      ['category', 'required'],
      ['description', 'descriptionTooLong'],
      ['rate', 'rateTooHigh'],
      ['branches.0.location', 'locationTooShort'],
      ['branches.0.address', 'addressTooShort'],
    ]);
    expect(await outcome(() => admin.business.create({ ...input(), branches: [] }))).toBe('BAD_REQUEST');
    expect(await outcome(() => admin.business.create({ ...input(), rate: 0 }))).toBe('BAD_REQUEST');
    expect(await outcome(() => caller('owner').business.rate({ id: 'x', rate: 0 }))).toBe('BAD_REQUEST');
    expect(await outcome(() => caller('owner').business.rate({ id: 'x', rate: 2.5 }))).toBe('BAD_REQUEST');
  });

  it("makes the admin's rate that admin's rating through tRPC too; without one there is no rating", async () => {
    const admin = caller('admin');
    const rated = await admin.business.create({ ...input(), rate: 5 });
    expect(rated).toMatchObject({ rate: 5, ratingCount: 1, myRate: 5 });
    const unrated = await admin.business.create(input());
    expect(unrated).toMatchObject({ rate: null, ratingCount: 0, myRate: null });
    expect(await caller('visitor').business.byId({ id: unrated.id })).toMatchObject({ rate: null, ratingCount: 0 });
    expect((await caller('visitor').business.directory()).find((c) => c.id === unrated.id)).toMatchObject({ rate: null, ratingCount: 0 });
    const edited = await admin.business.update({ id: unrated.id, description: unrated.description, branches: [{ location: 'Lund' }], rate: 2 });
    expect(edited).toMatchObject({ rate: 2, ratingCount: 1, myRate: 2 });
  });

  it('carries both names of the category and the English description, and lets an admin name a category in English', async () => {
    const admin = caller('admin');
    const visitor = caller('visitor');
    const created = await admin.business.create({
      ...input(),
      category: 'Cykel',
      categoryEn: 'Bicycles',
      description: 'Cyklar och reservdelar för alla åldrar.',
      descriptionEn: 'Bicycles and spare parts for all ages, and repairs while you wait.'.repeat(3),
    });
    expect(created).toMatchObject({
      category: 'Cykel',
      categoryEn: 'Bicycles',
      descriptionEn: 'Bicycles and spare parts for all ages, and repairs while you wait.'.repeat(3),
    });
    expect((await visitor.business.categories()).filter((c) => c.nameSv === 'Cykel')).toEqual([
      { id: created.categoryId, nameSv: 'Cykel', nameEn: 'Bicycles' },
    ]);
    const card = (await visitor.business.directory()).find((c) => c.id === created.id);
    expect(card).toMatchObject({
      category: 'Cykel',
      categoryEn: 'Bicycles',
      excerpt: 'Cyklar och reservdelar för alla åldrar.',
      excerptCut: false,
      excerptEn: 'Bicycles and spare parts for all ages, and repairs while you wait.'.repeat(3).slice(0, 180),
      excerptEnCut: true,
    });

    // A category without an English name (as migrated ones start) gets one through any business in it.
    const other = await admin.business.create({ ...input(), category: 'Tygaffär' });
    expect(other).toMatchObject({ category: 'Tygaffär', categoryEn: 'Tygaffär', descriptionEn: null });
    const renamed = await admin.business.update({ id: other.id, categoryEn: 'Fabric shop', description: other.description, branches: [{ location: 'Lund' }] });
    expect(renamed).toMatchObject({ category: 'Tygaffär', categoryEn: 'Fabric shop' });
    // Picked again by its Swedish name in any case, the list keeps one entry.
    const third = await admin.business.create({ ...input(), category: 'TYGAFFÄR' });
    expect(third).toMatchObject({ categoryId: other.categoryId, categoryEn: 'Fabric shop' });

    // Absent keeps the English description, empty removes it.
    const kept = await admin.business.update({ id: created.id, description: created.description, branches: [{ location: 'Lund' }] });
    expect(kept.descriptionEn).toBe(created.descriptionEn);
    const cleared = await admin.business.update({ id: created.id, description: created.description, descriptionEn: '', branches: [{ location: 'Lund' }] });
    expect(cleared.descriptionEn).toBeNull();
    expect((await visitor.business.directory()).find((c) => c.id === created.id)).toMatchObject({ excerptEn: null, excerptEnCut: false });
    const tooLong = await outcome(() => admin.business.create({ ...input(), descriptionEn: 'x'.repeat(1000) }));
    expect(tooLong).toBe('BAD_REQUEST');
  });

  it('lets active users rate, refusing visitors and banned users', async () => {
    const b = await addBusiness({ rate: 1 });
    expect(await matrix((who) => caller(who).business.rate({ id: b.id, rate: 4 }))).toEqual({
      visitor: 'UNAUTHORIZED',
      owner: 'ok',
      other: 'ok',
      banned: 'FORBIDDEN',
      admin: 'ok',
    });
    expect(getBusiness(t.deps, null, b.id)).toMatchObject({ rate: 4, ratingCount: 3 });
  });

  it('lets active users favourite for themselves, refusing visitors and banned users', async () => {
    const b = await addBusiness();
    expect(await matrix((who) => caller(who).business.setFavorite({ businessId: b.id, favorite: true }))).toEqual({
      visitor: 'UNAUTHORIZED',
      owner: 'ok',
      other: 'ok',
      banned: 'FORBIDDEN',
      admin: 'ok',
    });
    expect(t.db.select({ n: count() }).from(favorites).where(eq(favorites.businessId, b.id)).get()?.n).toBe(3);
    const me = await caller('owner').users.me();
    expect(me?.favoritesCount).toBe(favoritesCountOf(cast.owner));
  });

  it("shows a user's favourites to that user and admins only", async () => {
    expect(await matrix((who) => caller(who).business.favorites({ userId: cast.owner.id }))).toEqual({
      visitor: 'UNAUTHORIZED',
      owner: 'ok',
      other: 'FORBIDDEN',
      banned: 'FORBIDDEN',
      admin: 'ok',
    });
  });
});
