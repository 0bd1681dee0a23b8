import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCast, createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { insertBusiness } from '../test/comment-fixtures';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { reportPost, resolveReports } from '../services/moderation/reports';

// Issue 29 item 13: the header's badge counts the posts waiting in the open queue, for
// moderators and admins only, through both doors.

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
});
afterAll(() => t.close());

const waitingRest = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/reports/waiting', headers });
const waitingTrpc = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/trpc/moderation.waiting', headers });

describe('waiting reports', () => {
  it('counts reported posts (not reports) until they are decided', async () => {
    const moderator = await createTestUser(t.db, { firstName: 'Mona', lastName: 'Moderator', isModerator: true });
    expect((await waitingRest(bearer(cast.admin))).json()).toEqual({ waiting: 0 });
    const shop = insertBusiness(t.db, 'Väntebutiken');
    const comment = await createComment(t.deps, cast.owner.actor, { businessId: shop, text: 'Ett omdöme om kaffet', businessLocation: 'Lund' });
    const reply = await createReply(t.deps, cast.owner.actor, { commentId: comment._id, text: 'Ett svar' });
    await reportPost(t.deps, cast.other.actor, 'comment', { id: comment._id, reason: 'spam' });
    await reportPost(t.deps, moderator.actor, 'comment', { id: comment._id, reason: 'offensive' });
    await reportPost(t.deps, cast.other.actor, 'reply', { id: reply._id, reason: 'spam' });
    expect((await waitingRest(bearer(cast.admin))).json()).toEqual({ waiting: 2 });
    expect((await waitingTrpc(bearer(moderator))).json().result.data).toEqual({ waiting: 2 });
    await resolveReports(t.deps, cast.admin.actor, { id: comment._id, action: 'dismiss' });
    expect((await waitingRest(bearer(moderator))).json()).toEqual({ waiting: 1 });
  });

  it('answers only moderators and admins', async () => {
    expect((await waitingRest({})).statusCode).toBe(401);
    for (const w of ['owner', 'banned'] as const) {
      expect((await waitingRest(bearer(cast[w]))).statusCode).toBe(403);
      expect((await waitingTrpc(bearer(cast[w]))).statusCode).toBe(403);
    }
  });

  it('reads only the open prefix of the queue index', () => {
    const plan = (
      t.deps.db.$client.prepare('explain query plan select count(distinct coalesce(comment_id, reply_id)) from reports where resolved_at is null').all() as {
        detail: string;
      }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    expect(plan).toMatch(/reports_queue_idx \(resolved_at=\?\)/);
  });
});
