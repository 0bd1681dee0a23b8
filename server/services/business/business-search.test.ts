import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../lib/sv-fold';
import { bearer, createCast, createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { createBusiness, deleteBusiness, updateBusiness } from './business-admin';
import { businessMatches, fillBusinessSearch } from './business-search';

/**
 * The directory search (issue 31.4) through both doors: title, category in both languages, town
 * and description, case and accents ignored, å/ä/ö typed as a/a/o, ranked title first, then
 * category, town, description.
 */

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
const ids = new Map<string, string>();

const plan = [
  { title: 'Hemköp', category: 'Livsmedel', categoryEn: 'Groceries', towns: ['Malmö Hyllie'], description: 'Mat och hushåll, och ett litet kafé.' },
  { title: 'ÅHLÉNS', category: 'Varuhus', categoryEn: 'Department store', towns: ['Stockholm'], description: 'Kläder och skönhet.' },
  { title: 'Pizzeria Napoli', category: 'Restaurang', categoryEn: 'Restaurant', towns: ['Uppsala'], description: 'Stenugnsbakad pizza.' },
  { title: 'Pizza Hut', category: 'Restaurang', categoryEn: 'Restaurant', towns: ['Kalmar'], description: 'Kedja.' },
  { title: 'Kaffebaren', category: 'Kafé', categoryEn: 'Café', towns: ['Lund'], description: 'Espresso och bullar.' },
  { title: 'Uppsala Bokhandel', category: 'Bokhandel', categoryEn: 'Bookshop', towns: ['Göteborg'], description: 'Böcker, och pizza på fredagar.' },
  { title: 'Crème Brûlée', category: 'Kafé', categoryEn: 'Café', towns: ['Umeå'], description: 'Franskt bageri.' },
];

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
  for (const p of plan) {
    const b = await createBusiness(t.deps, cast.admin.actor, {
      title: p.title,
      category: p.category,
      categoryEn: p.categoryEn,
      description: p.description,
      branches: p.towns.map((location) => ({ location })),
    });
    ids.set(p.title, b.id);
  }
}, 30_000);
afterAll(() => t.close());

type Door = (search: string) => Promise<string[]>;

const trpcGet = async <T>(path: string, input: unknown, token?: string): Promise<T> => {
  const res = await t.app.inject({
    url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: { data: T } }>().result.data;
};

/** REST pages of two (?limit=2, then X-Next-Cursor), joined. */
async function restPages(search: string): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const res = await t.app.inject({ url: '/api/business', query: { search, limit: '2', ...(cursor && { cursor }) } });
    expect(res.statusCode, res.body).toBe(200);
    titles.push(...res.json<Array<{ title: string }>>().map((b) => b.title));
    cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return titles;
  }
  throw new Error('more pages than businesses');
}

const doors: Record<string, Door> = {
  'REST GET /api/business?search=': async (search) => {
    const res = await t.app.inject({ url: '/api/business', query: { search } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Array<{ title: string }>>().map((b) => b.title);
  },
  'REST pages': restPages,
  'tRPC business.directoryPage': async (search) => {
    const page = await trpcGet<{ items: Array<{ title: string }>; total: number }>('business.directoryPage', { search });
    expect(page.total).toBe(page.items.length);
    return page.items.map((b) => b.title);
  },
  'tRPC business.directory': async (search) => (await trpcGet<Array<{ title: string }>>('business.directory', { search })).map((b) => b.title),
  // The management table's list: an admin's.
  'tRPC business.list': async (search) => (await trpcGet<Array<{ title: string }>>('business.list', { search }, cast.admin.token)).map((b) => b.title),
};

describe('searchFold', () => {
  it('folds case and accents, and å, ä, ö to a, a, o', () => {
    expect(searchFold('ÅHLÉNS')).toBe('ahlens');
    expect(searchFold('åhléns')).toBe('ahlens');
    expect(searchFold('Hemköp')).toBe('hemkop');
    expect(searchFold('Crème  Brûlée\n')).toBe('creme brulee');
    // Combining accents typed apart from their letter fold the same way.
    expect(searchFold('A\u030AHLE\u0301NS')).toBe('ahlens');
    expect(searchFold('Smørrebrød Straße')).toBe('smorrebrod strasse');
  });
});

describe('the directory search', () => {
  for (const [door, find] of Object.entries(doors)) {
    describe(door, () => {
      it('finds by title ignoring case and accents, å/ä/ö typed as a/a/o', async () => {
        expect(await find('hemkop')).toEqual(['Hemköp']);
        expect(await find('HEMKÖP')).toEqual(['Hemköp']);
        expect(await find('ahlens')).toEqual(['ÅHLÉNS']);
        expect(await find('åhléns')).toEqual(['ÅHLÉNS']);
        expect(await find('creme brulee')).toEqual(['Crème Brûlée']);
        // Shorter than the index's three characters: still found.
        expect(await find('ah')).toEqual(['ÅHLÉNS']);
      });

      it('finds by category in either language, by town and by description', async () => {
        expect(await find('restaurang')).toEqual(['Pizza Hut', 'Pizzeria Napoli']);
        expect(await find('restaurant')).toEqual(['Pizza Hut', 'Pizzeria Napoli']);
        expect(await find('cafe')).toEqual(['Crème Brûlée', 'Kaffebaren']);
        expect(await find('malmo')).toEqual(['Hemköp']);
        expect(await find('hyllie')).toEqual(['Hemköp']);
        expect(await find('espresso')).toEqual(['Kaffebaren']);
      });

      it('ranks title matches first, then category, town, description', async () => {
        // Uppsala: a title, then a town.
        expect(await find('uppsala')).toEqual(['Uppsala Bokhandel', 'Pizzeria Napoli']);
        // Pizza: a title, then descriptions (A–Ö within a rank).
        expect(await find('pizza')).toEqual(['Pizza Hut', 'Pizzeria Napoli', 'Uppsala Bokhandel']);
        // Kafé: categories, then a description.
        expect(await find('kafe')).toEqual(['Crème Brûlée', 'Kaffebaren', 'Hemköp']);
      });

      it('needs every word, each anywhere', async () => {
        expect(await find('kafe lund')).toEqual(['Kaffebaren']);
        expect(await find('hushall kafe')).toEqual(['Hemköp']);
        expect(await find('kafe stockholm')).toEqual([]);
      });

      it('finds nothing for text no business holds, a quote or a wildcard included', async () => {
        expect(await find('xyzzy')).toEqual([]);
        expect(await find('"pizza')).toEqual([]);
        expect(await find('pi%a')).toEqual([]);
        expect(await find('*')).toEqual([]);
      });
    });
  }

  it('keeps the chosen order within a rank, through both doors', async () => {
    // Newest first: the title match, then the descriptions newest first (A–Ö would be the other way).
    const rest = await t.app.inject({ url: '/api/business', query: { search: 'pizza', sort: 'newest' } });
    expect(rest.json<Array<{ title: string }>>().map((b) => b.title)).toEqual(['Pizza Hut', 'Uppsala Bokhandel', 'Pizzeria Napoli']);
    const page = await trpcGet<{ items: Array<{ title: string }> }>('business.directoryPage', { search: 'pizza', sort: 'newest' });
    expect(page.items.map((b) => b.title)).toEqual(['Pizza Hut', 'Uppsala Bokhandel', 'Pizzeria Napoli']);
  });

  it("writes a visitor's REST search from kept documents: the bytes a member's is written with, and fresh after a write", async () => {
    // A member without favourites sees the same documents, written per request by the route's own writer.
    const member = await createTestUser(t.db);
    const queries: Array<Record<string, string>> = [
      { search: 'pizza' },
      { search: 'pizza', limit: '2' },
      { search: 'pizza', limit: '2', cursor: '2' },
      { search: 'kafe', sort: 'newest' },
    ];
    for (const query of queries) {
      const visitor = await t.app.inject({ url: '/api/business', query });
      const theirs = await t.app.inject({ url: '/api/business', query, headers: bearer(member) });
      expect(visitor.statusCode).toBe(200);
      expect(JSON.parse(visitor.body).length).toBeGreaterThan(0);
      expect(visitor.body).toBe(theirs.body);
      expect(visitor.headers['content-type']).toBe(theirs.headers['content-type']);
      expect(visitor.headers['x-next-cursor']).toBe(theirs.headers['x-next-cursor']);
    }
    expect((await t.app.inject({ url: '/api/business', query: { search: 'pizza', limit: '2' } })).headers['x-next-cursor']).toBe('2');
    // A member's favourite is still their own, and never in a visitor's documents.
    const pizzaHut = ids.get('Pizza Hut')!;
    await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${member.id}/${pizzaHut}`, headers: bearer(member) });
    const mine = (await t.app.inject({ url: '/api/business', query: { search: 'pizza hut' }, headers: bearer(member) })).json<Array<{ isFavorite: object }>>();
    expect(mine[0].isFavorite).toEqual({ [member.id]: true });
    expect((await t.app.inject({ url: '/api/business', query: { search: 'pizza hut' } })).json<Array<{ isFavorite: object }>>()[0].isFavorite).toEqual({});
    // A write drops the kept documents: the next search shows the new description.
    await updateBusiness(t.deps, cast.admin.actor, pizzaHut, { description: 'Kedja med buffé.', branches: [{ location: 'Kalmar' }] });
    const after = (await t.app.inject({ url: '/api/business', query: { search: 'pizza hut' } })).json<Array<{ description: string }>>();
    expect(after.map((b) => b.description)).toEqual(['Kedja med buffé.']);
  });

  it('refuses a search longer than 100 characters with a 400 through both doors', async () => {
    const long = 'a'.repeat(101);
    expect((await t.app.inject({ url: '/api/business', query: { search: long } })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/trpc/business.directoryPage?input=${encodeURIComponent(JSON.stringify({ search: long }))}` })).statusCode).toBe(400);
  });

  it('follows an edit: a new title, town and description are found, the old ones no longer', async () => {
    const id = ids.get('Kaffebaren')!;
    await updateBusiness(t.deps, cast.admin.actor, id, { title: 'Kafferosteriet', description: 'Rostat i Kiruna.', branches: [{ location: 'Luleå' }] });
    expect([...businessMatches(t.db, 'lulea').keys()]).toEqual([id]);
    expect([...businessMatches(t.db, 'kafferoster').keys()]).toEqual([id]);
    expect(businessMatches(t.db, 'lund').size).toBe(0);
    expect(businessMatches(t.db, 'espresso').size).toBe(0);
  });

  it("follows a category's new English name onto every business in it", async () => {
    await updateBusiness(t.deps, cast.admin.actor, ids.get('Crème Brûlée')!, {
      categoryEn: 'Coffee shop',
      description: 'Franskt bageri.',
      branches: [{ location: 'Umeå' }],
    });
    expect([...businessMatches(t.db, 'coffee shop').keys()].sort()).toEqual([ids.get('Crème Brûlée'), ids.get('Kaffebaren')].sort());
  });

  it('drops a deleted business from the search', async () => {
    const b = await createBusiness(t.deps, cast.admin.actor, {
      title: 'Tillfälligt',
      category: 'Kafé',
      description: 'Borta snart.',
      branches: [{ location: 'Visby' }],
    });
    expect(businessMatches(t.db, 'tillfalligt').size).toBe(1);
    await deleteBusiness(t.deps, cast.admin.actor, b.id);
    expect(businessMatches(t.db, 'tillfalligt').size).toBe(0);
    expect(t.db.$client.prepare('select count(*) n from business_search where business_id = ?').get(b.id)).toEqual({ n: 0 });
  });

  it('writes the rows missing at start (after migration 0019, or a script), once', async () => {
    t.db.$client.exec('delete from business_search');
    expect(businessMatches(t.db, 'hemkop').size).toBe(0);
    expect(fillBusinessSearch(t.db)).toBe(plan.length);
    expect(fillBusinessSearch(t.db)).toBe(0);
    expect(await doors['REST GET /api/business?search=']('hemkop')).toEqual(['Hemköp']);
  });
});
