import { fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBusiness } from '../../test/comment-fixtures';
import { createTestApp, type TestContext } from '../../test/helpers';
import { profileQueries } from './profiles';

const COMMENTS = 30_000;
const USERS = 300;

let t: TestContext;

/** Comments and replies spread over users, one in ten hidden, bulk-inserted as in comment-plans.test.ts. */
beforeAll(async () => {
  t = await createTestApp();
  const sqlite = t.db.$client;
  const business = insertBusiness(t.db, 'Butik');
  const now = Date.now();
  const counter = (n: number) => `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1})`;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `${counter(USERS)} insert into users (id, email, first_name, last_name, created_at, updated_at)
         select 'u' || i, 'bulk' || i || '@example.com', 'Namn' || i, 'Efternamn', :now, :now from n`,
      )
      .run({ now });
    sqlite
      .prepare(
        `${counter(COMMENTS)} insert into comments (id, business_id, user_id, business_location, text, created_at, updated_at, hidden_at)
         select printf('c%07d', i), :business, 'u' || (i % ${USERS}), 'Lund', 'Kommentar ' || i, :now - (:total - i) * 1000, :now,
           case when i % 10 = 0 then :now end from n`,
      )
      .run({ now, total: COMMENTS, business });
    sqlite
      .prepare(
        `${counter(COMMENTS)} insert into replies (id, comment_id, business_id, user_id, text, created_at, updated_at)
         select printf('r%07d', i), printf('c%07d', i), :business, 'u' || ((i + 1) % ${USERS}), 'Svar ' || i, :now, :now from n`,
      )
      .run({ now, business });
  })();
}, 120_000);
afterAll(() => t.close());

function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): string[] {
  const { sql, params } = query.toSQL();
  const bound = fillPlaceholders(params, values);
  return (t.db.$client.prepare(`explain query plan ${sql}`).all(...bound) as Array<{ detail: string }>).map((r) => r.detail);
}

/** Plan steps that read comments or replies without an index, or sort in a temporary b-tree. */
const problems = (plan: string[]) => plan.filter((d) => /^SCAN (comments|replies)\b(?!.*USING (COVERING )?INDEX)/.test(d) || /TEMP B-TREE/.test(d));

describe(`profile query plans with ${COMMENTS.toLocaleString('en')} comments`, () => {
  for (const analyzed of [false, true]) {
    describe(analyzed ? 'after ANALYZE' : 'before statistics exist', () => {
      beforeAll(() => {
        if (analyzed) t.db.$client.exec('analyze');
      });

      it("a user's public reviews walk comments_user_idx in order, first page and after a cursor", () => {
        const q = profileQueries(t.db);
        for (const [query, values] of [
          [q.reviews, { id: 'u7', limit: 21 }],
          [q.reviewsAfter, { id: 'u7', limit: 21, t: Date.now() - 10_000_000, k: 20_000 }],
        ] as const) {
          const plan = planOf(query, values);
          expect(problems(plan), plan.join('\n')).toEqual([]);
          expect(
            plan.some((d) => /SEARCH comments USING INDEX comments_user_idx \(user_id=\?/.test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it('your own reviews and replies walk comments_user_idx and replies_user_idx in order (issue 30, item 7)', () => {
        const q = profileQueries(t.db);
        for (const [query, index] of [
          [q.myReviews, 'SEARCH comments USING INDEX comments_user_idx \\(user_id=\\?'],
          [q.myReplies, 'SEARCH replies USING INDEX replies_user_idx \\(user_id=\\? AND rowid<\\?\\)'],
        ] as const) {
          const plan = planOf(query, { id: 'u7', limit: 11, t: Date.now(), k: 50_000 });
          expect(problems(plan), plan.join('\n')).toEqual([]);
          expect(
            plan.some((d) => new RegExp(index).test(d)),
            plan.join('\n'),
          ).toBe(true);
        }
      });

      it("the profile's counts search the user's rows by user_id: no scan, no sort", () => {
        const plan = planOf(profileQueries(t.db).head, { id: 'u7' });
        expect(problems(plan), plan.join('\n')).toEqual([]);
        expect(plan.filter((d) => /SEARCH comments USING (COVERING )?INDEX comments_user_idx \(user_id=\?\)/.test(d)).length, plan.join('\n')).toBe(2);
        expect(plan.filter((d) => /SEARCH replies USING INDEX replies_user_idx/.test(d)).length, plan.join('\n')).toBe(2);
      });
    });
  }
});
