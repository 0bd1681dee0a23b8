import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCounts } from '../../../scripts/bench/check';
import { businesses, comments } from '../../../db/schema';
import { resolveCategory } from '../business/categories';
import { bearer, callerFor, createTestApp, createTestUser, pngForm, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness, pngBytes } from '../../test/comment-fixtures';
import { deleteAccount } from '../accounts/accounts-delete';
import { rateBusiness } from '../business/business-ratings';
import { rateComment } from './comment-ratings';
import { createComment } from './comments';
import { createReply } from './replies';
import { indexQueuedComments } from './comment-search';
import { commentSorts, type CommentSort } from '../../../shared/schemas/comments';
import { titleSearchOf } from '../business/business';

let t: TestContext;
let shop: string;
let people: TestUser[];

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  shop = insertBusiness(t.db, 'Konsum');
  // A comment elsewhere with a far rowid, so rowids and search keys (comments.search_rowid, given
  // in indexing order) differ for every comment below: a search that mixed them up would fail.
  const elsewhere = insertBusiness(t.db, 'Annanstans');
  const now = Date.now();
  t.db.$client
    .prepare(
      `insert into comments (rowid, id, business_id, user_id, business_location, text, created_at, updated_at) values (5000, 'far', ?, ?, 'Lund', 'Långt bort', ?, ?)`,
    )
    .run(elsewhere, (await createTestUser(t.db)).id, now, now);
  t.db.update(businesses).set({ commentCount: 1 }).where(eq(businesses.id, elsewhere)).run();
  indexQueuedComments(t.db);
  people = await Promise.all(Array.from({ length: 10 }, (_, i) => createTestUser(t.db, { firstName: `Person${i}`, lastName: 'Testsson' })));
  const rnd = random(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const posted: string[] = [];
  // 40 comments; their times are set below, so ties do not depend on how fast the machine posts.
  for (let i = 0; i < 40; i++) {
    const author = pick(people);
    const stars = i % 7 === 6 ? undefined : ([1, 2, 3, 4, 5] as const)[i % 5];
    const text = `${pick(['Bra', 'Dålig', 'Okej'])} kommentar ${i}${i % 4 === 0 ? ' om kanelbullar' : ''}`;
    const withPhoto = i % 3 === 0;
    const card = await createComment(t.deps, author.actor, {
      businessId: shop,
      text,
      businessLocation: 'Lund',
      rate: stars,
      ...(withPhoto ? { imageBytes: await pngBytes(8, 8) } : {}),
    });
    posted.push(card._id);
  }
  // Three comments a millisecond, and one alone now and then: ties the cursors must break by
  // rowid, whatever the clock gave while posting.
  const at = t.db.$client.prepare('update comments set created_at = ?, updated_at = ? where id = ?');
  posted.forEach((id, i) => at.run(now + Math.floor(i / 3), now + Math.floor(i / 3), id));
  // Helpful and replied need spread: emoji ratings and replies from others.
  for (const id of posted) {
    for (const rater of people) {
      if (rnd() < 0.3) {
        await rateComment(t.deps, rater.actor, { id, rate: pick([1, 2, 3, 4, 5]) }).catch(() => undefined); // own posts refuse
      }
    }
    const replies = Math.floor(rnd() * 4);
    for (let r = 0; r < replies; r++) await createReply(t.deps, pick(people).actor, { commentId: id, text: 'Håller med' });
  }
  // A later re-rating moves the stars on every comment of that author.
  await rateBusiness(t.deps, people[0].actor, shop, 1);
  await callerFor(t.deps, people[1]).business.rate({ id: shop, rate: null });
}, 60_000);
afterAll(() => t.close());

type Row = {
  id: string;
  rowid: number;
  createdAt: number;
  stars: number | null;
  photo: boolean;
  avg: number | null;
  count: number;
  replies: number;
  text: string;
};

/** Every comment of the business recounted from the rating, reply and emoji rows, not from the kept columns. */
function recount(): Row[] {
  return t.db.$client
    .prepare(
      `select c.id, c.rowid as rowid, c.created_at as createdAt, c.text,
         (select r.rate from business_ratings r where r.business_id = c.business_id and r.user_id = c.user_id) as stars,
         c.image_id is not null as photo,
         (select avg(rate) from comment_ratings where comment_id = c.id) as avg,
         (select count(*) from comment_ratings where comment_id = c.id) as count,
         (select count(*) from replies where comment_id = c.id) as replies
       from comments c where c.business_id = ?`,
    )
    .all(shop)
    .map((r) => ({ ...(r as Row), photo: Boolean((r as Row).photo) }));
}

const newestFirst = (a: Row, b: Row) => b.createdAt - a.createdAt || b.rowid - a.rowid;
const nullsLast = (a: number | null, b: number | null, dir: 1 | -1) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : dir * (a - b));

const expectedOrder: Record<CommentSort, (a: Row, b: Row) => number> = {
  newest: newestFirst,
  oldest: (a, b) => -newestFirst(a, b),
  highest: (a, b) => nullsLast(a.stars, b.stars, -1) || newestFirst(a, b),
  lowest: (a, b) => nullsLast(a.stars, b.stars, 1) || newestFirst(a, b),
  helpful: (a, b) => nullsLast(a.avg, b.avg, -1) || b.count - a.count || newestFirst(a, b),
  replied: (a, b) => b.replies - a.replies || newestFirst(a, b),
};

type Options = { sort: CommentSort; stars?: number[]; photos?: boolean; search?: string };

function expected(o: Options): string[] {
  return recount()
    .filter((r) => !o.stars || (r.stars !== null && o.stars.includes(r.stars)))
    .filter((r) => !o.photos || r.photo)
    .filter((r) => !o.search || r.text.includes(o.search))
    .sort(expectedOrder[o.sort])
    .map((r) => r.id);
}

async function viaRest(o: Options, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const query = new URLSearchParams({ sort: o.sort, limit: String(limit) });
    if (o.stars) query.set('stars', o.stars.join(','));
    if (o.photos) query.set('photos', '1');
    if (o.search) query.set('search', o.search);
    if (cursor) query.set('cursor', cursor);
    const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?${query.toString()}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ _id: string; authorRate: number | null }[]>();
    expect(page.length).toBeLessThanOrEqual(limit);
    ids.push(...page.map((c) => c._id));
    cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

async function viaTrpc(o: Options, limit: number): Promise<string[]> {
  const caller = callerFor(t.deps, people[2]);
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await caller.comments.byBusiness({ businessId: shop, limit, cursor, sort: o.sort, stars: o.stars, photos: o.photos, search: o.search });
    ids.push(...page.items.map((c) => c._id));
    cursor = page.nextCursor ?? undefined;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

describe("a business's comments in every order and filter, across pages", () => {
  const filters: Omit<Options, 'sort'>[] = [
    {},
    { stars: [2] },
    { stars: [1, 5] },
    { stars: [3, 4, 2] },
    { photos: true },
    { stars: [5, 4], photos: true },
    { search: 'kanel' },
    { search: 'kanel', stars: [1, 2, 3] },
  ];

  it('the recount has ties, unrated authors, photos and re-ratings to get right', () => {
    const rows = recount();
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.createdAt)).size).toBe(14);
    expect(rows.some((r) => r.stars === null)).toBe(true);
    expect(new Set(rows.map((r) => r.stars)).size).toBe(6);
    expect(rows.filter((r) => r.photo).length).toBeGreaterThan(5);
  });

  for (const sort of commentSorts) {
    for (const f of filters) {
      it(`${sort} ${JSON.stringify(f)}: REST and tRPC give exactly the recount's comments, in its order`, async () => {
        const want = expected({ sort, ...f });
        expect(want.length).toBeGreaterThan(0);
        for (const limit of [3, 7]) {
          expect(await viaRest({ sort, ...f }, limit)).toEqual(want);
          expect(await viaTrpc({ sort, ...f }, limit)).toEqual(want);
        }
      });
    }
  }

  it("each comment carries its author's current stars", async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?limit=100` });
    const stars = new Map(recount().map((r) => [r.id, r.stars]));
    for (const c of res.json<{ _id: string; authorRate: number | null }[]>()) expect(c.authorRate).toBe(stars.get(c._id));
  });

  it('refuses bad values with a 400, never a 500', async () => {
    for (const q of ['sort=best', 'stars=0', 'stars=6', 'stars=1,1', 'stars=a', 'stars=1,,2', 'stars=1.5', 'photos=2']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?${q}` });
      expect(res.statusCode, q).toBe(400);
    }
    const other = await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?sort=highest&limit=2` });
    const cursor = other.headers['x-next-cursor'] as string;
    // A cursor of one order is no position in another.
    expect((await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?sort=helpful&cursor=${cursor}` })).statusCode).toBe(400);
    const caller = callerFor(t.deps, null);
    await expect(caller.comments.byBusiness({ businessId: shop, sort: 'best' as CommentSort })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.comments.byBusiness({ businessId: shop, stars: [0] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

/** A multipart form sent as `user`. */
async function formAs(user: TestUser, fields: Record<string, string>, files?: Record<string, Buffer>) {
  const form = await pngForm(fields, files);
  return { payload: form.payload, headers: { ...form.headers, ...bearer(user) } };
}

type Breakdown = { rate: number | null; ratingCount: number; starCounts: number[] };
async function breakdownOf(id: string): Promise<Breakdown> {
  const res = await t.app.inject({ method: 'GET', url: `/api/business/${id}` });
  expect(res.statusCode).toBe(200);
  const b = res.json<Breakdown>();
  return { rate: b.rate, ratingCount: b.ratingCount, starCounts: b.starCounts };
}

describe('stars with the words', () => {
  it("posting and editing a comment with stars sets the author's rating, the average and the breakdown (REST)", async () => {
    const business = insertBusiness(t.db, 'Stjärnbutiken');
    const [ann, bo] = await Promise.all([createTestUser(t.db), createTestUser(t.db)]);
    await rateBusiness(t.deps, bo.actor, business, 4);
    expect(await breakdownOf(business)).toEqual({ rate: 4, ratingCount: 1, starCounts: [0, 0, 0, 1, 0] });

    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${business}`,
      ...(await formAs(ann, { text: 'Två stjärnor', businessLocation: 'Lund', rate: '2' }, { image: await pngBytes() })),
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json()).toMatchObject({ authorRate: 2 });
    expect(await breakdownOf(business)).toEqual({ rate: 3, ratingCount: 2, starCounts: [0, 1, 0, 1, 0] });

    // A second comment without stars shows the stars given so far.
    const second = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${business}`,
      ...(await formAs(ann, { text: 'Igen', businessLocation: 'Lund' })),
    });
    expect(second.json()).toMatchObject({ authorRate: 2 });

    const id = posted.json<{ _id: string }>()._id;
    const edited = await t.app.inject({ method: 'PUT', url: `/api/comment/update/${id}`, ...(await formAs(ann, { text: 'Fem stjärnor nu', rate: '5' })) });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ authorRate: 5 });
    expect(await breakdownOf(business)).toEqual({ rate: 4.5, ratingCount: 2, starCounts: [0, 0, 0, 1, 1] });
    const both = t.db.select({ authorRate: comments.authorRate }).from(comments).where(eq(comments.userId, ann.id)).all();
    expect(both.map((c) => c.authorRate)).toEqual([5, 5]);

    // The filter finds it at once under its new stars, and no longer under the old.
    const five = await t.app.inject({ method: 'GET', url: `/api/comment/${business}?stars=5&photos=1` });
    expect(five.json<{ _id: string }[]>().map((c) => c._id)).toEqual([id]);
    const two = await t.app.inject({ method: 'GET', url: `/api/comment/${business}?stars=2` });
    expect(two.json()).toEqual([]);
  });

  it('the same through tRPC; taking the rating back clears the stars on the comments and the breakdown', async () => {
    const business = insertBusiness(t.db, 'Trpc-butiken');
    const cy = await createTestUser(t.db);
    const caller = callerFor(t.deps, cy);
    const card = await caller.comments.create({ businessId: business, text: 'Tre stjärnor', businessLocation: 'Umeå', rate: 3 });
    expect(card.authorRate).toBe(3);
    expect((await caller.business.byId({ id: business })).starCounts).toEqual([0, 0, 1, 0, 0]);
    const edited = await caller.comments.update({ id: card._id, text: 'En stjärna', rate: 1 });
    expect(edited.authorRate).toBe(1);
    expect(await caller.business.byId({ id: business })).toMatchObject({ rate: 1, ratingCount: 1, starCounts: [1, 0, 0, 0, 0], myRate: 1 });
    // Editing without stars leaves the rating as it is.
    expect((await caller.comments.update({ id: card._id, text: 'Bara text' })).authorRate).toBe(1);

    expect(await caller.business.rate({ id: business, rate: null })).toEqual({ rate: null, ratingCount: 0, myRate: null });
    expect(await caller.business.byId({ id: business })).toMatchObject({ rate: null, ratingCount: 0, starCounts: [0, 0, 0, 0, 0], myRate: null });
    expect((await caller.comments.byId({ id: card._id })).authorRate).toBeNull();
    // REST takes it back the same way.
    await caller.business.rate({ id: business, rate: 4 });
    const res = await t.app.inject({ method: 'POST', url: `/api/business/addRate/${business}`, headers: bearer(cy), payload: { rate: null } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ rate: null, ratingCount: 0 });
  });

  it("the rating rules hold for stars given with a post: no stars for the suggestion box, none with a removed comment's edit", async () => {
    const box = insertBusiness(t.db, 'Lägg till ny');
    t.db
      .update(businesses)
      .set({ isSuggestionBox: true, titleSearch: titleSearchOf('Lägg till ny'), categoryId: resolveCategory(t.db, 'Förslag', undefined, Date.now()) })
      .where(eq(businesses.id, box))
      .run();
    const dee = await createTestUser(t.db);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${box}`,
      ...(await formAs(dee, { text: 'Förslag', businessLocation: 'Lund', rate: '5' })),
    });
    expect(refused.statusCode).toBe(409);
    expect(t.db.select().from(comments).where(eq(comments.businessId, box)).all()).toEqual([]);

    const business = insertBusiness(t.db, 'Borttagen');
    const card = await createComment(t.deps, dee.actor, { businessId: business, text: 'Snart borta', businessLocation: 'Lund', rate: 2 });
    t.db.update(comments).set({ removedAt: Date.now(), text: '' }).where(eq(comments.id, card._id)).run();
    await expect(callerFor(t.deps, dee).comments.update({ id: card._id, text: 'Tillbaka', rate: 5 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await breakdownOf(business)).starCounts).toEqual([0, 1, 0, 0, 0]);
  });

  it('deleting an account takes its stars out of the breakdown; every kept count matches a recount', async () => {
    const business = insertBusiness(t.db, 'Kontobutiken');
    const [eve, fia] = await Promise.all([createTestUser(t.db), createTestUser(t.db)]);
    await createComment(t.deps, eve.actor, { businessId: business, text: 'Fyra', businessLocation: 'Lund', rate: 4 });
    await rateBusiness(t.deps, fia.actor, business, 2);
    await deleteAccount(t.deps, eve.actor, eve.id);
    expect(await breakdownOf(business)).toEqual({ rate: 2, ratingCount: 1, starCounts: [0, 1, 0, 0, 0] });
    indexQueuedComments(t.db);
    for (const check of checkCounts(t.db.$client)) expect(check.mismatches, `${check.name}: ${JSON.stringify(check.examples)}`).toBe(0);
  });
});
