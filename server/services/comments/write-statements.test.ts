import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCast, createTestApp, type TestContext } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { createComment } from './comments';
import { createReply } from './replies';
import { rateComment, rateReply } from './comment-ratings';
import { rateBusiness } from '../business/business-ratings';

/**
 * The bench's write rows (issue 32 item 3) compile their statements once per database handle:
 * building a statement with Drizzle and preparing it in SQLite on every call cost a large share of
 * a write (docs/operations/scaling.md). After a first call, the same write prepares nothing.
 */
let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Hemköp');
});
afterAll(() => t.close());

/** How many statements SQLite compiled while `work` ran. */
async function preparedDuring(work: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(t.db.$client, 'prepare');
  try {
    await work();
    return spy.mock.calls.map((c) => String(c[0]));
  } finally {
    spy.mockRestore();
  }
}

describe('the frequent writes prepare no statement once warm', () => {
  const comment = () => createComment(t.deps, cast.owner.actor, { businessId: shop, text: `Trevlig personal ${Math.random()}`, businessLocation: 'Malmö' });

  it('a new comment', async () => {
    await comment();
    expect(await preparedDuring(comment)).toEqual([]);
  });

  it('a reply', async () => {
    const { _id } = await comment();
    const reply = () => createReply(t.deps, cast.other.actor, { commentId: _id, text: `Håller med ${Math.random()}` });
    await reply();
    expect(await preparedDuring(reply)).toEqual([]);
  });

  it('an emoji reaction to a comment and to a reply, and a star rating', async () => {
    const { _id } = await comment();
    const { _id: replyId } = await createReply(t.deps, cast.owner.actor, { commentId: _id, text: 'Tack för svaret' });
    const calls = async () => {
      await rateComment(t.deps, cast.other.actor, { id: _id, rate: 1 + Math.floor(Math.random() * 5) });
      await rateReply(t.deps, cast.other.actor, { id: replyId, rate: 1 + Math.floor(Math.random() * 5) });
      await rateBusiness(t.deps, cast.other.actor, shop, 1 + Math.floor(Math.random() * 5));
    };
    await calls();
    expect(await preparedDuring(calls)).toEqual([]);
  });
});
