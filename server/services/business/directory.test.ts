import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAYES_PRIOR_COUNT, BAYES_PRIOR_MEAN, businesses } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { DIRECTORY_PAGE_MAX, directorySorts, type DirectorySort } from '../../../shared/schemas/directory-constants';
import { getBusiness, titleSearchOf } from './business';
import { createBusiness } from './business-admin';
import { rateBusiness, unrateBusiness } from './business-ratings';
import { resolveCategory } from './categories';
import { directorySnapshotBuilds, fillTitleSortKeys } from './directory';
import { editBusinessFacts } from './business-facts';
import { setFavorite } from './favorites';
import { svFold } from '../../lib/sv-fold';
import { townOf } from '../../lib/towns';
import { createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';

/**
 * The directory's filters and sorts through both doors (REST `GET /api/business`, tRPC
 * `business.directory` over HTTP), each answer compared with an order this test computes from
 * the ratings it gave: one 5-star business must not outrank a hundred 4.8s, and A–Ö puts
 * Ångström after Zeta and Ö last.
 */

let t: TestContext;
let raters: TestUser[];

type Made = { id: string; title: string; category: string; categoryEn: string; cities: string[]; rates: number[]; createdAt: number; box?: boolean };
const made: Made[] = [];

// A hundred ratings averaging 4.8; ten of 3; one 5; three averaging 4.33.
const hundred = [...Array<number>(80).fill(5), ...Array<number>(20).fill(4)];
const plan: Array<Omit<Made, 'id' | 'createdAt'>> = [
  { title: 'Zeta', category: 'Livsmedel', categoryEn: 'Groceries', cities: ['Malmö'], rates: [5] },
  { title: 'Ångström', category: 'Livsmedel', categoryEn: 'Groceries', cities: ['Malmö Svågertorp', 'Lund'], rates: hundred },
  { title: 'Öhman', category: 'Järnhandel', categoryEn: 'Hardware', cities: ['Umeå'], rates: [4, 4, 5] },
  { title: 'Äpplet', category: 'Järnhandel', categoryEn: 'Hardware', cities: ['Lund'], rates: [] },
  { title: 'abba kafé', category: 'Kafé', categoryEn: 'Café', cities: ['Malmö'], rates: Array<number>(10).fill(3) },
  { title: 'Érable', category: 'Kafé', categoryEn: 'Café', cities: ['Göteborg'], rates: [2] },
  { title: 'Bageri 10', category: 'Livsmedel', categoryEn: 'Groceries', cities: ['Lund'], rates: [5, 5] },
  { title: 'Bageri 9', category: 'Livsmedel', categoryEn: 'Groceries', cities: ['Umeå', 'Malmö Hyllie'], rates: [] },
];

beforeAll(async () => {
  t = await createTestApp();
  const cast = await createCast(t.db);
  raters = await Promise.all(Array.from({ length: 100 }, (_, i) => createTestUser(t.db, { firstName: `Betyg${i}` })));
  // The suggestion box, as the seed writes it: first in every order, in no filter's result.
  const now = Date.now();
  const boxId = newId();
  t.db
    .insert(businesses)
    .values({
      id: boxId,
      title: 'Add New',
      titleSearch: titleSearchOf('Add New'),
      titleSort: swedishSortKey('Add New'),
      categoryId: resolveCategory(t.db, 'Förslag', undefined, now),
      description: 'Föreslå ett företag.',
      isSuggestionBox: true,
      createdAt: now - 1000,
      updatedAt: now - 1000,
    })
    .run();
  made.push({ id: boxId, title: 'Add New', category: 'Förslag', categoryEn: 'Förslag', cities: [], rates: [], createdAt: now - 1000, box: true });
  for (const p of plan) {
    const b = await createBusiness(t.deps, cast.admin.actor, {
      title: p.title,
      category: p.category,
      categoryEn: p.categoryEn,
      description: `${p.title} beskrivs här.`,
      branches: p.cities.map((location) => ({ location })),
    });
    for (const [i, rate] of p.rates.entries()) await rateBusiness(t.deps, raters[i].actor, b.id, rate);
    made.push({ ...p, id: b.id, createdAt: getBusiness(t.deps, null, b.id).createdAt });
  }
}, 60_000);
afterAll(() => t.close());

// ---- The expected answers, computed here from what the test made ----

const collator = new Intl.Collator('sv', { sensitivity: 'base', numeric: true });
const bayes = (rates: number[]) =>
  rates.length === 0 ? null : (BAYES_PRIOR_COUNT * BAYES_PRIOR_MEAN + rates.reduce((a, b) => a + b, 0)) / (BAYES_PRIOR_COUNT + rates.length);
const byId = (a: Made, b: Made) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const descNullsLast = (x: number | null, y: number | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : y - x);

const comparators: Record<DirectorySort, (a: Made, b: Made) => number> = {
  name: (a, b) => collator.compare(a.title, b.title) || b.createdAt - a.createdAt || byId(a, b),
  rating: (a, b) => descNullsLast(bayes(a.rates), bayes(b.rates)) || byId(a, b),
  reviews: (a, b) => b.rates.length - a.rates.length || byId(a, b),
  newest: (a, b) => b.createdAt - a.createdAt || byId(a, b),
};

type Query = { category?: string; city?: string; sort?: DirectorySort; search?: string };

function expected(q: Query): string[] {
  const wanted = q.category?.toLocaleLowerCase('sv');
  return (
    made
      .filter((b) => !wanted || b.category.toLocaleLowerCase('sv') === wanted || b.categoryEn.toLocaleLowerCase('sv') === wanted)
      // The city filter names a normalised town: "Malmö" keeps the branches in Malmö Hyllie too (issue 31.3).
      .filter((b) => !q.city || b.cities.some((c) => svFold(townOf(c).town) === svFold(q.city!)))
      .filter((b) => !q.search || b.title.toLocaleLowerCase('sv').includes(q.search.toLocaleLowerCase('sv')))
      .sort((a, b) => (a.box !== b.box ? (a.box ? -1 : 1) : comparators[q.sort ?? 'name'](a, b)))
      .map((b) => b.title)
  );
}

// ---- The two doors ----

async function viaRest(q: Query) {
  const res = await t.app.inject({ url: '/api/business', query: q as Record<string, string> });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Array<{ title: string }>>().map((b) => b.title);
}

async function viaTrpc(q: Query) {
  const res = await t.app.inject({ url: `/trpc/business.directory?input=${encodeURIComponent(JSON.stringify(q))}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: { data: Array<{ title: string }> } }>().result.data.map((b) => b.title);
}

/** Walks REST pages of 3 (?limit=3, then X-Next-Cursor) and joins them. */
async function viaRestPages(q: Query) {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const res = await t.app.inject({ url: '/api/business', query: { ...q, limit: '3', ...(cursor && { cursor }) } as Record<string, string> });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Array<{ title: string }>>();
    expect(page.length).toBeLessThanOrEqual(3);
    titles.push(...page.map((b) => b.title));
    cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return titles;
  }
  throw new Error('more pages than businesses');
}

/** Walks tRPC business.directoryPage pages of 3 and joins them; every page says the same total. */
async function viaTrpcPages(q: Query) {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const input = { ...q, limit: 3, ...(cursor && { cursor }) };
    const res = await t.app.inject({ url: `/trpc/business.directoryPage?input=${encodeURIComponent(JSON.stringify(input))}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ result: { data: { items: Array<{ title: string }>; total: number; nextCursor: string | null } } }>().result.data;
    expect(page.items.length).toBeLessThanOrEqual(3);
    titles.push(...page.items.map((b) => b.title));
    if (!page.nextCursor) {
      expect(page.total).toBe(titles.length);
      return titles;
    }
    cursor = page.nextCursor;
  }
  throw new Error('more pages than businesses');
}

const doors = { REST: viaRest, tRPC: viaTrpc, 'REST pages': viaRestPages, 'tRPC pages': viaTrpcPages };

describe('the directory, sorted and filtered', () => {
  for (const [door, list] of Object.entries(doors)) {
    describe(door, () => {
      for (const sort of directorySorts) {
        it(`sorts by ${sort}, alone and with each filter`, async () => {
          for (const q of [
            {},
            { category: 'Livsmedel' },
            { category: 'hardware' },
            { city: 'Malmö' },
            { city: 'Lund', category: 'Livsmedel' },
            { search: 'bageri' },
          ]) {
            expect([door, sort, q, await list({ ...q, sort })]).toEqual([door, sort, q, expected({ ...q, sort })]);
          }
        });
      }

      it('without a sort lists A–Ö: Å, Ä, Ö after Z, numbers by value, accents and case ignored', async () => {
        expect(await list({})).toEqual(['Add New', 'abba kafé', 'Bageri 9', 'Bageri 10', 'Érable', 'Zeta', 'Ångström', 'Äpplet', 'Öhman']);
      });

      it('ranks a hundred 4.8s above one 5-star rating (Bayesian average), unrated last', async () => {
        const order = await list({ sort: 'rating' });
        expect(order.slice(0, 2)).toEqual(['Add New', 'Ångström']);
        // One 5-star rating scores (15 + 5) / 6 = 3.33; two scores (15 + 10) / 7 = 3.57.
        expect(order.indexOf('Bageri 10')).toBeLessThan(order.indexOf('Zeta'));
        expect(new Set(order.slice(-2))).toEqual(new Set(['Bageri 9', 'Äpplet']));
      });

      it('matches nothing for an unknown category or city', async () => {
        expect(await list({ category: 'Finns inte' })).toEqual([]);
        expect(await list({ city: 'Ödeshög' })).toEqual([]);
      });

      it('finds every branch of a town, its areas included, whatever the case', async () => {
        expect(await list({ city: 'malmö' })).toEqual(['abba kafé', 'Bageri 9', 'Zeta', 'Ångström']);
      });
    });
  }

  it('moves the rating order with the next rating', async () => {
    const zeta = made.find((m) => m.title === 'Zeta')!;
    for (const [i, rate] of hundred.entries()) await rateBusiness(t.deps, raters[i].actor, zeta.id, rate);
    zeta.rates = hundred;
    for (const list of Object.values(doors)) expect(await list({ sort: 'rating' })).toEqual(expected({ sort: 'rating' }));
  });

  it('takes star ratings of five fresh accounts into its kept cards without building them anew: every order equals the database (issue 32)', async () => {
    const fresh = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestUser(t.db, { firstName: `Ny${i}` })));
    const base = new Map(made.map((m) => [m.id, [...m.rates]]));
    const given = new Map<string, Map<number, number>>();
    // Who rates what: a first rating, a change, one taken back, an unrated business rated.
    const steps: Array<[number, string, number | null]> = [
      [0, 'Äpplet', 5],
      [1, 'Äpplet', 1],
      [2, 'Érable', 5],
      [3, 'Bageri 9', 3],
      [4, 'Zeta', 1],
      [0, 'Äpplet', 2],
      [2, 'Érable', null],
      [3, 'Öhman', 5],
    ];
    /** Each card's figures as the kept directory (tRPC) and the database (REST) give them. */
    const figures = async (url: string, items: (body: unknown) => Array<{ title: string; rate: number | null; ratingCount: number }>) => {
      const res = await t.app.inject({ url });
      return new Map(items(res.json()).map((b) => [b.title, [b.rate, b.ratingCount]]));
    };
    // Every order kept first, so each is moved with the card rather than read again.
    for (const sort of directorySorts) await viaTrpc({ sort });
    const builds = directorySnapshotBuilds(t.db);
    for (const [who, title, rate] of steps) {
      const business = made.find((m) => m.title === title)!;
      const mine = given.get(business.id) ?? new Map<number, number>();
      given.set(business.id, mine);
      if (rate === null) {
        await unrateBusiness(t.deps, fresh[who].actor, business.id);
        mine.delete(who);
      } else {
        await rateBusiness(t.deps, fresh[who].actor, business.id, rate);
        mine.set(who, rate);
      }
      business.rates = [...base.get(business.id)!, ...mine.values()];
      for (const sort of directorySorts)
        for (const q of [{ sort }, { sort, category: 'Livsmedel' }, { sort, city: 'Malmö' }])
          expect([title, rate, q, await viaTrpc(q)]).toEqual([title, rate, q, expected(q)]);
      const kept = await figures('/trpc/business.directory', (body) => (body as { result: { data: never[] } }).result.data);
      expect(kept).toEqual(await figures('/api/business', (body) => body as never[]));
      expect(kept.get(title)?.[1]).toBe(business.rates.length);
    }
    expect(directorySnapshotBuilds(t.db)).toBe(builds);
  });

  it('refuses a sort it does not know, and filters too long, with a 400', async () => {
    const refused: Array<Record<string, string>> = [
      { sort: 'sideways' },
      { sort: '' },
      { category: 'x'.repeat(51) },
      { city: 'x'.repeat(101) },
      { category: ' ' },
    ];
    for (const query of refused) {
      const rest = await t.app.inject({ url: '/api/business', query });
      expect([query, rest.statusCode, rest.json<{ key: string }>().key]).toEqual([query, 400, 'invalidInput']);
      const trpc = await t.app.inject({ url: `/trpc/business.directory?input=${encodeURIComponent(JSON.stringify(query))}` });
      expect([query, trpc.statusCode]).toEqual([query, 400]);
    }
  });

  it('gives the directory page 24 cards by default, and refuses bad paging input with a 400', async () => {
    const first = (await t.app.inject({ url: '/trpc/business.directoryPage' })).json<{
      result: { data: { items: unknown[]; total: number; nextCursor: null } };
    }>().result.data;
    expect([first.items.length, first.total, first.nextCursor]).toEqual([made.length, made.length, null]);
    for (const input of [{ limit: 0 }, { limit: 101 }, { limit: 2.5 }, { cursor: 'x' }, { cursor: '-1' }, { cursor: '' }]) {
      const trpc = await t.app.inject({ url: `/trpc/business.directoryPage?input=${encodeURIComponent(JSON.stringify(input))}` });
      expect([input, trpc.statusCode]).toEqual([input, 400]);
    }
    const badPages: Array<Record<string, string>> = [{ limit: '0' }, { limit: '101' }, { limit: '2.5' }, { cursor: 'x' }, { cursor: '-1' }];
    for (const query of badPages) {
      const rest = await t.app.inject({ url: '/api/business', query });
      expect([query, rest.statusCode]).toEqual([query, 400]);
    }
    // Without limit: a page of 100 (business-pages.test.ts walks a larger site), the same bytes as limit=100.
    const whole = await t.app.inject({ url: '/api/business' });
    const onePage = await t.app.inject({ url: '/api/business', query: { limit: '100' } });
    expect([whole.headers['content-type'], whole.body]).toEqual([onePage.headers['content-type'], onePage.body]);
    // Past the end: an empty page, no next cursor.
    const past = await t.app.inject({ url: '/api/business', query: { cursor: '999' } });
    expect([past.statusCode, past.json(), past.headers['x-next-cursor']]).toEqual([200, [], undefined]);
  });

  it('lists the categories that have businesses and the branch locations, with counts, through both doors', async () => {
    const rest = (await t.app.inject({ url: '/api/business/filters' })).json<{ categories: Array<{ nameSv: string; count: number }>; cities: unknown }>();
    const trpc = (await t.app.inject({ url: '/trpc/business.directoryFilters' })).json<{
      result: { data: { categories: Array<{ nameSv: string; count: number }>; cities: unknown } };
    }>().result.data;
    const categories = [
      ['Järnhandel', 2],
      ['Kafé', 2],
      ['Livsmedel', 4],
    ];
    const cities = [
      { name: 'Göteborg', count: 1 },
      { name: 'Lund', count: 3 },
      { name: 'Malmö', count: 4 },
      { name: 'Umeå', count: 2 },
    ];
    for (const answer of [rest, trpc]) {
      expect(answer.categories.map((c) => [c.nameSv, c.count])).toEqual(categories);
      expect(answer.cities).toEqual(cities);
    }
  });

  it('counts each filter among the businesses the other filters keep (issue 31.3), through both doors', async () => {
    const ask = async (query: Record<string, string>) => {
      const rest = (await t.app.inject({ url: '/api/business/filters', query })).json<{
        categories: Array<{ _id: string; nameSv: string; count: number }>;
        cities: unknown;
      }>();
      const trpc = (await t.app.inject({ url: `/trpc/business.directoryFilters?input=${encodeURIComponent(JSON.stringify(query))}` })).json<{
        result: { data: { categories: Array<{ nameSv: string; count: number }>; cities: unknown } };
      }>().result.data;
      expect(trpc).toEqual({ ...rest, categories: rest.categories.map(({ _id, ...c }) => ({ id: _id, ...c })) });
      return { categories: rest.categories.map((c) => [c.nameSv, c.count]), cities: rest.cities };
    };
    expect((await ask({ category: 'Livsmedel' })).cities).toEqual([
      { name: 'Lund', count: 2 },
      { name: 'Malmö', count: 3 },
      { name: 'Umeå', count: 1 },
    ]);
    expect((await ask({ city: 'Malmö' })).categories).toEqual([
      ['Kafé', 1],
      ['Livsmedel', 3],
    ]);
    // A chosen filter stays listed with 0 when the others leave nothing in it.
    expect(await ask({ category: 'Järnhandel', city: 'Göteborg' })).toEqual({
      categories: [
        ['Järnhandel', 0],
        ['Kafé', 1],
      ],
      cities: [
        { name: 'Göteborg', count: 0 },
        { name: 'Lund', count: 1 },
        { name: 'Umeå', count: 1 },
      ],
    });
    expect((await ask({ search: 'bageri' })).cities).toEqual([
      { name: 'Lund', count: 1 },
      { name: 'Malmö', count: 1 },
      { name: 'Umeå', count: 1 },
    ]);
  });

  it("gives the map every kept business's branch positions, filtered like the list (tRPC business.directoryPlaces)", async () => {
    const zeta = made.find((m) => m.title === 'Zeta')!;
    const detail = getBusiness(t.deps, null, zeta.id);
    await editBusinessFacts(t.deps, (await createTestUser(t.db, { isAdmin: true })).actor, zeta.id, {
      branches: [{ id: detail.branches[0].id, lat: 55.605, lng: 13.0038 }],
    });
    const ask = async (input: object) =>
      (await t.app.inject({ url: `/trpc/business.directoryPlaces?input=${encodeURIComponent(JSON.stringify(input))}` })).json<{ result: { data: unknown } }>()
        .result.data;
    expect(await ask({ city: 'Malmö' })).toEqual([{ id: zeta.id, title: 'Zeta', positions: [[55.605, 13.0038]] }]);
    expect(await ask({ city: 'Lund' })).toEqual([]);
  });

  it('gives "Närmast mig" the cards of the ids it asks for, in its order (tRPC business.directoryCards)', async () => {
    const ask = async (ids: string[], headers: Record<string, string> = {}) =>
      t.app.inject({ url: `/trpc/business.directoryCards?input=${encodeURIComponent(JSON.stringify({ ids }))}`, headers });
    const [zeta, oh, cafe] = ['Zeta', 'Öhman', 'abba kafé'].map((title) => made.find((m) => m.title === title)!);
    const cards = (await ask([oh.id, 'no_such_business', zeta.id, cafe.id])).json<{
      result: { data: Array<{ id: string; title: string; isFavorite: boolean }> };
    }>().result.data;
    // In the asked order (not A–Ö), an unknown id left out.
    expect(cards.map((c) => c.title)).toEqual(['Öhman', 'Zeta', 'abba kafé']);
    expect(cards.every((c) => !c.isFavorite)).toBe(true);
    // A member's own favourite is marked on the member's copy only.
    const member = await createTestUser(t.db);
    await setFavorite(t.deps, member.actor, { businessId: zeta.id, favorite: true });
    const signedIn = await ask([zeta.id, oh.id], { authorization: `Bearer ${member.token}` });
    // Hers alone: never for a shared cache.
    expect(signedIn.headers['cache-control']).toMatch(/private, no-store/);
    const mine = signedIn.json<{ result: { data: Array<{ isFavorite: boolean }> } }>().result.data;
    expect(mine.map((c) => c.isFavorite)).toEqual([true, false]);
    // At most a page of 100 ids, at least one, each an id: else a 400.
    for (const ids of [[], Array.from({ length: 101 }, () => zeta.id), ['x'.repeat(300)]]) expect((await ask(ids)).statusCode).toBe(400);
  });

  it('gives businesses written without an A–Ö key (before migration 0013) one at start', () => {
    t.db.update(businesses).set({ titleSort: '' }).run();
    expect(fillTitleSortKeys(t.db)).toBe(made.length);
    const keys = t.db.select({ title: businesses.title, titleSort: businesses.titleSort }).from(businesses).all();
    expect(keys.map((k) => k.titleSort)).toEqual(keys.map((k) => swedishSortKey(k.title)));
    expect(fillTitleSortKeys(t.db)).toBe(0);
  });
});

describe('every list of the directory is one page, whatever the number of businesses (issue 32.1)', () => {
  let big: TestContext;
  beforeAll(async () => {
    big = await createTestApp({ env: { RATE_LIMITS: '0' } });
    const admin = (await createCast(big.db)).admin.actor;
    for (let i = 0; i < DIRECTORY_PAGE_MAX + 5; i++)
      await createBusiness(big.deps, admin, {
        title: `Butik ${String(i).padStart(3, '0')}`,
        category: 'Livsmedel',
        description: 'En butik.',
        branches: [{ location: 'Lund' }],
      });
  });
  afterAll(() => big.close());

  it('gives tRPC business.directory the first page only, as REST gives it without a limit', async () => {
    const trpc = await big.app.inject({ url: '/trpc/business.directory' });
    const cards = trpc.json<{ result: { data: Array<{ title: string }> } }>().result.data;
    const rest = await big.app.inject({ url: '/api/business' });
    expect(cards.length).toBe(DIRECTORY_PAGE_MAX);
    expect(cards.map((c) => c.title)).toEqual(rest.json<Array<{ title: string }>>().map((b) => b.title));
    const searched = await big.app.inject({ url: `/trpc/business.directory?input=${encodeURIComponent(JSON.stringify({ search: 'butik' }))}` });
    expect(searched.json<{ result: { data: unknown[] } }>().result.data).toHaveLength(DIRECTORY_PAGE_MAX);
  });
});
