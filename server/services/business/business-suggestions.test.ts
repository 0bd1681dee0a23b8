import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses, modLog, users } from '../../../db/schema';
import { PENDING_SUGGESTIONS_MAX } from '../../../shared/schemas/suggestions';
import { bearer, callerFor, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { businessMatches } from './business-search';

/**
 * Suggested places (issue 31.5) through both doors (REST over HTTP, tRPC through the router):
 * who may suggest, who may work the queue, what approving and rejecting do.
 */

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
  moderator = await createTestUser(t.db, { firstName: 'Mona', lastName: 'Moderator', isModerator: true });
});
afterAll(() => t.close());

const pizzeria = { title: 'Torgets Pizzeria', category: 'Pizza', location: 'Ystad', address: 'Stortorget 1', website: 'https://pizzeria-torget.se' };

const post = (user: TestUser | null, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: user ? bearer(user) : {}, ...(payload ? { payload } : {}) });
const get = (user: TestUser | null, url: string) => t.app.inject({ url, headers: user ? bearer(user) : {} });

describe('suggesting a place', () => {
  it('lets a signed-in member suggest one (REST 201, tRPC), and tells a visitor and a banned member no', async () => {
    const rest = await post(cast.owner, '/api/business/suggestions', pizzeria);
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json()).toMatchObject({
      ...pizzeria,
      status: 'pending',
      reason: null,
      businessId: null,
      message: 'Thank you! A moderator will look at your suggestion.',
    });

    const viaTrpc = await callerFor(t.deps, cast.other).suggestions.create({ ...pizzeria, title: 'Kebab Hörnan', website: '' });
    expect(viaTrpc).toMatchObject({ title: 'Kebab Hörnan', website: null, status: 'pending' });

    const visitor = await post(null, '/api/business/suggestions', pizzeria);
    expect([visitor.statusCode, visitor.json<{ message: string }>().message]).toEqual([401, 'Please log in to suggest a place.']);
    await expect(callerFor(t.deps, null).suggestions.create(pizzeria)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await post(cast.banned, '/api/business/suggestions', pizzeria)).statusCode).toBe(403);
    await expect(callerFor(t.deps, cast.banned).suggestions.create(pizzeria)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('bounds every field with a 400 naming it, never a 500', async () => {
    for (const [field, value, message] of [
      ['title', 'P', 'Name Too Short!'],
      ['title', 'P'.repeat(51), 'Name Too Long!'],
      ['category', '', '*Required'],
      ['location', 'x'.repeat(101), 'Location Too Long!'],
      ['address', undefined, '*Required'],
      ['website', 'javascript:alert(1)', 'Enter the website as an address starting with http:// or https://.'],
      ['website', `https://a.se/${'x'.repeat(200)}`, 'The website address is too long.'],
    ] as const) {
      const res = await post(cast.owner, '/api/business/suggestions', { ...pizzeria, [field]: value });
      expect([field, res.statusCode], res.body).toEqual([field, 400]);
      expect(res.json<{ errors: Record<string, string> }>().errors[field]).toBe(message);
    }
    expect((await post(cast.owner, '/api/business/suggestions', { ...pizzeria, title: 42 })).statusCode).toBe(400);
  });

  it(`keeps at most ${PENDING_SUGGESTIONS_MAX} of a member's suggestions waiting (409)`, async () => {
    const member = await createTestUser(t.db);
    for (let i = 0; i < PENDING_SUGGESTIONS_MAX; i++)
      expect((await post(member, '/api/business/suggestions', { ...pizzeria, title: `Ställe ${i}` })).statusCode).toBe(201);
    const over = await post(member, '/api/business/suggestions', { ...pizzeria, title: 'Ett till' });
    expect(over.statusCode).toBe(409);
    await expect(callerFor(t.deps, member).suggestions.create(pizzeria)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('limits suggestions per member (429 with Retry-After)', async () => {
    const limited = await createTestApp({ env: { RATE_LIMITS: '1' } });
    try {
      const member = await createTestUser(limited.db);
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/business/suggestions',
          headers: bearer(member),
          payload: { ...pizzeria, title: `Ställe ${i}` },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(res.headers['retry-after']).toBeDefined();
      }
      expect(statuses).toContain(429);
    } finally {
      await limited.close();
    }
  });
});

describe('the queue', () => {
  it('is for moderators and admins only, through both doors', async () => {
    for (const user of [cast.admin, moderator]) {
      const res = await get(user, '/api/business/suggestions');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Array<{ title: string }>>().map((s) => s.title)).toContain('Torgets Pizzeria');
    }
    expect((await callerFor(t.deps, moderator).suggestions.queue({})).items.length).toBeGreaterThan(0);
    expect((await get(null, '/api/business/suggestions')).statusCode).toBe(401);
    expect((await get(cast.owner, '/api/business/suggestions')).statusCode).toBe(403);
    expect((await get(cast.banned, '/api/business/suggestions')).statusCode).toBe(403);
    await expect(callerFor(t.deps, cast.owner).suggestions.queue({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('pages oldest first with X-Next-Cursor, naming the suggester', async () => {
    const first = await get(moderator, '/api/business/suggestions?limit=2');
    const page = first.json<Array<{ createdAt: string; suggester: { firstName: string } }>>();
    expect(page).toHaveLength(2);
    expect(page[0].suggester.firstName).toBe('Olle');
    const next = await get(moderator, `/api/business/suggestions?limit=2&cursor=${first.headers['x-next-cursor'] as string}`);
    expect(next.json<Array<{ createdAt: string }>>()[0].createdAt >= page[1].createdAt).toBe(true);
  });
});

describe('deciding', () => {
  const pendingId = async (title: string) => (await callerFor(t.deps, moderator).suggestions.queue({ limit: 100 })).items.find((s) => s.title === title)!._id;

  it('lets no member, visitor or banned moderator decide', async () => {
    const id = await pendingId('Torgets Pizzeria');
    for (const user of [null, cast.owner, cast.banned]) {
      expect((await post(user, `/api/business/suggestions/${id}/approve`)).statusCode).toBe(user ? 403 : 401);
      expect((await post(user, `/api/business/suggestions/${id}/reject`, { reason: 'Nej' })).statusCode).toBe(user ? 403 : 401);
    }
    const bannedModerator = await createTestUser(t.db, { isModerator: true, isBanned: true });
    expect((await post(bannedModerator, `/api/business/suggestions/${id}/approve`)).statusCode).toBe(403);
    await expect(callerFor(t.deps, cast.other).suggestions.approve({ id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('approving (REST, a moderator) creates the business, credits its suggester and makes it findable', async () => {
    const id = await pendingId('Torgets Pizzeria');
    const res = await post(moderator, `/api/business/suggestions/${id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json<{ status: string; businessId: string; message: string }>();
    expect(decided).toMatchObject({ status: 'approved', message: 'The place was added to the directory.' });

    const page = await get(null, `/api/business/${decided.businessId}`);
    expect(page.json()).toMatchObject({
      title: 'Torgets Pizzeria',
      category: 'Pizza',
      website: 'https://pizzeria-torget.se',
      branches: [{ location: 'Ystad', address: 'Stortorget 1', town: 'Ystad', area: null }],
      suggestedBy: { _id: cast.owner.id, firstName: 'Olle', lastName: 'Owner' },
    });
    expect((await callerFor(t.deps, null).business.byId({ id: decided.businessId })).suggestedBy).toEqual({
      id: cast.owner.id,
      firstName: 'Olle',
      lastName: 'Owner',
    });
    expect([...businessMatches(t.db, 'pizza').keys()]).toEqual([decided.businessId]);
    expect([...businessMatches(t.db, 'ystad').keys()]).toEqual([decided.businessId]);
    expect(t.db.select().from(modLog).where(eq(modLog.targetId, decided.businessId)).get()).toMatchObject({
      action: 'approveSuggestion',
      actorId: moderator.id,
    });

    // Decided once only.
    expect((await post(cast.admin, `/api/business/suggestions/${id}/approve`)).statusCode).toBe(409);
    expect((await post(cast.admin, `/api/business/suggestions/${id}/reject`, { reason: 'Dubblett' })).statusCode).toBe(409);
    expect((await post(cast.admin, '/api/business/suggestions/no-such-id/approve')).statusCode).toBe(404);

    // The member sees it approved with its business.
    const mine = await get(cast.owner, '/api/business/suggestions/mine');
    expect(mine.json<Array<{ _id: string; status: string; businessId: string }>>().find((s) => s._id === id)).toMatchObject({
      status: 'approved',
      businessId: decided.businessId,
    });
  });

  it('rejecting (tRPC, an admin) needs a reason, which the member is told', async () => {
    const id = await pendingId('Kebab Hörnan');
    await expect(callerFor(t.deps, cast.admin).suggestions.reject({ id, reason: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await post(cast.admin, `/api/business/suggestions/${id}/reject`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    const decided = await callerFor(t.deps, cast.admin).suggestions.reject({ id, reason: 'Finns redan som Kebab Hörnet.' });
    expect(decided).toMatchObject({ status: 'rejected', reason: 'Finns redan som Kebab Hörnet.', businessId: null });
    const mine = await callerFor(t.deps, cast.other).suggestions.mine();
    expect(mine.find((s) => s._id === id)).toMatchObject({ status: 'rejected', reason: 'Finns redan som Kebab Hörnet.' });
    expect(businessMatches(t.db, 'kebab').size).toBe(0);
    // Only their own: another member's list does not hold it.
    expect((await get(cast.owner, '/api/business/suggestions/mine')).json<Array<{ _id: string }>>().some((s) => s._id === id)).toBe(false);
    expect((await get(null, '/api/business/suggestions/mine')).statusCode).toBe(401);
  });

  it("keeps the business when its suggester's account is deleted, without the credit", async () => {
    const member = await createTestUser(t.db, { firstName: 'Tillfällig' });
    const created = await callerFor(t.deps, member).suggestions.create({ ...pizzeria, title: 'Glassbaren' });
    const { businessId } = await callerFor(t.deps, moderator).suggestions.approve({ id: created._id });
    t.db.delete(users).where(eq(users.id, member.id)).run();
    expect(t.db.select({ suggestedBy: businesses.suggestedBy }).from(businesses).where(eq(businesses.id, businessId!)).get()).toEqual({ suggestedBy: null });
    expect((await get(null, `/api/business/${businessId}`)).json()).toMatchObject({ title: 'Glassbaren', suggestedBy: null });
  });
});
