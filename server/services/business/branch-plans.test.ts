import { fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branches } from '../../../db/schema';
import { createTestApp, type TestContext } from '../../test/helpers';
import { newId } from '../../lib/ids';
import { branchRatingQueries } from './branch-ratings';
import { insertBusiness } from '../../test/comment-fixtures';
import { ftsQueryOf, indexQueuedComments } from '../comments/comment-search';
import { commentQueries } from '../comments/comments';

const COMMENTS = 50_000;
const BUSINESSES = 10;
const BRANCHES_EACH = 5;

let t: TestContext;
let businessIds: string[];
let branchIds: string[][];

/** Comments spread over businesses and their branches (one in six at no branch), bulk-inserted as in comment-plans.test.ts. */
beforeAll(async () => {
  t = await createTestApp();
  const sqlite = t.db.$client;
  businessIds = Array.from({ length: BUSINESSES }, (_, i) => insertBusiness(t.db, `Butik ${i}`));
  branchIds = businessIds.map((businessId) =>
    Array.from({ length: BRANCHES_EACH }, (_, position) => {
      const id = newId();
      t.db
        .insert(branches)
        .values({ id, businessId, location: `Filial ${position}`, position })
        .run();
      return id;
    }),
  );
  const now = Date.now();
  const counter = (n: number) => `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1})`;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `${counter(300)} insert into users (id, email, first_name, last_name, created_at, updated_at)
         select 'u' || i, 'bulk' || i || '@example.com', 'Namn' || i, 'Efternamn', :now, :now from n`,
      )
      .run({ now });
    sqlite
      .prepare(
        `${counter(COMMENTS)} insert into comments (id, business_id, branch_id, place_key, user_id, business_location, text, created_at, updated_at)
         select printf('c%07d', i), json_extract(:businesses, '$[' || (i % ${BUSINESSES}) || ']'),
           case when i % 6 = 0 then null else json_extract(:branches, '$[' || (i % ${BUSINESSES}) || '][' || (i / ${BUSINESSES} % ${BRANCHES_EACH}) || ']') end,
           case when i % 6 = 0 then json_extract('["umeå","luleå","kiruna"]', '$[' || (i / 6 % 3) || ']') end,
           'u' || (i % 300), 'Filial', 'Kommentar ' || i || ' om ' || json_extract('["kanelbullar","kassan","personal"]', '$[' || (i % 3) || ']'),
           :now - (:total - i) * 1000, :now from n`,
      )
      .run({ now, total: COMMENTS, businesses: JSON.stringify(businessIds), branches: JSON.stringify(branchIds) });
    sqlite
      .prepare(
        `insert into business_ratings (business_id, user_id, rate, created_at, updated_at)
         select b.id, u.id, 1 + (u.rowid % 5), :now, :now from businesses b, users u where u.id like 'u%'`,
      )
      .run({ now });
  })();
  indexQueuedComments(t.db);
}, 120_000);
afterAll(() => t.close());

function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): string[] {
  const { sql, params } = query.toSQL();
  const bound = fillPlaceholders(params, { admin: 0, me: 'u1', ...values });
  return (t.db.$client.prepare(`explain query plan ${sql}`).all(...bound) as Array<{ detail: string }>).map((r) => r.detail);
}

/** Plan steps that read comments without an index, or sort in a temporary b-tree. */
const problems = (plan: string[]) => plan.filter((d) => /^SCAN comments\b(?!_fts)(?!.*USING (COVERING )?INDEX)/.test(d) || /TEMP B-TREE/.test(d));

describe(`branch query plans with ${COMMENTS.toLocaleString('en')} comments`, () => {
  for (const analyzed of [false, true]) {
    describe(analyzed ? 'after ANALYZE' : 'before statistics exist', () => {
      beforeAll(() => {
        if (analyzed) t.db.$client.exec('analyze');
      });

      it('the branch filter walks comments_branch_idx in order, first page and after a cursor', () => {
        const q = commentQueries(t.db);
        const branch = branchIds[2][3];
        for (const [query, values] of [
          [q.branch, { limit: 21, branch }],
          [q.branchAfter, { limit: 21, branch, t: Date.now() - 10_000_000, k: 40_000 }],
        ] as const) {
          const plan = planOf(query, values);
          expect(problems(plan), plan.join('\n')).toEqual([]);
          expect(
            plan.some((d) => /SEARCH comments USING INDEX comments_branch_idx/.test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it('the branch filter with a search reads the matches by rowid, never all comments', () => {
        const q = commentQueries(t.db);
        const query = ftsQueryOf(businessIds[2], 'kanel');
        for (const [statement, values] of [
          [q.branchSearch, { limit: 21, branch: branchIds[2][3], query }],
          [q.branchSearchAfter, { limit: 21, branch: branchIds[2][3], query, k: 40_000 }],
        ] as const) {
          const plan = planOf(statement, values);
          expect(
            plan.filter((d) => /^SCAN comments\b(?!_fts)/.test(d)),
            plan.join('\n'),
          ).toEqual([]);
          expect(
            plan.some((d) => /comments_fts VIRTUAL TABLE/.test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it('the other-place filter (issue 29.4) walks comments_place_idx in order, first page and after a cursor', () => {
        const q = commentQueries(t.db);
        for (const [query, values] of [
          [q.place, { limit: 21, businessId: businessIds[2], place: 'umeå' }],
          [q.placeAfter, { limit: 21, businessId: businessIds[2], place: 'umeå', t: Date.now() - 10_000_000, k: 40_000 }],
        ] as const) {
          const plan = planOf(query, values);
          expect(problems(plan), plan.join('\n')).toEqual([]);
          expect(
            plan.some((d) => /SEARCH comments USING INDEX comments_place_idx \(business_id=\? AND place_key=\?/.test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it("the branch filter's counts: per branch on comments_branch_authors_idx, other places on comments_place_idx, no sort", () => {
        const q = branchRatingQueries(t.db);
        for (const [statement, index] of [
          [q.branchCounts, 'comments_branch_authors_idx'],
          [q.places, 'comments_place_idx'],
        ] as const) {
          const plan = planOf(statement, { businessId: businessIds[4] });
          expect(problems(plan), plan.join('\n')).toEqual([]);
          expect(
            plan.some((d) => new RegExp(`SEARCH comments USING (COVERING )?INDEX ${index}`).test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it("the branches' ratings walk comments_branch_authors_idx and look ratings up by key: no scan, no sort", () => {
        const plan = planOf(branchRatingQueries(t.db).authorRatings, { businessId: businessIds[4] });
        expect(problems(plan), plan.join('\n')).toEqual([]);
        expect(
          plan.some((d) => /comments_branch_authors_idx/.test(d)),
          plan.join('\n'),
        ).toBe(true);
        expect(
          plan.some((d) => /SEARCH business_ratings USING (COVERING )?INDEX sqlite_autoindex_business_ratings_1/.test(d)),
          plan.join('\n'),
        ).toBe(true);
      });
    });
  }
});
