import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { createComment } from '../comments/comments';

let t: TestContext;
const bearer = (u: TestUser) => ({ authorization: `Bearer ${u.token}` });

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '0' } });
});
afterAll(() => t.close());

/** The stars REST shows on each of a business's reviews, by author. */
async function shownStars(businessId: string): Promise<Record<string, number | null>> {
  const res = await t.app.inject({ url: `/api/comment/${businessId}` });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(res.json<{ userId: string; authorRate: number | null }[]>().map((c) => [c.userId, c.authorRate]));
}

describe("a review's stars follow its author's rating of that business only (migration 0040)", () => {
  it('five fresh accounts, one with reviews of 40 other businesses: each star change moves only the rated business’s reviews (REST and tRPC)', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestUser(t.db, { firstName: `Fem${i}`, lastName: 'Prov' })));
    await establish(t.deps, people);
    const shop = insertBusiness(t.db, 'Stjärnbutiken');
    const others = Array.from({ length: 40 }, (_, i) => insertBusiness(t.db, `Annan butik ${i}`));
    const [prolific] = people;
    for (const businessId of others)
      await createComment(t.deps, prolific.actor, { businessId, text: `Omdöme om ${businessId}`, businessLocation: 'Lund', rate: 2 });
    for (const [i, u] of people.entries())
      await createComment(t.deps, u.actor, { businessId: shop, text: `Mitt omdöme nummer ${i}`, businessLocation: 'Lund', rate: 3 });
    expect(Object.values(await shownStars(shop))).toEqual([3, 3, 3, 3, 3]);

    // Each rates again, through both doors: their own review's stars move, no one else's.
    for (const [i, u] of people.entries()) {
      const rate = 5 - (i % 3);
      if (i % 2 === 0)
        expect((await t.app.inject({ method: 'POST', url: `/api/business/addRate/${shop}`, headers: bearer(u), payload: { rate } })).statusCode).toBe(200);
      else await callerFor(t.deps, u).business.rate({ id: shop, rate });
      const stars = await shownStars(shop);
      expect(stars[u.id]).toBe(rate);
      for (const later of people.slice(i + 1)) expect(stars[later.id]).toBe(3);
    }
    // The prolific rater's 40 other reviews keep their own stars.
    for (const businessId of others.slice(0, 5)) expect((await shownStars(businessId))[prolific.id]).toBe(2);
    // The business's numbers are the five ratings' (5, 4, 3, 5, 4).
    const page = (await t.app.inject({ url: `/api/business/${shop}` })).json<{ rate: number; ratingCount: number }>();
    expect(page.ratingCount).toBe(5);
    expect(page.rate).toBeCloseTo(21 / 5, 5);
  });
});
