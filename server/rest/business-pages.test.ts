import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses } from '../../db/schema';
import { newId } from '../lib/ids';
import { swedishSortKey } from '../lib/sv-sort-key';
import { titleSearchOf } from '../services/business/business';
import { resolveCategory } from '../services/business/categories';
import { writeBusinessSearch } from '../services/business/business-search';
import { createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

/**
 * REST `GET /api/business` answers one page whatever the site holds (issue 32.1): without
 * `limit` a page of 100 and the next page's cursor in X-Next-Cursor, so the reply and its time
 * do not grow with the number of businesses. Walking the cursors gives every business once.
 */

let t: TestContext;
let member: TestUser;

function addBusinesses(from: number, count: number) {
  const now = Date.now();
  const categoryId = resolveCategory(t.db, 'Livsmedel', 'Groceries', now);
  const ids = Array.from({ length: count }, () => newId());
  t.db
    .insert(businesses)
    .values(
      ids.map((id, i) => {
        const title = `Butik ${String(from + i).padStart(4, '0')}`;
        return {
          id,
          title,
          titleSearch: titleSearchOf(title),
          titleSort: swedishSortKey(title),
          categoryId,
          description: `${title} säljer mat.`,
          createdAt: now - i,
          updatedAt: now - i,
        };
      }),
    )
    .run();
  // As a script that writes businesses must: their rows in the search table (business-search.ts).
  writeBusinessSearch(t.db, ids);
}

type Page = { ids: string[]; next: string | undefined; bytes: number };

async function page(query: Record<string, string>, token?: string): Promise<Page> {
  const res = await t.app.inject({ url: '/api/business', query, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.statusCode).toBe(200);
  const next = res.headers['x-next-cursor'];
  return { ids: res.json<Array<{ _id: string }>>().map((b) => b._id), next: typeof next === 'string' ? next : undefined, bytes: res.rawPayload.length };
}

/** Every page from the first, following X-Next-Cursor. */
async function walk(query: Record<string, string>, token?: string): Promise<Page[]> {
  const pages = [await page(query, token)];
  while (pages.at(-1)!.next !== undefined) pages.push(await page({ ...query, cursor: pages.at(-1)!.next! }, token));
  return pages;
}

beforeAll(async () => {
  t = await createTestApp();
  member = await createTestUser(t.db);
  addBusinesses(0, 250);
}, 60_000);
afterAll(() => t.close());

describe('REST GET /api/business, a page at a time', () => {
  it('answers 100 without limit, with the next cursor, and its cursors walk every business once', async () => {
    const all = t.db
      .select({ id: businesses.id })
      .from(businesses)
      .all()
      .map((b) => b.id);
    for (const token of [undefined, member.token]) {
      for (const sort of ['name', 'rating', 'reviews', 'newest']) {
        const pages = await walk({ sort }, token);
        expect(pages.map((p) => p.ids.length)).toEqual([100, 100, all.length - 200]);
        expect(pages.map((p) => p.next)).toEqual(['100', '200', undefined]);
        const seen = pages.flatMap((p) => p.ids);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.toSorted()).toEqual(all.toSorted());
      }
    }
  });

  it('pages a search the same way, for a visitor and a member', async () => {
    for (const token of [undefined, member.token]) {
      const pages = await walk({ search: 'butik' }, token);
      expect(pages.map((p) => p.ids.length)).toEqual([100, 100, 50]);
      expect(new Set(pages.flatMap((p) => p.ids)).size).toBe(250);
    }
  });

  it('keeps a given limit, and the first page does not grow with the site', async () => {
    const small = await page({ limit: '24' });
    expect([small.ids.length, small.next]).toEqual([24, '24']);
    const before = await page({});
    addBusinesses(1000, 750);
    const after = await page({});
    expect([after.ids.length, after.next]).toEqual([100, '100']);
    // The same hundred-odd documents (titles of the same length): the same size within a few bytes.
    expect(Math.abs(after.bytes - before.bytes)).toBeLessThan(before.bytes * 0.05);
  });
});
