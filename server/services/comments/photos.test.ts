import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, replies } from '../../../db/schema';
import { callerFor, createCast, createTestApp, type TestContext } from '../../test/helpers';
import { insertBusiness, pngBytes } from '../../test/comment-fixtures';
import { createComment } from './comments';
import { createReply } from './replies';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;
let elsewhere: string;
/** The gallery as it should be, counted straight from the tables: newest first, ids. */
let expected: string[];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Bildbutiken');
  elsewhere = insertBusiness(t.db, 'Någon annan');
  const post = async (text: string, withPhoto: boolean, businessId = shop) =>
    createComment(t.deps, cast.owner.actor, { businessId, text, businessLocation: 'Lund', ...(withPhoto ? { imageBytes: await pngBytes(80, 60) } : {}) });
  const reply = async (commentId: string, withPhoto: boolean) =>
    createReply(t.deps, cast.other.actor, { commentId, text: 'Svar med eller utan bild', ...(withPhoto ? { imageBytes: await pngBytes(60, 80) } : {}) });

  const made: { id: string; table: 'comments' | 'replies' }[] = [];
  for (let i = 0; i < 9; i++) {
    const c = await post(`Kommentar nummer ${i}`, i % 3 !== 1);
    made.push({ id: c._id, table: 'comments' });
    const r = await reply(c._id, i % 2 === 0);
    made.push({ id: r._id, table: 'replies' });
  }
  await post('Bild hos någon annan', true, elsewhere);
  // Spread the times, with two ties, so the order and the cursor's tie-break both matter.
  made.forEach(({ id, table }, i) => {
    const createdAt = 1_700_000_000_000 + Math.floor(i / 3) * 60_000 + (i % 3 === 2 ? 0 : i % 3) * 1000;
    const tbl = table === 'comments' ? comments : replies;
    t.db.update(tbl).set({ createdAt }).where(eq(tbl.id, id)).run();
  });
  // Hidden by reports, removed by a moderator (a comment, a reply), a reply under a hidden comment: none is shown.
  const [hidden, removed] = made.filter((m) => m.table === 'comments').slice(0, 2);
  t.db.update(comments).set({ hiddenAt: Date.now() }).where(eq(comments.id, hidden.id)).run();
  t.db.update(comments).set({ removedAt: Date.now() }).where(eq(comments.id, removed.id)).run();
  const removedReply = made.filter((m) => m.table === 'replies').at(-1)!;
  t.db.update(replies).set({ removedAt: Date.now() }).where(eq(replies.id, removedReply.id)).run();

  const rows = [
    ...t.db
      .select()
      .from(comments)
      .where(eq(comments.businessId, shop))
      .all()
      .filter((c) => c.imageId && !c.hiddenAt && !c.removedAt),
    ...t.db
      .select()
      .from(replies)
      .where(eq(replies.businessId, shop))
      .all()
      .filter((r) => r.imageId && !r.hiddenAt && !r.removedAt && r.commentId !== hidden.id),
  ];
  expected = rows.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((r) => r.id);
});
afterAll(() => t.close());

describe("a business's photo gallery", () => {
  it('through tRPC: every public picture of comments and replies, newest first, paged by cursor', async () => {
    expect(expected.length).toBeGreaterThan(6);
    const visitor = callerFor(t.deps, null);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await visitor.business.photos({ id: shop, limit: 3, cursor });
      expect(page.total).toBe(expected.length);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);

    const first = await visitor.business.photos({ id: shop });
    const reply = first.items.find((p) => p.kind === 'reply');
    expect(reply).toMatchObject({ author: { firstName: 'Ada', lastName: 'Other' }, width: 60, height: 80 });
    expect(reply?.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    const parent = t.db.select({ commentId: replies.commentId }).from(replies).where(eq(replies.id, reply!.id)).get();
    expect(reply?.commentId).toBe(parent?.commentId);
    expect(first.items.find((p) => p.kind === 'comment')).toMatchObject({ author: { firstName: 'Olle', lastName: 'Owner' } });
  });

  it('through REST the same, with X-Next-Cursor; garbage is a 400, an unknown business a 404', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/business/${shop}/photos?limit=4${cursor ? `&cursor=${cursor}` : ''}` });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ total: number; items: { id: string }[]; nextCursor: string | null }>();
      expect(body.total).toBe(expected.length);
      expect(res.headers['x-next-cursor'] ?? null).toBe(body.nextCursor);
      seen.push(...body.items.map((p) => p.id));
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    expect(seen).toEqual(expected);

    expect((await t.app.inject({ method: 'GET', url: `/api/business/${shop}/photos?cursor=not-a-cursor` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/business/${shop}/photos?limit=0` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/business/nope/photos' })).statusCode).toBe(404);
    const empty = await t.app.inject({ method: 'GET', url: `/api/business/${insertBusiness(t.db)}/photos` });
    expect(empty.json()).toEqual({ total: 0, items: [], nextCursor: null });
  });

  it('is the same for every reader: an author and an admin see no hidden pictures here', async () => {
    const asVisitor = await callerFor(t.deps, null).business.photos({ id: shop, limit: 100 });
    for (const user of [cast.owner, cast.admin]) {
      expect(await callerFor(t.deps, user).business.photos({ id: shop, limit: 100 })).toEqual(asVisitor);
    }
  });
});
