import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, callerFor, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { createComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { reportPost, resolveReports } from './reports';

// Issue 29 item 11: a person whose post was hidden or removed finds it, with the reason, on their
// own profile (REST and tRPC), besides the notification.

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let reporters: TestUser[];
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  reporters = await Promise.all([1, 2, 3].map((i) => createTestUser(t.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
  await establish(t.deps, reporters);
  shop = insertBusiness(t.db, 'Noticebutiken');
});
afterAll(() => t.close());

describe("a person's own hidden and removed posts", () => {
  it('lists the removed one with its reason and the hidden one, to its author only (REST and tRPC)', async () => {
    const kept = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Bra bröd', businessLocation: 'Lund' });
    const removed = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Köp billiga klockor här', businessLocation: 'Lund' });
    const hidden = await createReply(t.deps, cast.owner.actor, { commentId: kept._id, text: 'Ett svar som fick anmälningar' });
    await reportPost(t.deps, cast.other.actor, 'comment', { id: removed._id, reason: 'spam' });
    await resolveReports(t.deps, cast.admin.actor, { id: removed._id, action: 'remove', reason: 'spam', reasonText: 'Reklam' });
    for (const r of reporters) await reportPost(t.deps, r.actor, 'reply', { id: hidden._id, reason: 'offensive' });

    const rest = await t.app.inject({ method: 'GET', url: '/api/users/me/moderated-posts', headers: bearer(cast.owner) });
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['cache-control']).toBe('private, no-store');
    const items = rest.json<{ _id: string }[]>();
    expect(items).toHaveLength(2);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'comment',
          _id: removed._id,
          commentId: removed._id,
          state: 'removed',
          reason: 'spam: Reklam',
          businessTitle: 'Noticebutiken',
        }),
        expect.objectContaining({
          kind: 'reply',
          _id: hidden._id,
          commentId: kept._id,
          state: 'hidden',
          reason: null,
          excerpt: 'Ett svar som fick anmälningar',
        }),
      ]),
    );
    expect(await callerFor(t.deps, cast.owner).moderation.ownModerated()).toEqual(rest.json());

    // Nobody else's list holds them; visitors are asked to log in.
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/moderated-posts', headers: bearer(cast.other) })).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/moderated-posts' })).statusCode).toBe(401);
    await expect(callerFor(t.deps, null).moderation.ownModerated()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
