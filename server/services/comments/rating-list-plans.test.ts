import { fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentRatings, replyRatings } from '../../../db/schema';
import { insertBusiness } from '../../test/comment-fixtures';
import { createTestApp, type TestContext } from '../../test/helpers';
import { newestRatings, RATINGS_LIST_CAP, ratingLists } from './comment-ratings';

const COMMENTS = 200;
const RATERS = 300;

let t: TestContext;

/** Comments each rated by every rater (60,000 ratings, bulk-inserted), one reply rated likewise. */
beforeAll(async () => {
  t = await createTestApp();
  const sqlite = t.db.$client;
  const business = insertBusiness(t.db, 'Butik');
  const now = Date.now();
  const counter = (n: number) => `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1})`;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `${counter(RATERS)} insert into users (id, email, first_name, last_name, created_at, updated_at)
         select 'u' || i, 'bulk' || i || '@example.com', 'Namn', 'Efternamn', :now, :now from n`,
      )
      .run({ now });
    sqlite
      .prepare(
        `${counter(COMMENTS)} insert into comments (id, business_id, user_id, business_location, text, created_at, updated_at)
         select 'c' || i, :business, 'u0', 'Lund', 'Kommentar ' || i, :now, :now from n`,
      )
      .run({ now, business });
    sqlite
      .prepare(
        `insert into replies (id, comment_id, business_id, user_id, text, created_at, updated_at) values ('r0', 'c0', :business, 'u0', 'Svar', :now, :now)`,
      )
      .run({ now, business });
    // Rater i rated at now + i: u299 is the newest on every post, u0 the oldest.
    sqlite
      .prepare(
        `${counter(COMMENTS * RATERS)} insert into comment_ratings (comment_id, user_id, rate, created_at)
         select 'c' || (i / ${RATERS}), 'u' || (i % ${RATERS}), 1 + i % 5, :now + i % ${RATERS} from n`,
      )
      .run({ now });
    sqlite
      .prepare(`${counter(RATERS)} insert into reply_ratings (reply_id, user_id, rate, created_at) select 'r0', 'u' || i, 1 + i % 5, :now + i from n`)
      .run({ now });
  })();
}, 120_000);
afterAll(() => t.close());

function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): string[] {
  const { sql, params } = query.toSQL();
  return (t.db.$client.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as { detail: string }[]).map((r) => r.detail);
}

describe(`a post's newest ratings (REST ratings lists), ${(COMMENTS * RATERS).toLocaleString('en')} ratings`, () => {
  const kinds = [
    { name: 'comment', kind: { ratings: commentRatings, postId: commentRatings.commentId }, index: 'comment_ratings_newest_idx', column: 'comment_id' },
    { name: 'reply', kind: { ratings: replyRatings, postId: replyRatings.replyId }, index: 'reply_ratings_newest_idx', column: 'reply_id' },
  ] as const;

  for (const { name, kind, index, column } of kinds) {
    it(`binds the ${name}'s id as +? (keptParam), so SQLite does not compile the list again on every run`, () => {
      expect(newestRatings(t.db, kind).toSQL().sql).toMatch(new RegExp(`"${column}" = \\+\\? and "${name}_ratings"."counted" = \\? *\\) order by`));
    });

    for (const analyzed of [false, true]) {
      it(`walks ${index} newest first, without a sort, ${analyzed ? 'after ANALYZE' : 'before statistics exist'}`, () => {
        if (analyzed) t.db.$client.exec('analyze');
        expect(planOf(newestRatings(t.db, kind), { id: name === 'comment' ? 'c5' : 'r0' })).toEqual([
          // Covering since migration 0038: the list leaves out ratings that do not count (a
          // banned rater's) by the index's own `counted`, without reading a row of the table.
          `SEARCH ${name}_ratings USING COVERING INDEX ${index} (${column}=?)`,
        ]);
      });
    }
  }

  it("lists the newest RATINGS_LIST_CAP of each post, with the caller's own added when it is older", () => {
    const lists = ratingLists(t.db, 'comment', ['c1', 'c2'], 'u0');
    for (const id of ['c1', 'c2']) {
      const list = lists.get(id)!;
      expect(list).toHaveLength(RATINGS_LIST_CAP + 1);
      expect(list[0].userId).toBe(`u${RATERS - 1}`);
      expect(list.at(-1)).toEqual({ userId: 'u0', rate: 1 });
    }
    expect(ratingLists(t.db, 'reply', ['r0'], null).get('r0')).toHaveLength(RATINGS_LIST_CAP);
  });
});
