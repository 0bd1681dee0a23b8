import { eq, fillPlaceholders, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessRatings, businesses, comments, users } from '../../../db/schema';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { rateBusiness } from '../business/business-ratings';
import { ratingTallyQueries } from '../comments/rating-tally';
import { createComment, getComment } from '../comments/comments';
import { listDirectory } from '../business/directory';
import { reportPost, resolveReports } from './reports';
import { setUserFlags } from '../accounts/users';
import { rateComment } from '../comments/comment-ratings';
import { deleteAccount } from '../accounts/accounts-delete';

const DAY = 24 * 60 * 60 * 1000;

/** Issue 27 items 1 and 2: numbers that a handful of throwaway accounts cannot move. */
let t: TestContext;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let author: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '1' } });
  admin = await createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true });
  moderator = await createTestUser(t.db, { firstName: 'Mats', lastName: 'Moderator', isModerator: true });
  member = await createTestUser(t.db, { firstName: 'Maja', lastName: 'Medlem' });
  author = await createTestUser(t.db, { firstName: 'Olle', lastName: 'Owner' });
  await establish(t.deps, [author]);
});
afterAll(() => t.close());

const fresh = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => createTestUser(t.db, { firstName: `Ny${i}`, lastName: 'Konto' })));
let written = 0;
/** The author's review; each text its own (the spam rules refuse a repeat). */
const review = async (text: string, business = insertBusiness(t.db)) =>
  (await createComment(t.deps, author.actor, { businessId: business, text: `${text} (${++written})`, businessLocation: 'Lund' }))._id;
const isHidden = (id: string) => t.db.select({ at: comments.hiddenAt }).from(comments).where(eq(comments.id, id)).get()?.at !== null;

describe('reports weigh by who makes them', () => {
  it('three new accounts cannot hide a review, however long they wait without a public post of their own (REST and tRPC)', async () => {
    const business = insertBusiness(t.db, 'Utsatta butiken');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await review(`Recension nummer ${i} om butiken`, business));
    const puppets = await fresh(3);
    const started = performance.now();
    for (const id of ids) {
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/comment/report/${id}`, headers: bearer(puppets[0]), payload: { reason: 'spam' } })).json(),
      ).toMatchObject({
        result: 'created',
        hidden: false,
      });
      expect(await callerFor(t.deps, puppets[1]).moderation.reportComment({ id, reason: 'fake' })).toEqual({ result: 'created', hidden: false });
      expect(await reportPost(t.deps, puppets[2].actor, 'comment', { id, reason: 'offensive' })).toEqual({ result: 'created', hidden: false });
    }
    const elapsed = performance.now() - started;
    expect(ids.filter(isHidden)).toEqual([]);
    // Measured for the issue: 15 reports from three new accounts took this long and hid nothing.
    console.log(`trust: 3 new accounts, 15 reports in ${elapsed.toFixed(0)} ms, posts hidden: ${ids.filter(isHidden).length}/5`);

    // The reports still reach the queue, marked as from new accounts.
    const queue = await callerFor(t.deps, moderator).moderation.reports({ status: 'open', limit: 100 });
    const group = queue.items.find((g) => g._id === ids[0])!;
    expect(group.reports).toHaveLength(3);
    expect(group.reports.every((r) => r.established === false)).toBe(true);
    const rest = (await t.app.inject({ url: '/api/reports?limit=100', headers: bearer(admin) })).json<{ _id: string; reports: { established: boolean }[] }[]>();
    expect(rest.find((g) => g._id === ids[0])?.reports.map((r) => r.established)).toEqual([false, false, false]);

    // Four days later (past REPORT_TRUST_AGE) without a public post older than a day: still nothing.
    const later = Date.now() + 4 * DAY;
    const id = await review('En femte vecka, en ny recension', business);
    for (const p of puppets)
      t.db
        .update(users)
        .set({ createdAt: Date.now() - 4 * DAY })
        .where(eq(users.id, p.id))
        .run();
    for (const p of puppets) await reportPost(t.deps, p.actor, 'comment', { id, reason: 'spam' }, later);
    expect(isHidden(id)).toBe(false);
  });

  it('established reporters hide a post; once dismissed, the same reporters cannot hide it again', async () => {
    const trusted = await fresh(4);
    await establish(t.deps, trusted);
    const id = await review('Det här är en recension som rapporteras');
    for (const p of trusted.slice(0, 2)) await reportPost(t.deps, p.actor, 'comment', { id, reason: 'spam' });
    expect(isHidden(id)).toBe(false);
    expect(await reportPost(t.deps, trusted[2].actor, 'comment', { id, reason: 'spam' })).toEqual({ result: 'created', hidden: true });
    expect(
      (await callerFor(t.deps, moderator).moderation.reports({ status: 'open', limit: 100 })).items
        .find((g) => g._id === id)
        ?.reports.every((r) => r.established),
    ).toBe(true);

    await resolveReports(t.deps, moderator.actor, { id, action: 'dismiss' });
    expect(isHidden(id)).toBe(false);
    // The same three report again: it stays up. A fourth established reporter alone is one, not three.
    for (const p of trusted.slice(0, 3)) expect(await reportPost(t.deps, p.actor, 'comment', { id, reason: 'offensive' })).toMatchObject({ hidden: false });
    await reportPost(t.deps, trusted[3].actor, 'comment', { id, reason: 'offensive' });
    expect(isHidden(id)).toBe(false);
  });

  it("a banned reporter's reports stop counting: the post they helped hide is shown again", async () => {
    const trusted = await fresh(3);
    await establish(t.deps, trusted);
    const id = await review('En recension som tre personer inte gillar');
    for (const p of trusted) await reportPost(t.deps, p.actor, 'comment', { id, reason: 'spam' });
    expect(isHidden(id)).toBe(true);
    const banned = await t.app.inject({ method: 'PUT', url: `/api/users/update/${trusted[0].id}`, headers: bearer(admin), payload: { isBanned: true } });
    expect(banned.statusCode).toBe(200);
    expect(isHidden(id)).toBe(false);
    expect(getComment(t.deps, null, id)._id).toBe(id);
  });
});

describe('moderators', () => {
  it('an admin appoints and relieves a moderator through both doors; the log records it; only admins may', async () => {
    const candidate = await createTestUser(t.db, { firstName: 'Kim', lastName: 'Kandidat' });
    for (const who of [null, member, moderator]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/users/update/${candidate.id}`,
        headers: who ? bearer(who) : {},
        payload: { isModerator: true },
      });
      expect([401, 403]).toContain(res.statusCode);
      await expect(callerFor(t.deps, who).users.setFlags({ userId: candidate.id, isModerator: true })).rejects.toMatchObject({
        code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/),
      });
    }
    const on = await t.app.inject({ method: 'PUT', url: `/api/users/update/${candidate.id}`, headers: bearer(admin), payload: { isModerator: 'true' } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ isModerator: true, isAdmin: false });
    expect(await callerFor(t.deps, admin).users.setFlags({ userId: candidate.id, isModerator: false })).toMatchObject({ isModerator: false });
    const log = (await callerFor(t.deps, moderator).moderation.log({ targetKind: 'user' })).items.filter((e) => e.targetId === candidate.id);
    expect(log.map((e) => e.action)).toEqual(['moderatorOff', 'moderatorOn']);
    // A ban relieves a moderator too.
    await setUserFlags(t.deps, admin.actor, candidate.id, { isModerator: true });
    expect(await setUserFlags(t.deps, admin.actor, candidate.id, { isBanned: true })).toMatchObject({ isBanned: true, isModerator: false });
  });

  it('every moderation route, for a visitor, a member, a moderator and an admin (REST and tRPC)', async () => {
    const target = await createTestUser(t.db, { firstName: 'Tove', lastName: 'Target' });
    const business = insertBusiness(t.db, 'Rättighetsbutiken');
    const reported = async () => {
      const id = await review('En rapporterad recension', business);
      await reportPost(t.deps, member.actor, 'comment', { id, reason: 'spam' });
      return id;
    };
    const burst = async () => {
      const shop = insertBusiness(t.db);
      for (const u of await fresh(3)) await rateBusiness(t.deps, u.actor, shop, 5);
      return (await callerFor(t.deps, admin).moderation.ratingBursts({ status: 'open', limit: 100 })).items.find((b) => b.businessId === shop)!._id;
    };
    type Check = { name: string; moderator: boolean; rest: (who: TestUser | null) => Promise<number>; trpc: (who: TestUser | null) => Promise<unknown> };
    const inject = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser | null, payload?: object) =>
      (await t.app.inject({ method, url, headers: who ? bearer(who) : {}, ...(payload ? { payload } : {}) })).statusCode;
    const checks: Check[] = [
      {
        name: 'reports',
        moderator: true,
        rest: (w) => inject('GET', '/api/reports', w),
        trpc: (w) => callerFor(t.deps, w).moderation.reports({ status: 'open' }),
      },
      {
        name: 'resolve',
        moderator: true,
        rest: async (w) => inject('POST', `/api/reports/${await reported()}/resolve`, w, { action: 'dismiss' }),
        trpc: async (w) => callerFor(t.deps, w).moderation.resolve({ id: await reported(), action: 'remove', reason: 'spam' }),
      },
      {
        name: 'remove-posts',
        moderator: true,
        rest: (w) => inject('POST', `/api/users/${target.id}/remove-posts`, w, {}),
        trpc: (w) => callerFor(t.deps, w).moderation.removeAllPosts({ userId: target.id }),
      },
      { name: 'mod-log', moderator: true, rest: (w) => inject('GET', '/api/mod-log', w), trpc: (w) => callerFor(t.deps, w).moderation.log({}) },
      {
        name: 'rating-bursts',
        moderator: true,
        rest: (w) => inject('GET', '/api/rating-bursts', w),
        trpc: (w) => callerFor(t.deps, w).moderation.ratingBursts({ status: 'open' }),
      },
      {
        name: 'accept burst',
        moderator: true,
        rest: async (w) => inject('POST', `/api/rating-bursts/${await burst()}/accept`, w),
        trpc: async (w) => callerFor(t.deps, w).moderation.resolveRatingBurst({ id: await burst(), action: 'accept' }),
      },
      {
        name: 'reject burst',
        moderator: true,
        rest: async (w) => inject('POST', `/api/rating-bursts/${await burst()}/reject`, w),
        trpc: async (w) => callerFor(t.deps, w).moderation.resolveRatingBurst({ id: await burst(), action: 'reject' }),
      },
      {
        name: 'comment moderation list',
        moderator: true,
        rest: (w) => inject('GET', '/api/reports?status=resolved', w),
        trpc: (w) => callerFor(t.deps, w).comments.moderation({}),
      },
      {
        name: 'remove a comment',
        moderator: true,
        rest: async (w) => inject('DELETE', `/api/comment/${await review('Ska bort', business)}`, w),
        trpc: async (w) => callerFor(t.deps, w).comments.remove({ id: await review('Ska också bort', business) }),
      },
      { name: 'digest (admins)', moderator: false, rest: (w) => inject('GET', '/api/mod-digest', w), trpc: (w) => callerFor(t.deps, w).moderation.digest() },
      { name: 'users (admins)', moderator: false, rest: (w) => inject('GET', '/api/users', w), trpc: (w) => callerFor(t.deps, w).users.list() },
      {
        name: 'ban (admins)',
        moderator: false,
        rest: (w) => inject('PUT', `/api/users/update/${target.id}`, w, { isBanned: true }),
        trpc: (w) => callerFor(t.deps, w).users.setFlags({ userId: target.id, isBanned: false }),
      },
      {
        name: 'delete a business (admins)',
        moderator: false,
        rest: (w) => inject('DELETE', `/api/business/delete/${insertBusiness(t.db)}`, w),
        trpc: (w) => callerFor(t.deps, w).business.remove({ id: insertBusiness(t.db) }),
      },
    ];
    const denied = expect.objectContaining({ code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/) });
    for (const c of checks) {
      for (const [who, allowed] of [
        [null, false],
        [member, false],
        [moderator, c.moderator],
        [admin, true],
      ] as const) {
        const label = `${c.name} as ${who ? `${who.actor.firstName}` : 'visitor'}`;
        const status = await c.rest(who);
        if (allowed) expect(status, label).toBeLessThan(300);
        else expect([401, 403], label).toContain(status);
        if (allowed) await expect(c.trpc(who), label).resolves.not.toThrow();
        else await expect(c.trpc(who), label).rejects.toEqual(denied);
      }
    }
  });
});

describe('rating bursts hold their ratings', () => {
  /** The directory's rank by rating of a business (1 = first). */
  const rankOf = (id: string) => listDirectory(t.deps, null, { sort: 'rating' }).findIndex((c) => c.id === id) + 1;
  const figures = (id: string) => {
    const b = t.db.select().from(businesses).where(eq(businesses.id, id)).get()!;
    return { ratingSum: b.ratingSum, ratingCount: b.ratingCount, stars: [b.stars1, b.stars2, b.stars3, b.stars4, b.stars5] };
  };
  /** The recount check: each business's kept columns equal its counted ratings. */
  const recount = () =>
    t.db.all<{ id: string }>(sql`
      select b.id from businesses b
      where b.rating_count != (select count(*) from business_ratings r where r.business_id = b.id and r.counted)
         or b.rating_sum != (select coalesce(sum(rate), 0) from business_ratings r where r.business_id = b.id and r.counted)
         or b.stars_5 != (select count(*) from business_ratings r where r.business_id = b.id and r.counted and r.rate = 5)
         or b.stars_1 != (select count(*) from business_ratings r where r.business_id = b.id and r.counted and r.rate = 1)`);

  for (const n of [3, 5, 7]) {
    it(`${n} fresh accounts rating a business five stars move neither its numbers nor its rank until a moderator accepts them`, async () => {
      const low = insertBusiness(t.db, `Sista butiken ${n}`);
      const rival = insertBusiness(t.db, `Rivalen ${n}`);
      const regulars = await fresh(4);
      for (const u of regulars)
        t.db
          .update(users)
          .set({ createdAt: Date.now() - 60 * DAY })
          .where(eq(users.id, u.id))
          .run();
      for (const u of regulars) {
        await rateBusiness(t.deps, u.actor, low, 1);
        await rateBusiness(t.deps, u.actor, rival, 4);
      }
      const before = { low: figures(low), rank: rankOf(low), rivalRank: rankOf(rival) };
      expect(before.rank).toBeGreaterThan(before.rivalRank);

      const puppets = await fresh(n);
      for (const [i, u] of puppets.entries()) {
        // Through both doors, and with a review carrying the stars.
        if (i % 3 === 0) await t.app.inject({ method: 'POST', url: `/api/business/addRate/${low}`, headers: bearer(u), payload: { rate: 5 } });
        else if (i % 3 === 1) await callerFor(t.deps, u).business.rate({ id: low, rate: 5 });
        else await createComment(t.deps, u.actor, { businessId: low, text: 'Helt fantastiskt ställe!', businessLocation: 'Lund', rate: 5 });
      }
      expect(figures(low)).toEqual(before.low);
      expect(rankOf(low)).toBe(before.rank);
      expect(recount()).toEqual([]);
      // The raters see their own stars; the page says how many wait, through both doors.
      expect((await callerFor(t.deps, puppets[0]).business.byId({ id: low })).myRate).toBe(5);
      expect((await callerFor(t.deps, null).business.byId({ id: low })).heldRatings).toBe(n);
      const page = (await t.app.inject({ url: `/api/business/${low}` })).json<{
        rate: number;
        ratingCount: number;
        heldRatings: number;
        starCounts: number[];
      }>();
      expect(page).toMatchObject({ rate: 1, ratingCount: 4, heldRatings: n, starCounts: [4, 0, 0, 0, 0] });

      // A moderator accepts: now they count (and the page stops saying they wait).
      const [entry] = (await callerFor(t.deps, moderator).moderation.ratingBursts({ status: 'open', limit: 100 })).items.filter((b) => b.businessId === low);
      expect(entry.raters.map((r) => r.userId).sort()).toEqual(puppets.map((u) => u.id).sort());
      expect((await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/accept`, headers: bearer(moderator) })).statusCode).toBe(200);
      expect(figures(low)).toEqual({ ratingSum: 4 + 5 * n, ratingCount: 4 + n, stars: [4, 0, 0, 0, n] });
      expect((await callerFor(t.deps, null).business.byId({ id: low })).heldRatings).toBe(0);
      expect(recount()).toEqual([]);
    });
  }

  it('rejected ratings stay out, changed or not; their raters keep seeing them', async () => {
    const shop = insertBusiness(t.db, 'Avvisade butiken');
    const puppets = await fresh(3);
    for (const u of puppets) await rateBusiness(t.deps, u.actor, shop, 5);
    const [entry] = (await callerFor(t.deps, admin).moderation.ratingBursts({ status: 'open', limit: 100 })).items.filter((b) => b.businessId === shop);
    expect(await callerFor(t.deps, moderator).moderation.resolveRatingBurst({ id: entry._id, action: 'reject' })).toEqual({ action: 'reject' });
    await rateBusiness(t.deps, puppets[0].actor, shop, 4);
    expect(figures(shop)).toEqual({ ratingSum: 0, ratingCount: 0, stars: [0, 0, 0, 0, 0] });
    expect((await callerFor(t.deps, puppets[0]).business.byId({ id: shop })).myRate).toBe(4);
    expect((await callerFor(t.deps, null).business.byId({ id: shop })).heldRatings).toBe(0);
    expect((await callerFor(t.deps, moderator).moderation.log({ action: 'rejectBurst' })).items[0]).toMatchObject({
      targetId: shop,
      actorName: 'Mats Moderator',
    });
    expect(recount()).toEqual([]);
  });

  it("deleting another rater's account recounts the figures without the held ratings", async () => {
    const shop = insertBusiness(t.db, 'Raderade butiken');
    const [regular] = await fresh(1);
    t.db
      .update(users)
      .set({ createdAt: Date.now() - 60 * DAY })
      .where(eq(users.id, regular.id))
      .run();
    await rateBusiness(t.deps, regular.actor, shop, 2);
    const [leaving] = await fresh(1);
    t.db
      .update(users)
      .set({ createdAt: Date.now() - 60 * DAY })
      .where(eq(users.id, leaving.id))
      .run();
    await rateBusiness(t.deps, leaving.actor, shop, 3);
    for (const u of await fresh(3)) await rateBusiness(t.deps, u.actor, shop, 5);
    expect(figures(shop)).toMatchObject({ ratingSum: 5, ratingCount: 2 });
    await deleteAccount(t.deps, leaving.actor, leaving.id);
    expect(figures(shop)).toEqual({ ratingSum: 2, ratingCount: 1, stars: [0, 1, 0, 0, 0] });
    expect(recount()).toEqual([]);
  });

  it('banning a user takes their star ratings out of every average; unbanning puts them back', async () => {
    const [shop, other] = [insertBusiness(t.db, 'Bannbutiken'), insertBusiness(t.db)];
    const [rater, fan] = await fresh(2);
    for (const u of [rater, fan])
      t.db
        .update(users)
        .set({ createdAt: Date.now() - 60 * DAY })
        .where(eq(users.id, u.id))
        .run();
    await rateBusiness(t.deps, rater.actor, shop, 1);
    await rateBusiness(t.deps, rater.actor, other, 2);
    await rateBusiness(t.deps, fan.actor, shop, 5);
    expect(figures(shop)).toMatchObject({ ratingSum: 6, ratingCount: 2 });
    const reviewId = await review('En recension med emoji-betyg');
    await rateComment(t.deps, rater.actor, { id: reviewId, rate: 1 });
    await rateComment(t.deps, fan.actor, { id: reviewId, rate: 4 });
    expect(getComment(t.deps, null, reviewId)).toMatchObject({ rate: 2.5, ratingCount: 2 });
    await setUserFlags(t.deps, admin.actor, rater.id, { isBanned: true });
    expect(figures(shop)).toEqual({ ratingSum: 5, ratingCount: 1, stars: [0, 0, 0, 0, 1] });
    expect(figures(other)).toMatchObject({ ratingSum: 0, ratingCount: 0 });
    expect(t.db.select().from(businessRatings).where(eq(businessRatings.userId, rater.id)).all()).toHaveLength(2);
    expect(recount()).toEqual([]);
    // Their emoji rating of a review leaves its average too.
    expect(getComment(t.deps, null, reviewId)).toMatchObject({ rate: 4, ratingCount: 1 });
    await callerFor(t.deps, admin).users.setFlags({ userId: rater.id, isBanned: false });
    expect(getComment(t.deps, null, reviewId)).toMatchObject({ rate: 2.5, ratingCount: 2 });
    expect(figures(shop)).toEqual({ ratingSum: 6, ratingCount: 2, stars: [1, 0, 0, 0, 1] });
    expect(figures(other)).toMatchObject({ ratingSum: 2, ratingCount: 1 });
    expect(recount()).toEqual([]);
  });
});

describe('query plans of the counted-rating moves (EXPLAIN QUERY PLAN)', () => {
  it('a ban, an unban and an accepted burst each walk an index, never the ratings table', () => {
    const sqlite = t.db.$client;
    const plan = (name: keyof ReturnType<typeof ratingTallyQueries>, values: Record<string, unknown>) => {
      const { sql: text, params } = ratingTallyQueries(t.db)[name].toSQL();
      return (sqlite.prepare(`explain query plan ${text}`).all(...fillPlaceholders(params, values)) as Array<{ detail: string }>).map((r) => r.detail);
    };
    const scans = (details: string[]) => details.filter((d) => /^SCAN (business_ratings|r)\b/.test(d));
    const counted = plan('userCounted', { userId: 'u' });
    expect(counted.join('\n')).toMatch(/business_ratings_user_idx/);
    expect(scans(counted)).toEqual([]);
    const returning = plan('userReturning', { userId: 'u' });
    expect(returning.join('\n')).toMatch(/business_ratings_user_idx/);
    expect(scans(returning)).toEqual([]);
    const releasable = plan('releasable', { burstId: 'b' });
    expect(releasable.join('\n')).toMatch(/business_ratings_held_idx/);
    expect(scans(releasable)).toEqual([]);
  });
});
