import { fillPlaceholders } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { MODERATION_PAGE } from '../../../shared/schemas/comments';
import { createComment, listForModeration, moderationSearchQuery } from './comments';

let t: TestContext;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let åsa: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  [admin, moderator, member, åsa] = await Promise.all([
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
    createTestUser(t.db, { firstName: 'Mona', lastName: 'Moderator', isModerator: true }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Berg' }),
    createTestUser(t.db, { firstName: 'Åsa', lastName: 'Öberg' }),
  ]);
  const bageri = insertBusiness(t.db, 'ÅHLÉNS Bageri');
  const kafe = insertBusiness(t.db, 'Kafé Lund');
  const post = async (key: string, who: TestUser, businessId: string, text: string) =>
    (ids[key] = (await createComment(t.deps, who.actor, { businessId, text, businessLocation: 'Lund' }))._id);
  await post('kanel', member, kafe, 'Goda KANELBULLAR och trevlig personal');
  await post('asa', åsa, kafe, 'Bra kaffe men lång kö');
  await post('bageri', member, bageri, 'Färskt bröd varje morgon');
  // More than a page of comments matching "sida", among others that do not match.
  for (let i = 0; i < MODERATION_PAGE + 5; i++) {
    await post(`sida${i}`, member, kafe, `Sida nummer ${i} av testet`);
    if (i % 10 === 0) await post(`other${i}`, member, kafe, `Något helt annat ${i}`);
  }
});
afterAll(() => t.close());

const search = (who: TestUser, q: string, cursor?: string) => listForModeration(t.deps, who.actor, { q, cursor });
const idsOf = (page: { items: { _id: string }[] }) => page.items.map((c) => c._id);

describe('comment moderation search (issue 29, item 13)', () => {
  it('is for moderators and admins only: visitor 401, member 403, through tRPC too', async () => {
    expect(() => listForModeration(t.deps, null, { q: 'kaffe' })).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => search(member, 'kaffe')).toThrow(expect.objectContaining({ status: 403 }));
    await expect(callerFor(t.deps, null).comments.moderation({ q: 'kaffe' })).rejects.toSatisfy((e) => e instanceof TRPCError && e.code === 'UNAUTHORIZED');
    await expect(callerFor(t.deps, member).comments.moderation({ q: 'kaffe' })).rejects.toSatisfy((e) => e instanceof TRPCError && e.code === 'FORBIDDEN');
    expect(idsOf(search(moderator, 'kaffe'))).toEqual([ids.asa]);
    expect(idsOf(await callerFor(t.deps, admin).comments.moderation({ q: 'kaffe' }))).toEqual([ids.asa]);
  });

  it('finds by words in the text, folded by Swedish rules', () => {
    expect(idsOf(search(admin, 'kanelbull'))).toEqual([ids.kanel]);
    expect(idsOf(search(admin, 'FÄRSKT'))).toEqual([ids.bageri]);
  });

  it("finds by the author's name, first and last", () => {
    expect(idsOf(search(admin, 'åsa öberg'))).toEqual([ids.asa]);
    expect(idsOf(search(admin, 'ÖBERG'))).toEqual([ids.asa]);
  });

  it("finds by the business's title, folded", () => {
    expect(idsOf(search(admin, 'åhléns'))).toEqual([ids.bageri]);
    expect(idsOf(search(admin, 'ahlens'))).toEqual([]);
  });

  it('pages through the matches only, newest first, with the replies field', () => {
    const first = search(admin, 'sida');
    expect(first.items).toHaveLength(MODERATION_PAGE);
    expect(first.items.every((c) => c.text.startsWith('Sida') && Array.isArray(c.replies))).toBe(true);
    expect(first.nextCursor).toBeTruthy();
    const second = search(admin, 'sida', first.nextCursor!);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const all = [...idsOf(first), ...idsOf(second)];
    expect(new Set(all)).toEqual(new Set(Array.from({ length: MODERATION_PAGE + 5 }, (_, i) => ids[`sida${i}`])));
    // Newest first; comments posted in the same millisecond (several, now that posting is fast) by id, as the feed.
    const keys = [...first.items, ...second.items].map((c) => `${c.date} ${c._id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('no match is an empty page; an empty search lists everything', () => {
    expect(search(admin, 'finnsinte')).toEqual({ items: [], nextCursor: null });
    expect(search(admin, '   ').items).toHaveLength(MODERATION_PAGE);
  });

  it('walks comments_feed_idx newest first, with no sort and no scan of comments', () => {
    for (const withCursor of [false, true]) {
      const { sql, params } = moderationSearchQuery(t.db, withCursor).toSQL();
      const bound = fillPlaceholders(params, { me: admin.id, admin: 1, needle: 'sida', limit: 51, t: Date.now(), k: 'm' });
      const plan = (t.db.$client.prepare(`explain query plan ${sql}`).all(...bound) as { detail: string }[]).map((r) => r.detail);
      expect(
        plan.some((d) => /comments USING INDEX comments_feed_idx/.test(d)),
        plan.join('\n'),
      ).toBe(true);
      expect(
        plan.filter((d) => /TEMP B-TREE|^SCAN comments$/.test(d)),
        plan.join('\n'),
      ).toEqual([]);
    }
  });
});
