import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createBusiness } from '../services/business/business-admin';
import { rateBusiness } from '../services/business/business-ratings';
import { createComment } from '../services/comments/comments';
import { setFavorite } from '../services/business/favorites';
import { createReply } from '../services/comments/replies';
import { bearer, createCast, createTestApp, type TestContext, type TestUser } from '../test/helpers';
import { queryPaths } from './procedures';

/**
 * The plain-query path (plain-queries.ts) must answer exactly as tRPC's own handler does. Two
 * apps on one database, one of them without the fast path, get the same requests for every
 * query procedure of the router, as a visitor, a member and an admin, with valid and invalid
 * input; status, content type and body bytes must be equal.
 */
let t: TestContext;
let tRPCOnly: FastifyInstance;
let cast: Awaited<ReturnType<typeof createCast>>;
const ids = { business: '', branch: '', comment: '', reply: '' };

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  tRPCOnly = await buildApp(t.deps, { logger: false, plainQueries: false });
  await tRPCOnly.ready();
  cast = await createCast(t.db);
  const created = await createBusiness(t.deps, cast.admin.actor, {
    title: 'Bokhandeln',
    category: 'Böcker',
    description: 'Böcker och papper.',
    rate: 4,
    branches: [{ location: 'Lund', address: 'Stora Södergatan 1' }],
  });
  ids.business = created.id;
  ids.branch = created.branches[0].id;
  ids.comment = (
    await createComment(t.deps, cast.owner.actor, { businessId: ids.business, text: 'Stort utbud, kunnig personal.', businessLocation: 'Lund' })
  )._id;
  ids.reply = (await createReply(t.deps, cast.other.actor, { commentId: ids.comment, text: 'Håller med!' }))._id;
  await rateBusiness(t.deps, cast.other.actor, ids.business, 5);
  await setFavorite(t.deps, cast.owner.actor, { businessId: ids.business, favorite: true });
});
afterAll(async () => {
  await tRPCOnly.close();
  await t.close();
});

/** Inputs for every query: a valid one first, then ones its schema or its rules refuse. */
const inputs = (): Record<string, unknown[]> => ({
  'business.directory': [undefined, { search: 'bok' }, { search: 42 }, { sort: 'rating', category: 'Livsmedel' }, { sort: 'sideways' }],
  'business.directoryPage': [
    undefined,
    { limit: 2 },
    { search: 'konsum', limit: 20 },
    { limit: 2, cursor: '2', sort: 'rating' },
    { limit: 0 },
    { cursor: 'x' },
  ],
  'business.directoryFilters': [undefined, { category: 'Livsmedel' }, { city: 'x'.repeat(101) }],
  'business.factChanges': [{ id: ids.business }, {}],
  'business.directoryPlaces': [undefined, { city: 'Malmö' }, { sort: 'sideways' }],
  'business.directoryCards': [{ ids: [ids.business] }, { ids: [ids.business, 'no-such-business'] }, { ids: [] }, {}],
  'business.list': [undefined, { order: 'newest' }, { order: 'sideways' }],
  'business.byId': [{ id: ids.business }, { id: 'no-such-business' }],
  'business.photos': [{ id: ids.business }, { id: ids.business, limit: 1 }, { id: ids.business, cursor: 'not-a-cursor' }, { id: 'no-such-business' }],
  'business.categories': [undefined],
  'business.favorites': [{ userId: cast.owner.id }, {}],
  'comments.feed': [{}, { filter: 'mostReplied' }, { filter: 'nope' }],
  'comments.byBusiness': [
    { businessId: ids.business },
    { businessId: ids.business, search: 'utbud' },
    { businessId: 'missing' },
    { businessId: ids.business, branch: ids.branch, search: 'utbud' },
    { businessId: ids.business, branch: 'no-such-branch' },
    { businessId: ids.business, place: 'Umeå' },
    { businessId: ids.business, branch: ids.branch, place: 'Umeå' },
  ],
  'comments.byId': [{ id: ids.comment }, { id: 'missing' }],
  'comments.replies': [{ commentId: ids.comment }, { commentId: ids.comment, limit: 0 }],
  'comments.moderation': [{}, { limit: 1000 }],
  'home.summary': [undefined],
  'home.suggestionBox': [undefined],
  'moderation.reports': [{}, { status: 'resolved' }, { status: 'x' }],
  'moderation.log': [undefined, {}, { action: 'ban' }, { targetKind: 'x' }],
  'moderation.ratingBursts': [{}, { status: 'resolved' }, { cursor: '%%%' }],
  'moderation.digest': [undefined],
  'moderation.waiting': [undefined],
  'moderation.ownModerated': [undefined],
  'notifications.list': [undefined, {}, { cursor: '%%%' }],
  'notifications.unread': [undefined],
  'notifications.settings': [undefined],
  'owners.claims': [undefined, { status: 'approved' }, { status: 'x' }],
  'owners.owners': [{ businessId: ids.business }, { businessId: 'no-such-business' }],
  'owners.mine': [undefined],
  'owners.stats': [{ businessId: ids.business }, { businessId: 'no-such-business' }],
  'site.mailOutbox': [undefined],
  'suggestions.mine': [undefined],
  'suggestions.queue': [undefined, {}, { cursor: '%%%' }, { limit: 0 }],
  'site.settings': [undefined],
  'site.contactMessages': [undefined, {}, { unread: true, limit: 1 }, { cursor: '%%%' }, { limit: 0 }],
  'users.me': [undefined],
  'users.config': [undefined],
  'users.list': [undefined],
  'users.page': [undefined, { q: 'Olle' }, { limit: 1 }, { cursor: 'x' }, { limit: 1000 }],
  'users.byId': [{ id: cast.owner.id }, { id: '' }],
  'users.profile': [{ id: cast.owner.id }, { id: cast.owner.id, cursor: '%%%' }, { id: 'no-such-user' }],
  'users.myPosts': [{ kind: 'reviews' }, { kind: 'replies', limit: 1 }, { kind: 'reviews', cursor: '%%%' }, { kind: 'photos' }],
  'users.exportData': [undefined],
});

const url = (path: string, input: unknown) => `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

/** The data export carries the moment it was made; two calls are never in the same millisecond. */
const sameMoment = (body: string) => body.replace(/"exportedAt":"[^"]+"/, '"exportedAt":"…"');

async function both(path: string, headers: Record<string, string>) {
  const [fast, own] = await Promise.all([t.app.inject({ url: path, headers }), tRPCOnly.inject({ url: path, headers })]);
  return { fast, own };
}

describe('plain GET queries against tRPC’s own handler', () => {
  it('has inputs for every query procedure of the router', () => {
    expect(
      Object.keys(inputs())
        .filter((p) => queryPaths().includes(p))
        .sort(),
    ).toEqual(queryPaths());
  });

  it('answers every query with the same status, type and bytes, for a visitor, a member and an admin', async () => {
    const actors: [string, TestUser | null][] = [
      ['visitor', null],
      ['member', cast.owner],
      ['admin', cast.admin],
    ];
    let compared = 0;
    for (const path of queryPaths()) {
      for (const input of inputs()[path] ?? []) {
        for (const [who, user] of actors) {
          const { fast, own } = await both(url(path, input), user ? bearer(user) : {});
          const label = `${path} ${JSON.stringify(input)} as ${who}`;
          expect(fast.statusCode, label).toBe(own.statusCode);
          expect(fast.headers['content-type'], label).toBe(own.headers['content-type']);
          expect(sameMoment(fast.body), label).toBe(sameMoment(own.body));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('answers a batch as the client sends it with the same bytes', async () => {
    const batch = `/trpc/business.byId,comments.byBusiness,users.me?batch=1&input=${encodeURIComponent(
      JSON.stringify({ 0: { id: ids.business }, 1: { businessId: ids.business } }),
    )}`;
    for (const headers of [{}, bearer(cast.owner)]) {
      const { fast, own } = await both(batch, headers);
      expect(fast.statusCode).toBe(200);
      expect(fast.body).toBe(own.body);
    }
  });
});
