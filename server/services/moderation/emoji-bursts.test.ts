import { eq, fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentRatings, comments, ratingBursts, replies } from '../../../db/schema';
import { checkCounts } from '../../../scripts/bench/check';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { rateComment, rateReply } from '../comments/comment-ratings';
import { createComment, getComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { indexQueuedComments } from '../comments/comment-search';
import { setUserFlags } from '../accounts/users';
import { emojiBurstQueries, isYoungRater, listRatingBursts } from './rating-bursts';
import type { RatingBurst } from '../../../shared/schemas/moderation';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The integrity rule for emoji ratings (docs/product.md §11.1, "What is held out of the public
 * numbers"): 3–7 fresh throwaway accounts move neither a post's public average and count, nor
 * the feed's TOP RATED order, nor its author's reactions received, until a moderator accepts them.
 */
let t: TestContext;
let moderator: TestUser;
let admin: TestUser;
let author: TestUser;
let regulars: TestUser[];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '1' } });
  admin = await createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true });
  moderator = await createTestUser(t.db, { firstName: 'Mats', lastName: 'Moderator', isModerator: true });
  author = await createTestUser(t.db, { firstName: 'Olle', lastName: 'Författare' });
  regulars = await Promise.all([0, 1, 2, 3].map((i) => createTestUser(t.db, { firstName: `Stammis${i}`, lastName: 'Kund' })));
  await establish(t.deps, [author, ...regulars]);
});
afterAll(() => t.close());

const fresh = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => createTestUser(t.db, { firstName: `Ny${i}`, lastName: 'Konto' })));
let written = 0;
const businessOf = new Map<string, string>();
async function review(text = 'En recension att reagera på') {
  const businessId = insertBusiness(t.db);
  const id = (await createComment(t.deps, author.actor, { businessId, text: `${text} (${++written})`, businessLocation: 'Lund' }))._id;
  businessOf.set(id, businessId);
  return id;
}

/** A post's public numbers, through the service and both doors. */
async function numbers(id: string) {
  const service = getComment(t.deps, null, id);
  const trpc = await callerFor(t.deps, null).comments.byId({ id });
  const shown = { rate: service.rate, ratingCount: service.ratingCount, emojiCounts: service.emojiCounts };
  expect({ rate: trpc.rate, ratingCount: trpc.ratingCount, emojiCounts: trpc.emojiCounts }).toEqual(shown);
  // The business page's REST list: the same numbers, and its list of who reacted holds only counted ratings.
  const rest = (await t.app.inject({ url: `/api/comment/${businessOf.get(id)}` })).json<
    { _id: string; rate: number | null; ratingCount: number; ratings: unknown[] }[]
  >();
  const doc = rest.find((c) => c._id === id)!;
  expect({ rate: doc.rate, ratingCount: doc.ratingCount, listed: doc.ratings.length }).toEqual({
    rate: shown.rate,
    ratingCount: shown.ratingCount,
    listed: shown.ratingCount,
  });
  return shown;
}

/** The author's reactions received on their public profile, through both doors (they must agree). */
async function reactionsReceived() {
  const rest = (await t.app.inject({ url: `/api/users/${author.id}/profile` })).json<{ counts: { reactions: number } }>();
  const trpc = await callerFor(t.deps, null).users.profile({ id: author.id });
  expect(rest.counts.reactions).toBe(trpc.counts.reactions);
  return trpc.counts.reactions;
}

/** The TOP RATED feed's ids, through REST (GET /api/comment/most-rated) and tRPC, which must agree. */
async function topRated() {
  const rest = (await t.app.inject({ url: '/api/comment/most-rated' })).json<{ _id: string }[]>().map((c) => c._id);
  const trpc = (await callerFor(t.deps, null).comments.feed({ filter: 'topRated' })).items.map((c) => c._id);
  expect(rest).toEqual(trpc);
  return trpc;
}

/** The recount check of the bench (and of `scripts/bench/check.ts`): every column equals its counted rows. */
const recountMismatches = () => {
  indexQueuedComments(t.db);
  return checkCounts(t.db.$client).filter((c) => c.mismatches > 0);
};

/** One reaction through one of the three doors, in turn. */
async function react(who: TestUser, id: string, rate: number, door: number) {
  if (door % 3 === 0) {
    const res = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${id}`, headers: bearer(who), payload: { rate } });
    expect(res.statusCode).toBe(200);
  } else if (door % 3 === 1) await callerFor(t.deps, who).comments.rate({ id, rate });
  else await rateComment(t.deps, who.actor, { id, rate });
}

const openBursts = async (who: TestUser = moderator) => (await callerFor(t.deps, who).moderation.ratingBursts({ status: 'open', limit: 100 })).items;
const burstOf = async (postId: string): Promise<RatingBurst | undefined> =>
  (await openBursts()).find((b) => b.commentId === postId && b.target === 'comment') ?? (await openBursts()).find((b) => b.replyId === postId);

describe('a burst of emoji ratings from fresh accounts is held', () => {
  for (const n of [3, 7])
    for (const rate of [5, 1]) {
      it(`${n} fresh accounts rating a review ${rate} move neither its numbers, nor TOP RATED, nor the author's reactions, until accepted`, async () => {
        // The post and a rival two regulars rated: 3 against 4 (or 4 against 3 when the puppets rate it down).
        const [target, rival] = [await review('Recensionen som puppets vill flytta'), await review('Rivalen i flödet')];
        const [mine, theirs] = rate === 5 ? [3, 4] : [4, 3];
        for (const [i, u] of regulars.slice(0, 2).entries()) {
          await react(u, target, mine, i);
          await react(u, rival, theirs, i + 1);
        }
        const before = { numbers: await numbers(target), reactions: await reactionsReceived(), feed: await topRated() };
        const ahead = (feed: string[]) => feed.indexOf(target) < feed.indexOf(rival);
        expect(before.numbers).toMatchObject({ rate: mine, ratingCount: 2 });
        expect(before.feed).toContain(target);
        expect(ahead(before.feed)).toBe(rate === 1);

        const puppets = await fresh(n);
        for (const [i, u] of puppets.entries()) await react(u, target, rate, i);

        expect(await numbers(target)).toEqual(before.numbers);
        expect(await reactionsReceived()).toBe(before.reactions);
        expect(ahead(await topRated())).toBe(rate === 1);
        expect(recountMismatches()).toEqual([]);
        // Each rater still sees their own emoji.
        expect((await callerFor(t.deps, puppets[0]).comments.byId({ id: target })).myRate).toBe(rate);

        // The queue shows one entry for the post with every puppet, through both doors.
        const entry = (await burstOf(target))!;
        expect(entry).toMatchObject({ target: 'comment', commentId: target, replyId: null, ratings: n, status: 'open' });
        expect(entry.excerpt).toMatch(/^Recensionen som puppets/);
        expect(entry.raters.map((r) => r.userId).sort()).toEqual(puppets.map((u) => u.id).sort());
        const rest = (await t.app.inject({ url: '/api/rating-bursts?limit=100', headers: bearer(admin) })).json<RatingBurst[]>();
        expect(rest.find((b) => b._id === entry._id)).toMatchObject({ target: 'comment', commentId: target, ratings: n });

        // Accepted: now they count, at once and everywhere.
        expect((await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/accept`, headers: bearer(moderator) })).statusCode).toBe(200);
        const after = await numbers(target);
        expect(after.ratingCount).toBe(2 + n);
        expect(after.rate).toBeCloseTo((2 * mine + n * rate) / (2 + n), 9);
        expect(await reactionsReceived()).toBe(before.reactions + n);
        expect(ahead(await topRated())).toBe(rate === 5);
        expect(recountMismatches()).toEqual([]);
        expect(await burstOf(target)).toBeUndefined();
      });
    }

  it('established accounts, and one or two fresh ones, count at once', async () => {
    const id = await review();
    for (const [i, u] of regulars.entries()) await react(u, id, 5, i);
    expect(await numbers(id)).toMatchObject({ rate: 5, ratingCount: 4 });
    const two = await fresh(2);
    for (const [i, u] of two.entries()) await react(u, id, 1, i);
    expect(await numbers(id)).toMatchObject({ rate: 22 / 6, ratingCount: 6 });
    expect(await burstOf(id)).toBeUndefined();
    // An established rater's age comes with the session: no look-up, and not young.
    expect(isYoungRater(t.deps, { ...regulars[0].actor, joinedAt: Date.now() - 30 * DAY }, Date.now())).toBe(false);
    expect(isYoungRater(t.deps, { ...regulars[0].actor, joinedAt: Date.now() - DAY }, Date.now())).toBe(true);
    expect(recountMismatches()).toEqual([]);
  });

  it('a young account rating while the burst is open joins it; after the decision only newer ratings count toward the next', async () => {
    const id = await review();
    const puppets = await fresh(5);
    for (const u of puppets.slice(0, 3)) await rateComment(t.deps, u.actor, { id, rate: 5 });
    await rateComment(t.deps, puppets[3].actor, { id, rate: 5 });
    expect((await burstOf(id))?.ratings).toBe(4);
    expect(await numbers(id)).toMatchObject({ rate: null, ratingCount: 0 });
    // An established account counts while the burst is open.
    await rateComment(t.deps, regulars[0].actor, { id, rate: 2 });
    expect(await numbers(id)).toMatchObject({ rate: 2, ratingCount: 1 });
    const entry = (await burstOf(id))!;
    await callerFor(t.deps, moderator).moderation.resolveRatingBurst({ id: entry._id, action: 'accept' });
    expect(await numbers(id)).toMatchObject({ ratingCount: 5 });
    // One more young rating after the decision is alone in the new window: it counts.
    await rateComment(t.deps, puppets[4].actor, { id, rate: 1 });
    expect(await numbers(id)).toMatchObject({ ratingCount: 6 });
    expect(await burstOf(id)).toBeUndefined();
    expect(recountMismatches()).toEqual([]);
  });

  it('rejected emoji ratings stay out, changed or not; their raters keep seeing them; the log names the post', async () => {
    const id = await review();
    const puppets = await fresh(3);
    for (const [i, u] of puppets.entries()) await react(u, id, 5, i);
    const entry = (await burstOf(id))!;
    expect(await callerFor(t.deps, moderator).moderation.resolveRatingBurst({ id: entry._id, action: 'reject' })).toEqual({ action: 'reject' });
    await rateComment(t.deps, puppets[0].actor, { id, rate: 4 });
    // A changed rating of a rejected burst stays out (the raters of a rejected burst cannot bring it back).
    expect(await numbers(id)).toMatchObject({ rate: null, ratingCount: 0 });
    expect((await callerFor(t.deps, puppets[0]).comments.byId({ id })).myRate).toBe(4);
    expect((await callerFor(t.deps, moderator).moderation.log({ action: 'rejectBurst' })).items[0]).toMatchObject({
      targetKind: 'comment',
      targetId: id,
      actorName: 'Mats Moderator',
    });
    expect(recountMismatches()).toEqual([]);
  });

  it('a banned rater in a burst: accepting leaves them out; an unban puts them back; after a rejection it does not', async () => {
    for (const action of ['accept', 'reject'] as const) {
      const id = await review();
      const puppets = await fresh(3);
      for (const [i, u] of puppets.entries()) await react(u, id, 5, i);
      await setUserFlags(t.deps, admin.actor, puppets[0].id, { isBanned: true });
      expect(await numbers(id)).toMatchObject({ ratingCount: 0 });
      const entry = (await burstOf(id))!;
      expect((await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/${action}`, headers: bearer(moderator) })).statusCode).toBe(200);
      expect(await numbers(id)).toMatchObject({ ratingCount: action === 'accept' ? 2 : 0 });
      await callerFor(t.deps, admin).users.setFlags({ userId: puppets[0].id, isBanned: false });
      expect(await numbers(id)).toMatchObject({ ratingCount: action === 'accept' ? 3 : 0 });
      expect(recountMismatches()).toEqual([]);
    }
  });

  it('replies: fresh accounts through REST and tRPC are held; the queue links the thread; accepting counts them', async () => {
    const commentId = await review();
    const reply = await createReply(t.deps, author.actor, { commentId, text: 'Ett svar som får reaktioner' });
    const puppets = await fresh(3);
    for (const [i, u] of puppets.entries()) {
      if (i % 2 === 0)
        expect((await t.app.inject({ method: 'POST', url: `/api/subComment/addRate/${reply._id}`, headers: bearer(u), payload: { rate: 5 } })).statusCode).toBe(
          200,
        );
      else await callerFor(t.deps, u).comments.rateReply({ id: reply._id, rate: 5 });
    }
    const held = t.db.select({ n: replies.ratingCount }).from(replies).where(eq(replies.id, reply._id)).get();
    expect(held?.n).toBe(0);
    const entry = (await openBursts()).find((b) => b.replyId === reply._id)!;
    expect(entry).toMatchObject({ target: 'reply', commentId, replyId: reply._id, ratings: 3 });
    await rateReply(t.deps, regulars[1].actor, { id: reply._id, rate: 3 });
    expect(t.db.select({ n: replies.ratingCount, avg: replies.ratingAvg }).from(replies).where(eq(replies.id, reply._id)).get()).toEqual({ n: 1, avg: 3 });
    await callerFor(t.deps, moderator).moderation.resolveRatingBurst({ id: entry._id, action: 'accept' });
    expect(t.db.select({ n: replies.ratingCount, avg: replies.ratingAvg }).from(replies).where(eq(replies.id, reply._id)).get()).toEqual({ n: 4, avg: 4.5 });
    expect(recountMismatches()).toEqual([]);
  });

  it('a visitor and a member cannot read or decide the bursts (REST and tRPC)', async () => {
    const id = await review();
    for (const u of await fresh(3)) await rateComment(t.deps, u.actor, { id, rate: 5 });
    const entry = (await burstOf(id))!;
    expect((await t.app.inject({ url: '/api/rating-bursts' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/rating-bursts', headers: bearer(regulars[0]) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/rating-bursts/${entry._id}/accept`, headers: bearer(regulars[0]) })).statusCode).toBe(403);
    await expect(callerFor(t.deps, regulars[0]).moderation.resolveRatingBurst({ id: entry._id, action: 'accept' })).rejects.toThrow();
    expect(() => listRatingBursts(t.deps, null, { status: 'open' })).toThrow();
    expect(await numbers(id)).toMatchObject({ ratingCount: 0 });
  });

  it('deleting the post takes its burst out of the queue', async () => {
    const id = await review();
    for (const u of await fresh(3)) await rateComment(t.deps, u.actor, { id, rate: 5 });
    expect(await burstOf(id)).toBeDefined();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/comment/delete/${id}`, headers: bearer(author) })).statusCode).toBeLessThan(300);
    expect(t.db.select().from(ratingBursts).where(eq(ratingBursts.commentId, id)).all()).toEqual([]);
  });
});

describe('query plans of the emoji-rating burst check (EXPLAIN QUERY PLAN)', () => {
  it('each statement searches an index, never scans the ratings or the bursts', () => {
    const sqlite = t.db.$client;
    const q = emojiBurstQueries({ posts: comments, ratings: commentRatings, postId: commentRatings.commentId, burstPost: ratingBursts.commentId })(t.db);
    const plan = (name: keyof typeof q, values: Record<string, unknown>) => {
      const { sql, params } = q[name].toSQL();
      return (sqlite.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as Array<{ detail: string }>).map((r) => r.detail);
    };
    const now = Date.now();
    const values = { postId: 'c', since: now - DAY, bornAfter: now - 7 * DAY, burstId: 'b', userId: 'u' };
    const scans = (details: string[]) => details.filter((d) => /^SCAN /.test(d));
    for (const name of ['lastResolved', 'open', 'young', 'toHold', 'heldCount'] as const) expect(scans(plan(name, values)), name).toEqual([]);
    expect(plan('young', values).join('\n')).toMatch(/comment_ratings_newest_idx \(comment_id=\? AND created_at>\?\)/);
    expect(plan('open', values).join('\n')).toMatch(/rating_bursts_comment_idx/);
    expect(plan('lastResolved', values).join('\n')).toMatch(/COVERING INDEX rating_bursts_comment_idx/);
    expect(plan('heldCount', values).join('\n')).toMatch(/comment_ratings_held_idx/);
  });
});
