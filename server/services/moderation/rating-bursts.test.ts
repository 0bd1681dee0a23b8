import { eq, fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratingBursts, users } from '../../../db/schema';
import { bearer, callerFor, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { rateBusiness } from '../business/business-ratings';
import { insertBusiness } from '../../test/comment-fixtures';
import { createComment } from '../comments/comments';
import { ratingBurstQueries, resolveRatingBurst } from './rating-bursts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  // The numbers these tests were written for (the defaults are 3 in 24 h since issue 27).
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '1', RATING_BURST_RATINGS: '5', RATING_BURST_WINDOW: '1h' } });
  cast = await createCast(t.db);
});
afterAll(() => t.close());

/** `n` users created `ageMs` before `at` (the clock these tests move). */
async function accounts(n: number, at: number, ageMs: number): Promise<TestUser[]> {
  const made = await Promise.all(Array.from({ length: n }, () => createTestUser(t.db)));
  for (const u of made)
    t.db
      .update(users)
      .set({ createdAt: at - ageMs })
      .where(eq(users.id, u.id))
      .run();
  return made;
}
const openBursts = (businessId: string) =>
  t.db
    .select()
    .from(ratingBursts)
    .where(eq(ratingBursts.businessId, businessId))
    .all()
    .filter((b) => b.resolvedAt === null);

describe('rating bursts (docs/product.md §11)', () => {
  it('five star ratings within an hour from week-old accounts, through both doors, put one entry in the queue', async () => {
    const shop = insertBusiness(t.db, 'Betygsbutiken');
    const young = await accounts(6, Date.now(), 2 * DAY);
    const [old] = await accounts(1, Date.now(), 30 * DAY);
    // Four young accounts and an old one: not yet.
    for (const u of young.slice(0, 2))
      expect((await t.app.inject({ method: 'POST', url: `/api/business/addRate/${shop}`, headers: bearer(u), payload: { rate: 5 } })).statusCode).toBe(200);
    for (const u of [young[2], young[3], old]) await callerFor(t.deps, u).business.rate({ id: shop, rate: 5 });
    expect(openBursts(shop)).toEqual([]);
    // The fifth, with a review that carries the star rating.
    await createComment(t.deps, young[4].actor, { businessId: shop, text: 'Bästa stället!', businessLocation: 'Lund', rate: 5 });
    expect(openBursts(shop)).toHaveLength(1);
    expect(openBursts(shop)[0].ratings).toBe(5);
    // A sixth, and a young rater changing their stars: the same entry, counted again, no duplicate.
    await callerFor(t.deps, young[5]).business.rate({ id: shop, rate: 5 });
    await callerFor(t.deps, young[0]).business.rate({ id: shop, rate: 4 });
    expect(openBursts(shop)).toHaveLength(1);
    expect(openBursts(shop)[0].ratings).toBe(6);

    // The admin sees it in the queue through both doors, with the young raters; nobody else does.
    const page = await callerFor(t.deps, cast.admin).moderation.ratingBursts({ status: 'open' });
    const entry = page.items.find((b) => b.businessId === shop)!;
    expect(entry).toMatchObject({ businessTitle: 'Betygsbutiken', ratings: 6, status: 'open', resolvedAt: null });
    expect(entry.raters.map((r) => r.userId).sort()).toEqual(young.map((u) => u.id).sort());
    expect(entry.raters.find((r) => r.userId === young[0].id)?.rate).toBe(4);
    const rest = await t.app.inject({ url: '/api/rating-bursts', headers: bearer(cast.admin) });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().map((b: { _id: string }) => b._id)).toContain(entry._id);
    for (const who of [null, cast.owner, cast.banned]) {
      expect([401, 403]).toContain((await t.app.inject({ url: '/api/rating-bursts', headers: who ? bearer(who) : {} })).statusCode);
      expect([401, 403]).toContain(
        (await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/dismiss`, headers: who ? bearer(who) : {} })).statusCode,
      );
      await expect(callerFor(t.deps, who).moderation.ratingBursts({ status: 'open' })).rejects.toMatchObject({
        code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/),
      });
      await expect(callerFor(t.deps, who).moderation.dismissRatingBurst({ id: entry._id })).rejects.toMatchObject({
        code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/),
      });
    }

    // Dismissed (the older name of accept) over REST: out of the open queue, into the log; a second decision is a 404.
    const dismissed = await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/dismiss`, headers: bearer(cast.admin) });
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toEqual({ message: 'The ratings were accepted and now count.', action: 'accept' });
    expect(openBursts(shop)).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/dismiss`, headers: bearer(cast.admin) })).statusCode).toBe(404);
    const resolved = await callerFor(t.deps, cast.admin).moderation.ratingBursts({ status: 'resolved' });
    expect(resolved.items[0]).toMatchObject({ _id: entry._id, status: 'resolved', resolution: 'accept' });
    const log = (await callerFor(t.deps, cast.admin).moderation.log({ action: 'acceptBurst' })).items;
    expect(log[0]).toMatchObject({ targetKind: 'business', targetId: shop, excerpt: 'Betygsbutiken', actorName: 'Alma Admin' });
  });

  it('counts only ratings inside the window, from accounts younger than 7 days, and after the last dismissal (injected clock)', async () => {
    const shop = insertBusiness(t.db, 'Klockbutiken');
    let clock = Date.UTC(2026, 10, 20, 12);
    const young = await accounts(12, clock, 6 * DAY);
    const rate = (u: TestUser, stars = 5) => rateBusiness(t.deps, u.actor, shop, stars, clock);

    // Five young ratings 20 minutes apart: never five within one hour.
    for (const u of young.slice(0, 5)) {
      await rate(u);
      clock += 20 * 60 * 1000;
    }
    expect(openBursts(shop)).toEqual([]);
    clock += 2 * HOUR;

    // Accounts older than RATING_BURST_ACCOUNT_AGE (7 days) at the time of rating do not count.
    const seasoned = await accounts(5, clock, 8 * DAY);
    for (const u of seasoned) await rate(u);
    expect(openBursts(shop)).toEqual([]);

    // Five young ones within the hour: one entry, its window from the first to the last.
    const start = clock;
    for (const u of young.slice(5, 10)) {
      await rate(u);
      clock += 60 * 1000;
    }
    const [burst] = openBursts(shop);
    expect(burst).toMatchObject({ ratings: 5, firstAt: start, lastAt: clock - 60 * 1000, detectedAt: clock - 60 * 1000 });

    // Dismissed; the same ratings never raise it again, new ones after the dismissal do.
    await resolveRatingBurst(t.deps, cast.admin.actor, { id: burst.id, action: 'accept' }, clock);
    clock += 60 * 1000;
    await rate(young[10]);
    await rate(young[11]);
    expect(openBursts(shop)).toEqual([]);
    for (const u of young.slice(0, 3)) await rate(u, 4);
    const [second] = openBursts(shop);
    expect(second.id).not.toBe(burst.id);
    expect(second.ratings).toBe(5);
    expect(t.db.select().from(ratingBursts).where(eq(ratingBursts.businessId, shop)).all()).toHaveLength(2);
  });

  it('is off with SPAM_RULES=0', async () => {
    const off = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '0' } });
    try {
      const shop = insertBusiness(off.db);
      for (let i = 0; i < 6; i++) await rateBusiness(off.deps, (await createTestUser(off.db)).actor, shop, 5);
      expect(off.db.select().from(ratingBursts).all()).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('pages the open entries oldest first by cursor (both doors)', async () => {
    const pager = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '1', RATING_BURST_RATINGS: '5', RATING_BURST_WINDOW: '1h' } });
    try {
      const admin = await createTestUser(pager.db, { isAdmin: true });
      const raters = await Promise.all(Array.from({ length: 5 }, () => createTestUser(pager.db)));
      const shops = [0, 1, 2].map((i) => insertBusiness(pager.db, `Butik ${i}`));
      let clock = Date.now();
      for (const shop of shops) {
        for (const u of raters) await rateBusiness(pager.deps, u.actor, shop, 5, clock++);
      }
      const first = await callerFor(pager.deps, admin).moderation.ratingBursts({ status: 'open', limit: 2 });
      expect(first.items.map((b) => b.businessId)).toEqual([shops[0], shops[1]]);
      const second = await callerFor(pager.deps, admin).moderation.ratingBursts({ status: 'open', limit: 2, cursor: first.nextCursor! });
      expect(second).toMatchObject({ items: [expect.objectContaining({ businessId: shops[2] })], nextCursor: null });
      const rest = await pager.app.inject({ url: '/api/rating-bursts?limit=1', headers: bearer(admin) });
      expect(rest.json().map((b: { businessId: string }) => b.businessId)).toEqual([shops[0]]);
      const next = await pager.app.inject({ url: `/api/rating-bursts?limit=2&cursor=${String(rest.headers['x-next-cursor'])}`, headers: bearer(admin) });
      expect(next.json().map((b: { businessId: string }) => b.businessId)).toEqual([shops[1], shops[2]]);
      expect(next.headers['x-next-cursor']).toBeUndefined();
      // Dismissed through tRPC: the open queue keeps the other two.
      expect(await callerFor(pager.deps, admin).moderation.dismissRatingBurst({ id: first.items[0]._id })).toEqual({ action: 'accept' });
      expect((await callerFor(pager.deps, admin).moderation.ratingBursts({ status: 'open' })).items.map((b) => b.businessId)).toEqual([shops[1], shops[2]]);
      await expect(callerFor(pager.deps, admin).moderation.dismissRatingBurst({ id: first.items[0]._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await pager.close();
    }
  });

  it("a held or banned rater's stars are not on their review (authorRate) until they count again, through both doors", async () => {
    const shop = insertBusiness(t.db, 'Stjärnbutiken');
    const young = await accounts(5, Date.now(), 2 * DAY);
    const reviews: string[] = [];
    for (const u of young)
      reviews.push((await createComment(t.deps, u.actor, { businessId: shop, text: 'Riktigt bra!', businessLocation: 'Lund', rate: 5 }))._id);
    const shown = async () => {
      const rest = (await t.app.inject({ url: `/api/comment/${shop}` })).json<Array<{ _id: string; authorRate: number | null }>>();
      const trpc = (await callerFor(t.deps, null).comments.byBusiness({ businessId: shop })).items;
      const byId = (list: Array<{ _id: string; authorRate: number | null }>) => reviews.map((id) => list.find((c) => c._id === id)?.authorRate);
      expect(byId(trpc)).toEqual(byId(rest));
      return byId(rest);
    };
    // The fifth rating made a burst: all five are held, so no review shows its stars, nor sorts by them.
    const [burst] = openBursts(shop);
    expect(burst.ratings).toBe(5);
    expect(await shown()).toEqual([null, null, null, null, null]);
    const rated = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop, stars: [5] });
    expect(rated.items).toEqual([]);
    // A held rater changing their stars still shows none.
    await callerFor(t.deps, young[1]).business.rate({ id: shop, rate: 4 });
    expect((await shown())[1]).toBeNull();
    // Accepted: the stars count and show.
    await resolveRatingBurst(t.deps, cast.admin.actor, { id: burst.id, action: 'accept' });
    expect(await shown()).toEqual([5, 4, 5, 5, 5]);
    // A ban takes one rater's stars off their review; the unban puts them back.
    await callerFor(t.deps, cast.admin).users.setFlags({ userId: young[2].id, isBanned: true, banReason: 'Reklam' });
    expect(await shown()).toEqual([5, 4, null, 5, 5]);
    await callerFor(t.deps, cast.admin).users.setFlags({ userId: young[2].id, isBanned: false });
    expect(await shown()).toEqual([5, 4, 5, 5, 5]);
  });

  it("the check walks the business's recent ratings on an index, each rater by primary key (EXPLAIN QUERY PLAN)", () => {
    const sqlite = t.db.$client;
    const shop = insertBusiness(t.db, 'Planbutiken');
    // Enough rows that a scan would show: 3000 users, each rating the shop.
    const now = Date.now();
    sqlite.transaction(() => {
      sqlite
        .prepare(
          `with recursive n(i) as (select 0 union all select i + 1 from n where i < 2999)
           insert into users (id, email, first_name, last_name, created_at, updated_at)
           select 'plan' || i, 'plan' || i || '@example.com', 'P', 'Q', :now - i * 3600000, :now from n`,
        )
        .run({ now });
      sqlite
        .prepare(
          `insert into business_ratings (business_id, user_id, rate, created_at, updated_at)
           select :shop, id, 4, created_at, created_at from users where id like 'plan%'`,
        )
        .run({ shop, now });
    })();
    const plan = (name: keyof ReturnType<typeof ratingBurstQueries>, values: Record<string, unknown>) => {
      const { sql, params } = ratingBurstQueries(t.db)[name].toSQL();
      return (sqlite.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as Array<{ detail: string }>).map((r) => r.detail);
    };
    const young = plan('young', { businessId: shop, since: now - HOUR, bornAfter: now - 7 * DAY });
    expect(young).toContain('SEARCH business_ratings USING INDEX business_ratings_recent_idx (business_id=? AND updated_at>?)');
    expect(young.some((d) => /^SEARCH users USING INDEX sqlite_autoindex_users_\d \(id=\?\)$/.test(d))).toBe(true);
    expect(young.filter((d) => d.startsWith('SCAN') || d.includes('TEMP B-TREE'))).toEqual([]);
    expect(plan('open', { businessId: shop })).toEqual([
      expect.stringMatching(/^SEARCH rating_bursts USING (COVERING )?INDEX rating_bursts_(open|business)_idx \(business_id=\?/),
    ]);
    // Not covering since the table holds bursts of posts' emoji ratings too (comment_id, reply_id): a business has few.
    expect(plan('lastResolved', { businessId: shop })).toEqual(['SEARCH rating_bursts USING INDEX rating_bursts_business_idx (business_id=?)']);
    expect(plan('joined', { userId: 'plan1' })[0]).toMatch(/^SEARCH users USING INDEX sqlite_autoindex_users_\d \(id=\?\)$/);
  });
});
