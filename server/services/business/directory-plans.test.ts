import { fillPlaceholders } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directorySorts } from '../../../shared/schemas/directory-constants';
import { createTestApp, type TestContext } from '../../test/helpers';
import { resolveCategory } from './categories';
import { businessSearchQuery, fillBusinessSearch, searchWords } from './business-search';
import { businessListQuery, businessPageQuery, directoryQueries } from './directory';

const BUSINESSES = 3000;

let t: TestContext;

/** Bulk businesses with branches in a few towns and ratings spread over them, in one transaction. */
beforeAll(async () => {
  t = await createTestApp();
  const sqlite = t.db.$client;
  const now = Date.now();
  const categoryIds = ['Livsmedel', 'Kafé', 'Järnhandel', 'Apotek'].map((name) => resolveCategory(t.db, name, undefined, now));
  const counter = (n: number) => `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1})`;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `${counter(BUSINESSES)} insert into businesses (id, title, title_search, title_sort, category_id, description, rating_count,
           rating_sum, is_suggestion_box, created_at, updated_at)
         select printf('b%05d', i), 'Butik ' || i, 'butik ' || i, printf('butik\x01%010d', i), json_extract(:categories, '$[' || (i % 4) || ']'),
           'En butik.', i % 13, (i % 13) * (1 + i % 5), i = 0, :now - i * 1000, :now from n`,
      )
      .run({ now, categories: JSON.stringify(categoryIds) });
    sqlite
      .prepare(
        `${counter(BUSINESSES * 3)} insert into branches (id, business_id, location, town, position)
         select printf('br%06d', i), printf('b%05d', i % ${BUSINESSES}),
           json_extract('["Malmö","Umeå","Västerås","Göteborg","Lund","Kiruna","Visby"]', '$[' || (i % 7) || ']'),
           json_extract('["Malmö","Umeå","Västerås","Göteborg","Lund","Kiruna","Visby"]', '$[' || (i % 7) || ']'), i / ${BUSINESSES} from n`,
      )
      .run();
  })();
  // As the server does at start for businesses a script wrote.
  fillBusinessSearch(t.db);
}, 120_000);
afterAll(() => t.close());

/** EXPLAIN QUERY PLAN of a Drizzle query exactly as the app builds it, placeholders filled. */
function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown> = {}): string[] {
  const { sql, params } = query.toSQL();
  return (t.db.$client.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as Array<{ detail: string }>).map((r) => r.detail);
}

/** Every plan step that reads businesses without an index, or sorts in a temporary b-tree. */
const problems = (plan: string[]) => plan.filter((d) => /^SCAN businesses\b(?!.*USING (COVERING )?INDEX)/.test(d) || /TEMP B-TREE/.test(d));

describe(`the directory page with ${BUSINESSES.toLocaleString('en')} businesses`, () => {
  it('answers 24 cards, a few KB, wherever the page is and whatever the sort', async () => {
    for (const input of [undefined, { cursor: '2400' }, { sort: 'rating', cursor: '24' }, { category: 'Kafé', cursor: '480' }]) {
      const res = await t.app.inject({ url: `/trpc/business.directoryPage${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<{ result: { data: { items: unknown[]; total: number } } }>().result.data;
      expect([input, page.items.length, page.total]).toEqual([input, 24, input && 'category' in input ? BUSINESSES / 4 : BUSINESSES]);
      expect(res.rawPayload.length, JSON.stringify(input)).toBeLessThan(16 * 1024);
    }
  });
});

describe(`the directory search with ${BUSINESSES.toLocaleString('en')} businesses`, () => {
  it('looks words of three characters or more up in the trigram index, shorter ones only among its finds', () => {
    for (const search of ['butik', 'butik 12', 'utik 7', 'malmö butik']) {
      const plan = planOf({ toSQL: () => new SQLiteSyncDialect().sqlToQuery(businessSearchQuery(searchWords(search))) });
      expect(plan.join('\n'), search).toMatch(/^SCAN business_search VIRTUAL TABLE INDEX \d+:M/);
    }
  });

  it('answers a ranked page of 24 cards and its total, a few KB', async () => {
    const res = await t.app.inject({ url: `/trpc/business.directoryPage?input=${encodeURIComponent(JSON.stringify({ search: 'Butik 12', sort: 'rating' }))}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ result: { data: { items: Array<{ title: string }>; total: number } } }>().result.data;
    // Every title holds "butik"; the words need not stand together, so 312 and 2120 count too.
    const holding12 = Array.from({ length: BUSINESSES }, (_, i) => String(i)).filter((n) => n.includes('12')).length;
    expect([page.items.length, page.total]).toEqual([24, holding12]);
    expect(res.rawPayload.length).toBeLessThan(16 * 1024);
  });
});

describe(`directory query plans with ${BUSINESSES.toLocaleString('en')} businesses`, () => {
  for (const analyzed of [false, true]) {
    describe(analyzed ? 'after ANALYZE (as pragma optimize leaves it)' : 'before statistics exist', () => {
      beforeAll(() => {
        if (analyzed) t.db.$client.exec('analyze');
      });

      it('every sort walks its own index, filtered or not: no sort step', () => {
        for (const sort of directorySorts) {
          for (const filter of [{}, { category: 'Kafé' }, { city: 'Lund' }, { category: 'Kafé', city: 'Visby' }]) {
            const plan = planOf(businessListQuery(t.db, null, { ...filter, sort }));
            const name = `${sort} ${JSON.stringify(filter)}:\n${plan.join('\n')}`;
            expect(problems(plan), name).toEqual([]);
            expect(
              plan.some((d) => d.includes(`businesses_dir_${sort}_idx`)),
              name,
            ).toBe(true);
            // The city filter probes a business's branches by town, never scans them.
            if ('city' in filter)
              expect(
                plan.some((d) => /SEARCH branches (EXISTS )?USING COVERING INDEX branches_town_idx/.test(d)),
                name,
              ).toBe(true);
          }
        }
      });

      it('a page of the REST list (?limit=&cursor=) walks the same index and stops at the page', () => {
        for (const sort of directorySorts) {
          for (const filter of [{}, { category: 'Kafé' }, { city: 'Lund' }]) {
            const query = businessPageQuery(t.db, null, { ...filter, sort, limit: 24, cursor: '48' });
            const plan = planOf(query);
            const name = `${sort} ${JSON.stringify(filter)}:\n${plan.join('\n')}`;
            expect(problems(plan), name).toEqual([]);
            expect(
              plan.some((d) => d.includes(`businesses_dir_${sort}_idx`)),
              name,
            ).toBe(true);
            expect(query.toSQL().sql, name).toMatch(/limit \? offset \?$/);
          }
        }
      });

      it("the kept cards and each sort's order are read along their indexes", () => {
        const q = directoryQueries(t.db);
        for (const [name, query] of [
          ['name', q.all],
          ['rating', q.rating],
          ['reviews', q.reviews],
          ['newest', q.newest],
        ] as const) {
          const plan = planOf(query);
          expect(problems(plan), `${name}:\n${plan.join('\n')}`).toEqual([]);
          expect(
            plan.some((d) => d.includes(`businesses_dir_${name}_idx`)),
            `${name}:\n${plan.join('\n')}`,
          ).toBe(true);
        }
        // The kept cards' towns and the list of towns: one walk of branches_town_idx each, no sort.
        for (const query of [q.townsOf, q.towns, q.positions]) {
          const plan = planOf(query).join('\n');
          expect(plan).toMatch(/(SCAN|SEARCH) branches( USING COVERING INDEX branches_town_idx)?/);
          expect(plan).not.toMatch(/TEMP B-TREE/);
        }
      });
    });
  }
});
