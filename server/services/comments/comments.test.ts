import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { businessRatings, businesses, commentRatings, comments, images, replies, replyRatings, users } from '../../../db/schema';
import { ftsQueryOf, indexQueuedComments, searchKeyOf } from './comment-search';
import { isAppError } from '../../lib/errors';
import {
  commentCreateSchema,
  commentFormSchema,
  FEED_FIRST_PAGE,
  FEED_MORE_PAGE,
  replyEditFormSchema,
  replyFormSchema,
} from '../../../shared/schemas/comments';
import { callerFor, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { commentCountOf, fileExists, imageFile, insertBusiness, pngBytes } from '../../test/comment-fixtures';
import { RATINGS_LIST_CAP, rateComment, rateReply, ratingLists } from './comment-ratings';
import { createComment, deleteComment, getComment, listBusinessComments, listFeed, removeComment, updateComment } from './comments';
import { storeImage } from './images';
import { getBusiness } from '../business/business';
import { createRateLimits } from '../rate-limits';
import { createReply, deleteReply, listReplies } from './replies';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Hemköp');
});
afterAll(() => t.close());
afterEach(() => {
  // The app is built with RATE_LIMITS=0; the one test that needs limits swaps in its own.
  t.deps.limits = createRateLimits({ enabled: false });
});

type Role = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
const roles: Role[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
const userOf = (role: Role): TestUser | null => (role === 'visitor' ? null : cast[role]);

/** 'ok', or the HTTP-like outcome of a refused call. */
async function outcome(call: () => Promise<unknown>): Promise<'ok' | number> {
  try {
    await call();
    return 'ok';
  } catch (err) {
    if (err instanceof TRPCError) {
      const status = { UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, BAD_REQUEST: 400, TOO_MANY_REQUESTS: 429 }[err.code as string];
      if (status) return status;
    }
    if (isAppError(err)) return err.status;
    throw err;
  }
}

const post = (businessId = shop, text = 'Trevlig personal och bra priser', businessLocation = 'Malmö') =>
  createComment(t.deps, cast.owner.actor, { businessId, text, businessLocation });
const replyTo = (commentId: string, user = cast.owner) => createReply(t.deps, user.actor, { commentId, text: 'Håller med!' });

describe("validation (the description's messages, as message keys)", () => {
  const locationError = (businessLocation: string) => {
    const r = commentFormSchema.safeParse({ text: 'Bra butik', businessLocation });
    return r.success ? null : r.error.issues[0].message;
  };

  it('accepts Swedish and other letters, digits, underscore and a normal place name', () => {
    for (const ok of ['Malmö', 'Umeå', 'Västerås C', 'Café_Åhus', 'Göteborg 2', 'Éxpo Ünder', 'Uppsala Gottsunda Centrum', 'Stora Nygatan Malmö'])
      expect(locationError(ok), ok).toBeNull();
  });

  it('says why a location is refused', () => {
    expect(locationError('')).toBe('commentLocationRequired');
    expect(locationError('   ')).toBe('commentLocationRequired');
    expect(locationError('Malmö-C')).toBe('commentLocationChars');
    expect(locationError('<script>')).toBe('commentLocationChars');
    expect(locationError('a b c d e f g')).toBe('commentLocationWords');
    expect(locationError('a b c d e f')).toBeNull();
    expect(locationError('A'.repeat(61))).toBe('commentLocationLength');
    expect(locationError('A'.repeat(60))).toBeNull();
  });

  it('requires comment and reply text of at least 2 characters', () => {
    const msg = (schema: typeof replyFormSchema | typeof replyEditFormSchema, text: unknown) => {
      const r = schema.safeParse({ text });
      return r.success ? null : r.error.issues[0].message;
    };
    const comment = (text: unknown) => {
      const r = commentFormSchema.safeParse({ text, businessLocation: 'Malmö' });
      return r.success ? null : r.error.issues[0].message;
    };
    expect(comment('')).toBe('commentTextRequired');
    expect(comment(undefined)).toBe('commentTextRequired');
    expect(comment(' a ')).toBe('commentTooShort');
    expect(comment('ok')).toBeNull();
    expect(msg(replyFormSchema, '')).toBe('replyTextRequired');
    expect(msg(replyFormSchema, 'x')).toBe('replyTooShort');
    expect(msg(replyEditFormSchema, '')).toBe('replyEditRequired');
    expect(msg(replyEditFormSchema, 'x')).toBe('replyEditTooShort');
  });

  it('refuses bad input through tRPC with 400 and field keys', async () => {
    const caller = callerFor(t.deps, cast.owner);
    await expect(caller.comments.create({ businessId: shop, text: 'x', businessLocation: 'a b c' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.comments.rate({ id: 'x', rate: 6 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(commentCreateSchema.safeParse({ businessId: shop, text: 'Bra', businessLocation: 'Malmö', rate: 0 }).success).toBe(false);
  });
});

describe('who may do what (tRPC, docs/product.md §2)', () => {
  /** Builds fresh data per cell, so a delete in one cell cannot affect another. */
  const matrix: Record<string, { run: (role: Role) => Promise<unknown>; expected: Record<Role, 'ok' | number> }> = {
    feed: {
      run: (r) => callerFor(t.deps, userOf(r)).comments.feed({ filter: 'all' }),
      expected: { visitor: 'ok', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' },
    },
    byBusiness: {
      run: (r) => callerFor(t.deps, userOf(r)).comments.byBusiness({ businessId: shop }),
      expected: { visitor: 'ok', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' },
    },
    byId: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.byId({ id: (await post())._id }),
      expected: { visitor: 'ok', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' },
    },
    replies: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.replies({ commentId: (await post())._id }),
      expected: { visitor: 'ok', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' },
    },
    moderation: {
      run: (r) => callerFor(t.deps, userOf(r)).comments.moderation({}),
      expected: { visitor: 401, owner: 403, other: 403, banned: 403, admin: 'ok' },
    },
    create: {
      run: (r) => callerFor(t.deps, userOf(r)).comments.create({ businessId: shop, text: 'Bra service', businessLocation: 'Lund' }),
      expected: { visitor: 401, owner: 'ok', other: 'ok', banned: 403, admin: 'ok' },
    },
    update: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.update({ id: (await post())._id, text: 'Ändrad text' }),
      expected: { visitor: 401, owner: 'ok', other: 403, banned: 403, admin: 403 },
    },
    delete: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.delete({ id: (await post())._id }),
      expected: { visitor: 401, owner: 'ok', other: 403, banned: 403, admin: 403 },
    },
    remove: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.remove({ id: (await post())._id }),
      expected: { visitor: 401, owner: 403, other: 403, banned: 403, admin: 'ok' },
    },
    rate: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.rate({ id: (await post())._id, rate: 4 }),
      expected: { visitor: 401, owner: 403, other: 'ok', banned: 403, admin: 'ok' },
    },
    reply: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.reply({ commentId: (await post())._id, text: 'Tack för tipset' }),
      expected: { visitor: 401, owner: 'ok', other: 'ok', banned: 403, admin: 'ok' },
    },
    updateReply: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.updateReply({ id: (await replyTo((await post())._id))._id, text: 'Ändrat svar' }),
      expected: { visitor: 401, owner: 'ok', other: 403, banned: 403, admin: 403 },
    },
    deleteReply: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.deleteReply({ id: (await replyTo((await post())._id))._id }),
      expected: { visitor: 401, owner: 'ok', other: 403, banned: 403, admin: 'ok' },
    },
    rateReply: {
      run: async (r) => callerFor(t.deps, userOf(r)).comments.rateReply({ id: (await replyTo((await post())._id))._id, rate: 2 }),
      expected: { visitor: 401, owner: 403, other: 'ok', banned: 403, admin: 'ok' },
    },
  };

  for (const [name, { run, expected }] of Object.entries(matrix)) {
    it(`comments.${name}`, async () => {
      const got: Record<string, 'ok' | number> = {};
      for (const role of roles) got[role] = await outcome(() => run(role));
      expect(got).toEqual(expected);
    });
  }

  it('unknown ids are 404, not 500', async () => {
    const caller = callerFor(t.deps, cast.other);
    const admin = callerFor(t.deps, cast.admin);
    expect(await outcome(() => caller.comments.byId({ id: 'nope' }))).toBe(404);
    expect(await outcome(() => caller.comments.byBusiness({ businessId: 'nope' }))).toBe(404);
    expect(await outcome(() => caller.comments.replies({ commentId: 'nope' }))).toBe(404);
    expect(await outcome(() => caller.comments.create({ businessId: 'nope', text: 'Hej hej', businessLocation: 'Lund' }))).toBe(404);
    expect(await outcome(() => caller.comments.update({ id: 'nope', text: 'Hej hej' }))).toBe(404);
    expect(await outcome(() => caller.comments.delete({ id: 'nope' }))).toBe(404);
    expect(await outcome(() => admin.comments.remove({ id: 'nope' }))).toBe(404);
    expect(await outcome(() => caller.comments.rate({ id: 'nope', rate: 1 }))).toBe(404);
    expect(await outcome(() => caller.comments.reply({ commentId: 'nope', text: 'Hej hej' }))).toBe(404);
    expect(await outcome(() => caller.comments.updateReply({ id: 'nope', text: 'Hej hej' }))).toBe(404);
    expect(await outcome(() => admin.comments.deleteReply({ id: 'nope' }))).toBe(404);
    expect(await outcome(() => caller.comments.rateReply({ id: 'nope', rate: 1 }))).toBe(404);
    expect(await outcome(() => caller.comments.feed({ filter: 'all', cursor: 'not-a-cursor' }))).toBe(400);
  });

  it("visitors hear the description's own messages", async () => {
    const c = await post();
    const visitor = callerFor(t.deps, null);
    await expect(visitor.comments.rate({ id: c._id, rate: 3 })).rejects.toThrow('Please log in to rate.');
    await expect(visitor.comments.reply({ commentId: c._id, text: 'Hej hej' })).rejects.toThrow('Please log in to submit a subcomment');
    await expect(visitor.comments.create({ businessId: shop, text: 'Hej hej', businessLocation: 'Lund' })).rejects.toThrow(
      'Please log in in order to leave a comment',
    );
  });

  it('posting is rate limited per user with a clear 429', async () => {
    t.deps.limits = createRateLimits({ enabled: true });
    const poster = await createTestUser(t.db);
    const results: Array<'ok' | number> = [];
    for (let i = 0; i < 8; i++) {
      results.push(await outcome(() => createComment(t.deps, poster.actor, { businessId: shop, text: `Kommentar ${i}`, businessLocation: 'Lund' })));
    }
    expect(results.slice(0, 6)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(results.slice(6)).toEqual([429, 429]);
    // Another user is not held back by the first one's posts.
    expect(await outcome(() => createComment(t.deps, cast.other.actor, { businessId: shop, text: 'Min tur', businessLocation: 'Lund' }))).toBe('ok');
    await expect(replyTo(listFeed(t.deps, null, { filter: 'all' }).items[0]._id, poster)).rejects.toThrow('Too many requests');
  });
});

describe('counts kept in columns, in the same transaction', () => {
  it('comment_count and reply_count follow creates and deletes', async () => {
    const b = insertBusiness(t.db);
    const c1 = await post(b);
    const c2 = await post(b);
    expect(commentCountOf(t.db, b)).toBe(2);
    const r1 = await replyTo(c1._id, cast.other);
    await replyTo(c1._id, cast.owner);
    expect(getComment(t.deps, null, c1._id).replyCount).toBe(2);
    await deleteReply(t.deps, cast.admin.actor, r1._id);
    expect(getComment(t.deps, null, c1._id).replyCount).toBe(1);
    await deleteComment(t.deps, cast.owner.actor, c2._id);
    expect(commentCountOf(t.db, b)).toBe(1);
    await removeComment(t.deps, cast.admin.actor, c1._id);
    expect(commentCountOf(t.db, b)).toBe(0);
  });

  it('a write that fails half-way leaves nothing behind: no row, no count, no stored picture', async () => {
    const b = insertBusiness(t.db);
    // Makes the second statement of the transaction (the count) fail after the insert succeeded.
    t.db.$client.exec(
      `create temp trigger fail_count before update of comment_count on businesses when new.id = '${b}' begin select raise(abort, 'count refused'); end`,
    );
    const before = t.db.select().from(comments).all().length;
    const imagesBefore = t.db.select().from(images).all().length;
    try {
      await expect(
        createComment(t.deps, cast.owner.actor, { businessId: b, text: 'Hej hej', businessLocation: 'Lund', imageBytes: await pngBytes() }),
      ).rejects.toThrow('count refused');
    } finally {
      t.db.$client.exec('drop trigger fail_count');
    }
    expect(t.db.select().from(comments).all().length).toBe(before);
    expect(commentCountOf(t.db, b)).toBe(0);
    expect(t.db.select().from(images).all().length).toBe(imagesBefore);
  });

  it("the star rate sent with a comment is the author's rating of the business", async () => {
    const b = insertBusiness(t.db);
    await createComment(t.deps, cast.other.actor, { businessId: b, text: 'Fem stjärnor', businessLocation: 'Lund', rate: 5 });
    await createComment(t.deps, cast.other.actor, { businessId: b, text: 'Ändrat mig', businessLocation: 'Lund', rate: 2 });
    const rows = t.db.select().from(businessRatings).where(eq(businessRatings.businessId, b)).all();
    expect(rows.map((r) => [r.userId, r.rate])).toEqual([[cast.other.id, 2]]);
  });
});

describe('emoji ratings', () => {
  it('add, replace, take back; the average is over the remaining rates', async () => {
    const c = await post();
    const a = await createTestUser(t.db);
    const b = await createTestUser(t.db);
    expect(await rateComment(t.deps, a.actor, { id: c._id, rate: 5 })).toMatchObject({ rate: 5, ratingCount: 1, myRate: 5 });
    expect(await rateComment(t.deps, b.actor, { id: c._id, rate: 2 })).toMatchObject({ rate: 3.5, ratingCount: 2 });
    const replaced = await rateComment(t.deps, a.actor, { id: c._id, rate: 1 });
    expect(replaced).toMatchObject({ rate: 1.5, ratingCount: 2, emojiCounts: { '1': 1, '2': 1, '3': 0, '4': 0, '5': 0 } });
    expect(t.db.select().from(commentRatings).where(eq(commentRatings.commentId, c._id)).all()).toHaveLength(2);
    expect(await rateComment(t.deps, a.actor, { id: c._id, rate: null })).toMatchObject({ rate: 2, ratingCount: 1, myRate: null });
    expect(await rateComment(t.deps, b.actor, { id: c._id, rate: null })).toMatchObject({ rate: null, ratingCount: 0 });
    const card = getComment(t.deps, a.actor, c._id);
    expect(card).toMatchObject({ rate: null, ratingCount: 0, myRate: null, emojiCounts: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } });
  });

  it("cards carry the caller's own rate and the counts per emoji", async () => {
    const c = await post();
    await rateComment(t.deps, cast.other.actor, { id: c._id, rate: 4 });
    await rateComment(t.deps, cast.admin.actor, { id: c._id, rate: 4 });
    expect(getComment(t.deps, cast.other.actor, c._id)).toMatchObject({ myRate: 4, rate: 4, ratingCount: 2, emojiCounts: { '4': 2 } });
    expect(getComment(t.deps, null, c._id).myRate).toBeNull();
    expect(getComment(t.deps, cast.owner.actor, c._id).myRate).toBeNull();
  });

  it('replies have their own ratings with the same rules', async () => {
    const c = await post();
    const r = await replyTo(c._id, cast.other);
    await expect(rateReply(t.deps, cast.other.actor, { id: r._id, rate: 5 })).rejects.toThrow('You cannot react to your own post.');
    expect(await rateReply(t.deps, cast.owner.actor, { id: r._id, rate: 5 })).toMatchObject({ rate: 5, ratingCount: 1 });
    expect(await rateReply(t.deps, cast.admin.actor, { id: r._id, rate: 2 })).toMatchObject({ rate: 3.5, ratingCount: 2 });
    const listed = listReplies(t.deps, cast.owner.actor, { commentId: c._id }).items[0];
    expect(listed).toMatchObject({ myRate: 5, rate: 3.5, emojiCounts: { '2': 1, '5': 1 } });
    expect(getComment(t.deps, null, c._id).ratingCount).toBe(0);
  });
});

describe('threads and counts a reader sees (issue 29)', () => {
  it('a thread reads oldest first, a page at a time', async () => {
    const c = await post();
    const made = [];
    for (const who of [cast.other, cast.admin, cast.other]) made.push(await replyTo(c._id, who));
    const first = listReplies(t.deps, null, { commentId: c._id, limit: 2 });
    expect(first.items.map((r) => r._id)).toEqual([made[0]._id, made[1]._id]);
    const rest = listReplies(t.deps, null, { commentId: c._id, limit: 2, cursor: first.nextCursor! });
    expect(rest.items.map((r) => r._id)).toEqual([made[2]._id]);
    expect(rest.nextCursor).toBeNull();
  });

  it('the business page counts its written reviews apart from its star ratings', async () => {
    const before = getBusiness(t.deps, null, shop);
    await post();
    const after = getBusiness(t.deps, null, shop);
    expect(after.commentCount).toBe(before.commentCount + 1);
    expect(after.ratingCount).toBe(before.ratingCount);
  });
});

describe('edits and deletes release pictures; cascades leave nothing behind', () => {
  it('an edit that replaces or removes the picture deletes the old file', async () => {
    const first = await storeImage(t.deps, { bytes: await pngBytes(), kind: 'comment', ownerId: cast.owner.id });
    const c = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Med bild', businessLocation: 'Lund', imageId: first.id });
    expect(c.image).toBe(first.url);
    const firstFile = imageFile(t.deps, first.id)!;
    const updated = await updateComment(t.deps, cast.owner.actor, { id: c._id, text: 'Ny bild', imageBytes: await pngBytes() });
    expect(updated.image).not.toBe(first.url);
    expect(fileExists(firstFile)).toBe(false);
    const secondFile = imageFile(t.deps, t.db.select().from(comments).where(eq(comments.id, c._id)).get()!.imageId!)!;
    const kept = await updateComment(t.deps, cast.owner.actor, { id: c._id, text: 'Samma bild' });
    expect(kept.image).toBe(updated.image);
    const removed = await updateComment(t.deps, cast.owner.actor, { id: c._id, text: 'Utan bild', imageId: null });
    expect(removed.image).toBeNull();
    expect(fileExists(secondFile)).toBe(false);
  });

  it("someone else's upload cannot be attached", async () => {
    const theirs = await storeImage(t.deps, { bytes: await pngBytes(), kind: 'comment', ownerId: cast.other.id });
    await expect(
      createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Lånad bild', businessLocation: 'Lund', imageId: theirs.id }),
    ).rejects.toMatchObject({ status: 400, key: 'imageUnknown' });
  });

  it('deleting a comment removes its replies, all ratings and every picture', async () => {
    const c = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Bildrik', businessLocation: 'Lund', imageBytes: await pngBytes() });
    const r1 = await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Svar med bild', imageBytes: await pngBytes() });
    const r2 = await createReply(t.deps, cast.admin.actor, { commentId: c._id, text: 'Svar utan bild' });
    await rateComment(t.deps, cast.other.actor, { id: c._id, rate: 3 });
    await rateReply(t.deps, cast.owner.actor, { id: r1._id, rate: 4 });
    await rateReply(t.deps, cast.owner.actor, { id: r2._id, rate: 1 });
    const imageIds = [
      t.db.select().from(comments).where(eq(comments.id, c._id)).get()!.imageId!,
      t.db.select().from(replies).where(eq(replies.id, r1._id)).get()!.imageId!,
    ];
    const files = imageIds.map((id) => imageFile(t.deps, id)!);
    expect(files.every(fileExists)).toBe(true);
    const indexed = () => t.db.$client.prepare('select count(*) n from comments_fts where comments_fts match ?').get(ftsQueryOf(shop, 'Bildrik'));
    indexQueuedComments(t.db);
    expect(indexed()).toEqual({ n: 1 });

    await deleteComment(t.deps, cast.owner.actor, c._id);

    expect(t.db.select().from(comments).where(eq(comments.id, c._id)).all()).toEqual([]);
    expect(t.db.select().from(replies).where(eq(replies.commentId, c._id)).all()).toEqual([]);
    expect(t.db.select().from(commentRatings).where(eq(commentRatings.commentId, c._id)).all()).toEqual([]);
    expect(
      t.db
        .select()
        .from(replyRatings)
        .where(inArray(replyRatings.replyId, [r1._id, r2._id]))
        .all(),
    ).toEqual([]);
    expect(t.db.select().from(images).where(inArray(images.id, imageIds)).all()).toEqual([]);
    expect(files.some(fileExists)).toBe(false);
    // The search index follows the comments table.
    expect(indexed()).toEqual({ n: 0 });
    expect(t.db.$client.prepare('select (select count(*) from comments_fts) - (select count(*) from comments) d').get()).toEqual({ d: 0 });
  });

  it('deleting a reply removes its ratings and picture only', async () => {
    const c = await post();
    const r = await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Svar med bild', imageBytes: await pngBytes(20, 20) });
    await rateReply(t.deps, cast.owner.actor, { id: r._id, rate: 5 });
    const imageId = t.db.select().from(replies).where(eq(replies.id, r._id)).get()!.imageId!;
    const file = imageFile(t.deps, imageId)!;
    await deleteReply(t.deps, cast.other.actor, r._id);
    expect(t.db.select().from(replyRatings).where(eq(replyRatings.replyId, r._id)).all()).toEqual([]);
    expect(fileExists(file)).toBe(false);
    expect(getComment(t.deps, null, c._id).replyCount).toBe(0);
  });
});

describe('feed', () => {
  let feedShop: string;
  let ids: string[];

  beforeAll(async () => {
    // A clean slate: earlier tests' comments would mix into the site-wide feed.
    t.db.delete(comments).run();
    feedShop = insertBusiness(t.db, 'Feed');
    ids = [];
    for (let i = 0; i < 30; i++) ids.push((await post(feedShop, `Kommentar nummer ${i}`))._id);
    // Spread the dates so "newest first" has one right answer; two share a timestamp on purpose.
    ids.forEach((id, i) =>
      t.db
        .update(comments)
        .set({ createdAt: 1_700_000_000_000 + Math.min(i, 28) * 1000 })
        .where(eq(comments.id, id))
        .run(),
    );
  });

  it('All Comments: newest first, 12 then 9 per Load More, no duplicates or gaps while new comments arrive', async () => {
    const first = listFeed(t.deps, null, { filter: 'all' });
    expect(first.items).toHaveLength(FEED_FIRST_PAGE);
    const newest = [...ids].reverse();
    // ids[28] and ids[29] share a timestamp: the id breaks the tie.
    const tied = [ids[28], ids[29]].sort().reverse();
    const expected = [...tied, ...newest.slice(2)];
    expect(first.items.map((c) => c._id)).toEqual(expected.slice(0, 12));

    // New comments arrive between pages: the next pages neither repeat nor skip anything.
    await post(feedShop, 'Alldeles ny kommentar');
    const second = listFeed(t.deps, null, { filter: 'all', cursor: first.nextCursor! });
    expect(second.items).toHaveLength(FEED_MORE_PAGE);
    const third = listFeed(t.deps, null, { filter: 'all', cursor: second.nextCursor! });
    expect(third.items).toHaveLength(FEED_MORE_PAGE);
    expect(third.nextCursor).toBeNull();
    const seen = [...first.items, ...second.items, ...third.items].map((c) => c._id);
    expect(seen).toEqual(expected);
    expect(listFeed(t.deps, null, { filter: 'all' }).items[0].text).toBe('Alldeles ny kommentar');
  });

  it('MOST REPLIED: most replies first, at most 12, newest first among equals', async () => {
    await replyTo(ids[3], cast.other);
    await replyTo(ids[3], cast.admin);
    await replyTo(ids[3], cast.owner);
    await replyTo(ids[10], cast.other);
    await replyTo(ids[20], cast.other);
    const got = listFeed(t.deps, null, { filter: 'mostReplied' });
    expect(got.items.map((c) => [c._id, c.replyCount])).toEqual([
      [ids[3], 3],
      [ids[20], 1],
      [ids[10], 1],
    ]);
    expect(got.nextCursor).toBeNull();
  });

  it('TOP RATED: the Bayesian score (5 imagined reactions of 3), ties by number of ratings then date, at most 12', async () => {
    const raters = await Promise.all([1, 2, 3].map(() => createTestUser(t.db)));
    await rateComment(t.deps, raters[0].actor, { id: ids[1], rate: 5 });
    await rateComment(t.deps, raters[0].actor, { id: ids[2], rate: 5 });
    await rateComment(t.deps, raters[1].actor, { id: ids[2], rate: 5 });
    await rateComment(t.deps, raters[0].actor, { id: ids[5], rate: 5 });
    await rateComment(t.deps, raters[0].actor, { id: ids[6], rate: 2 });
    for (let i = 7; i < 22; i++) await rateComment(t.deps, raters[2].actor, { id: ids[i], rate: 3 });
    const got = listFeed(t.deps, null, { filter: 'topRated' }).items;
    expect(got).toHaveLength(12);
    expect(got.slice(0, 3).map((c) => c._id)).toEqual([ids[2], ids[5], ids[1]]);
    expect(got.slice(3).every((c) => c.rate === 3)).toBe(true);
    expect(got.map((c) => c._id)).not.toContain(ids[6]);
  });

  it('TOP RATED: one reaction of 5 does not beat five averaging 4.2 (issue 30)', async () => {
    const raters = await Promise.all([1, 2, 3, 4, 5].map(() => createTestUser(t.db)));
    const five = ids[25];
    const one = ids[26];
    for (const [i, rate] of [5, 5, 4, 4, 3].entries()) await rateComment(t.deps, raters[i].actor, { id: five, rate });
    await rateComment(t.deps, raters[0].actor, { id: one, rate: 5 });
    const got = listFeed(t.deps, null, { filter: 'topRated' }).items.map((c) => c._id);
    // (15 + 21) / 10 = 3.6 against (15 + 5) / 6 = 3.33: the five come first, the one after them.
    expect(got[0]).toBe(five);
    expect(got.indexOf(one)).toBeGreaterThan(0);
  });

  it('cards carry what a feed card shows', () => {
    const card = listFeed(t.deps, null, { filter: 'all' }).items[0];
    expect(card).toMatchObject({ businessId: feedShop, businessTitle: 'Feed', firstName: 'Olle', lastName: 'Owner', businessLocation: 'Malmö' });
    expect(Object.keys(card.emojiCounts)).toEqual(['1', '2', '3', '4', '5']);
    expect(new Date(card.date).toISOString()).toBe(card.date);
  });
});

describe('the documented ratings lists', () => {
  it(`carry the newest ${RATINGS_LIST_CAP} ratings of each post, plus always the caller's own`, async () => {
    const post = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Mycket omtyckt', businessLocation: 'Lund' });
    const raters = await Promise.all(Array.from({ length: RATINGS_LIST_CAP + 5 }, () => createTestUser(t.db)));
    // One rating a millisecond, so "newest" is well defined.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      for (const rater of raters) {
        vi.advanceTimersByTime(1);
        await rateComment(t.deps, rater.actor, { id: post._id, rate: 4 });
      }
    } finally {
      vi.useRealTimers();
    }
    const newestFirst = raters.map((r) => r.id).reverse();
    const forVisitor = ratingLists(t.db, 'comment', [post._id], null).get(post._id)!;
    expect(forVisitor.map((r) => r.userId)).toEqual(newestFirst.slice(0, RATINGS_LIST_CAP));
    const earliest = raters[0];
    const forEarliest = ratingLists(t.db, 'comment', [post._id], earliest.id).get(post._id)!;
    expect(forEarliest).toHaveLength(RATINGS_LIST_CAP + 1);
    expect(forEarliest.at(-1)).toEqual({ userId: earliest.id, rate: 4 });
    expect(getComment(t.deps, null, post._id)).toMatchObject({ ratingCount: RATINGS_LIST_CAP + 5, rate: 4 });
  });

  it('leave out a banned rater, as the counts do, through REST; the unban puts them back', async () => {
    const post = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Omtyckt av några', businessLocation: 'Lund' });
    const [kept, banned] = await Promise.all([createTestUser(t.db), createTestUser(t.db)]);
    await rateComment(t.deps, kept.actor, { id: post._id, rate: 5 });
    await rateComment(t.deps, banned.actor, { id: post._id, rate: 1 });
    const reply = await createReply(t.deps, cast.owner.actor, { commentId: post._id, text: 'Tack!' });
    await rateReply(t.deps, kept.actor, { id: reply._id, rate: 5 });
    await rateReply(t.deps, banned.actor, { id: reply._id, rate: 1 });
    const listed = async () => {
      const comment = (await t.app.inject({ url: `/api/comment/${shop}` })).json<Array<{ _id: string; ratings: { userId: string }[]; rate: number }>>();
      const mine = comment.find((c) => c._id === post._id)!;
      const replies = (await t.app.inject({ url: `/api/subComment` })).json<Array<{ _id: string; ratings: { userId: string }[] }>>();
      // Who is listed, not in which order: the two rates may share a millisecond (newest first ties).
      const ids = (ratings: { userId: string }[]) => ratings.map((r) => r.userId).sort();
      return { comment: ids(mine.ratings), rate: mine.rate, reply: ids(replies.find((r) => r._id === reply._id)!.ratings) };
    };
    const both = [banned.id, kept.id].sort();
    expect(await listed()).toEqual({ comment: both, rate: 3, reply: both });
    await callerFor(t.deps, cast.admin).users.setFlags({ userId: banned.id, isBanned: true, banReason: 'Spam' });
    expect(await listed()).toEqual({ comment: [kept.id], rate: 5, reply: [kept.id] });
    await callerFor(t.deps, cast.admin).users.setFlags({ userId: banned.id, isBanned: false });
    expect(await listed()).toEqual({ comment: both, rate: 3, reply: both });
  });
});

describe("a business's comments and the search", () => {
  let b: string;
  beforeAll(async () => {
    b = insertBusiness(t.db, 'Sökbutik');
    const writer = await createTestUser(t.db, { firstName: 'Märta', lastName: 'Åkesson' });
    await createComment(t.deps, writer.actor, { businessId: b, text: 'Fantastiska kanelbullar', businessLocation: 'Umeå' });
    await createComment(t.deps, cast.owner.actor, { businessId: b, text: 'Långa köer vid kassan', businessLocation: 'Västerås C' });
    await createComment(t.deps, cast.other.actor, { businessId: b, text: 'Trevlig personal', businessLocation: 'Malmö' });
    // Same words on another business must not show up here.
    await createComment(t.deps, cast.other.actor, { businessId: shop, text: 'Kanelbullar även här', businessLocation: 'Umeå' });
  });
  const search = (text: string) => listBusinessComments(t.deps, null, { businessId: b, search: text }).items.map((c) => c.text);

  it("gives each card the business's title and icon, as the comment's own card has them", async () => {
    const icon = await storeImage(t.deps, { bytes: await pngBytes(), kind: 'business', ownerId: cast.admin.id });
    t.db.update(businesses).set({ iconId: icon.id }).where(eq(businesses.id, b)).run();
    const listed = listBusinessComments(t.deps, cast.other.actor, { businessId: b }).items;
    const found = listBusinessComments(t.deps, cast.other.actor, { businessId: b, search: 'kanelbullar' }).items;
    expect(listed).toHaveLength(3);
    expect(found).toHaveLength(1);
    for (const card of [...listed, ...found]) {
      expect(card).toMatchObject({ businessId: b, businessTitle: 'Sökbutik', businessIcon: expect.stringContaining(icon.fileName) });
      expect(card).toEqual(getComment(t.deps, cast.other.actor, card._id));
    }
  });

  it('lists newest first and pages by cursor', () => {
    const all = listBusinessComments(t.deps, null, { businessId: b });
    expect(all.items.map((c) => c.text)).toEqual(['Trevlig personal', 'Långa köer vid kassan', 'Fantastiska kanelbullar']);
    const p1 = listBusinessComments(t.deps, null, { businessId: b, limit: 2 });
    const p2 = listBusinessComments(t.deps, null, { businessId: b, limit: 2, cursor: p1.nextCursor! });
    expect([...p1.items, ...p2.items].map((c) => c.text)).toEqual(all.items.map((c) => c.text));
    expect(p2.nextCursor).toBeNull();
  });

  it('matches branch location, text or author name, by word prefix, folding case and diacritics', () => {
    expect(search('umea')).toEqual(['Fantastiska kanelbullar']);
    expect(search('VÄSTER')).toEqual(['Långa köer vid kassan']);
    expect(search('kanel')).toEqual(['Fantastiska kanelbullar']);
    expect(search('åkesson')).toEqual(['Fantastiska kanelbullar']);
    expect(search('Märta Åke')).toEqual(['Fantastiska kanelbullar']);
    expect(search('trevlig malmö')).toEqual(['Trevlig personal']);
    expect(search('ingenting')).toEqual([]);
  });

  it('pages search results newest first by cursor, and never matches the business key itself', async () => {
    const more = insertBusiness(t.db, 'Sökbutik två');
    for (let i = 0; i < 7; i++) {
      await createComment(t.deps, cast.owner.actor, { businessId: more, text: `Kaffe nummer ${i}`, businessLocation: 'Lund' });
    }
    const found = (cursor?: string) => listBusinessComments(t.deps, null, { businessId: more, search: 'kaffe', limit: 3, cursor });
    const p1 = found();
    const p2 = found(p1.nextCursor!);
    const p3 = found(p2.nextCursor!);
    expect([...p1.items, ...p2.items, ...p3.items].map((c) => c.text)).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Kaffe nummer ${i}`));
    expect(p3.nextCursor).toBeNull();
    const key = searchKeyOf(more);
    expect(listBusinessComments(t.deps, null, { businessId: more, search: key }).items).toEqual([]);
    expect(listBusinessComments(t.deps, null, { businessId: more, search: key.slice(0, 6) }).items).toEqual([]);
  });

  it('matches the start of a word longer than the indexed prefixes, and never more than the word', async () => {
    const long = insertBusiness(t.db, 'Långa ord');
    await createComment(t.deps, cast.owner.actor, { businessId: long, text: 'Kundtjänstpersonalen var bäst', businessLocation: 'Lund' });
    await createComment(t.deps, cast.owner.actor, { businessId: long, text: 'Kundtjänsten svarade aldrig', businessLocation: 'Lund' });
    const found = (text: string) =>
      listBusinessComments(t.deps, null, { businessId: long, search: text })
        .items.map((c) => c.text)
        .sort();
    expect(found('kundtjänst')).toEqual(['Kundtjänsten svarade aldrig', 'Kundtjänstpersonalen var bäst']);
    expect(found('KUNDTJANSTP')).toEqual(['Kundtjänstpersonalen var bäst']);
    expect(found('kundtjänstpers')).toEqual(['Kundtjänstpersonalen var bäst']);
    expect(found('kundtjänstpersonalen')).toEqual(['Kundtjänstpersonalen var bäst']);
    expect(found('kundtjänstpersonalens')).toEqual([]);
    expect(found('kundtjänsten')).toEqual(['Kundtjänsten svarade aldrig']);
    expect(found('k b')).toEqual(['Kundtjänstpersonalen var bäst']);
  });

  it('empty text clears the search', () => {
    expect(search('')).toHaveLength(3);
  });

  it('FTS syntax in the text is plain text, never an error', () => {
    for (const nasty of [
      '"',
      '"kanel',
      'kanel*',
      'AND',
      'OR kanel',
      'NEAR(kanel umea)',
      '*',
      '(',
      ')',
      "'; drop table comments; --",
      'text:kanel',
      '^kanel',
      '-',
      'a"b"c',
      '\\',
    ]) {
      expect(() => search(nasty), nasty).not.toThrow();
    }
    expect(search('kanel*')).toEqual(['Fantastiska kanelbullar']);
    expect(search('text:kanel')).toEqual([]);
    expect(t.db.select().from(users).all().length).toBeGreaterThan(0);
  });

  it('the author name in the index follows a name change', () => {
    const [row] = t.db
      .select()
      .from(comments)
      .where(and(eq(comments.businessId, b), eq(comments.businessLocation, 'Malmö')))
      .all();
    t.db.update(users).set({ firstName: 'Zlatan' }).where(eq(users.id, row.userId)).run();
    expect(search('zlatan')).toEqual(['Trevlig personal']);
  });
});
