import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notificationEvents, notifications } from '../../../db/schema';
import { insertBusiness } from '../../test/comment-fixtures';
import { createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { createComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { startMaintenance } from './maintenance';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
});
afterAll(() => t.close());

describe('maintenance timers', () => {
  it('work off queued replies and reactions within a second, without a read (docs/decisions/020)', async () => {
    const [anna, bo] = await Promise.all([createTestUser(t.db, { firstName: 'Anna' }), createTestUser(t.db, { firstName: 'Bo' })]);
    const c = await createComment(t.deps, anna.actor, { businessId: insertBusiness(t.db, 'Timerkaféet'), text: 'Goda bullar här', businessLocation: 'Lund' });
    await createReply(t.deps, bo.actor, { commentId: c._id, text: 'Håller med' });
    expect(t.db.select().from(notificationEvents).all()).toHaveLength(1);
    vi.useFakeTimers();
    const log = { info: vi.fn(), error: vi.fn() };
    const stop = startMaintenance(t.deps, log);
    try {
      vi.advanceTimersByTime(1_000);
      expect(t.db.select().from(notificationEvents).all()).toEqual([]);
      expect(t.db.select({ userId: notifications.userId, kind: notifications.kind }).from(notifications).all()).toContainEqual({
        userId: anna.id,
        kind: 'reply',
      });
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
