import { fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { createSession, sessionQueries, validateSessionToken } from './sessions';

const USERS = 2_000;

let t: TestContext;
let token = '';

/** Many users with a session each, bulk-inserted, and one real session made by createSession. */
beforeAll(async () => {
  t = await createTestApp();
  const sqlite = t.db.$client;
  const now = Date.now();
  const counter = `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${USERS - 1})`;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `${counter} insert into users (id, email, first_name, last_name, created_at, updated_at) select 'u' || i, 'bulk' || i || '@example.com', 'Namn', 'Efternamn', :now, :now from n`,
      )
      .run({ now });
    sqlite
      .prepare(`${counter} insert into sessions (id, user_id, secret_hash, created_at, expires_at) select 's' || i, 'u' || i, 'x', :now, :now + 1e9 from n`)
      .run({ now });
  })();
  token = createSession(t.db, 'u7', now).token;
}, 60_000);
afterAll(() => t.close());

function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): string[] {
  const { sql, params } = query.toSQL();
  return (t.db.$client.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as { detail: string }[]).map((r) => r.detail);
}

describe(`the session lookup with ${USERS.toLocaleString('en')} sessions`, () => {
  it('binds the id as +? (keptParam), so SQLite does not compile the join again on every request', () => {
    expect(sessionQueries(t.db).byId.toSQL().sql).toMatch(/"sessions"\."id" = \+\?$/);
  });

  for (const analyzed of [false, true]) {
    it(`finds the session and its user by primary key ${analyzed ? 'after ANALYZE' : 'before statistics exist'}`, () => {
      if (analyzed) t.db.$client.exec('analyze');
      const plan = planOf(sessionQueries(t.db).byId, { id: 's5' });
      expect(plan).toEqual([
        expect.stringMatching(/^SEARCH sessions USING INDEX sqlite_autoindex_sessions_1 \(id=\?\)$/),
        expect.stringMatching(/^SEARCH users USING INDEX sqlite_autoindex_users_1 \(id=\?\)$/),
      ]);
    });
  }

  it('still answers with the session of the token given, and nothing for another secret', () => {
    expect(validateSessionToken(t.db, token)?.actor.id).toBe('u7');
    expect(validateSessionToken(t.db, `${token.split('.')[0]}.wrong`)).toBeNull();
  });
});
