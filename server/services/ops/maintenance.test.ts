import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { favorites, notificationEvents, notifications, notificationSettings } from '../../../db/schema';
import { insertBusiness } from '../../test/comment-fixtures';
import { createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { createComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { FAN_OUT_SLICE, FAN_OUT_SLICE_MS, MAIL_PULL_SLICE_MS, startMaintenance } from './maintenance';
import { notifyReaction, pendingReactionCount } from '../notifications/notifications';

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

  it(`work off more than a slice (${FAN_OUT_SLICE} events) in one tick, a slice at a time: the queue does not grow under load`, async () => {
    const [anna, bo] = await Promise.all([createTestUser(t.db, { firstName: 'Anna' }), createTestUser(t.db, { firstName: 'Bo' })]);
    const c = await createComment(t.deps, anna.actor, { businessId: insertBusiness(t.db, 'Brådskan'), text: 'Många reaktioner', businessLocation: 'Lund' });
    // More first reactions than one slice takes (here all Bo's, so they group into one notice).
    for (let i = 0; i < FAN_OUT_SLICE + 5; i++) notifyReaction(t.db, bo.id, 'comment', c._id, Date.now());
    vi.useFakeTimers();
    const log = { info: vi.fn(), error: vi.fn() };
    const stop = startMaintenance(t.deps, log);
    try {
      vi.advanceTimersByTime(1_000);
      // One slice, then a turn for requests (setImmediate), then the rest in the same tick.
      expect(pendingReactionCount(t.db)).toBe(5);
      vi.advanceTimersByTime(1);
      expect(pendingReactionCount(t.db)).toBe(0);
      const rows = t.db.select({ userId: notifications.userId, kind: notifications.kind, count: notifications.count }).from(notifications).all();
      expect(rows).toContainEqual({ userId: anna.id, kind: 'reaction', count: FAN_OUT_SLICE + 5 });
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      stop();
      vi.useRealTimers();
    }
  });

  it(`a slice also stops after ${FAN_OUT_SLICE_MS} ms; the rest follows at the next turn, not at the next tick`, async () => {
    const [anna, bo] = await Promise.all([createTestUser(t.db, { firstName: 'Anna' }), createTestUser(t.db, { firstName: 'Bo' })]);
    const c = await createComment(t.deps, anna.actor, { businessId: insertBusiness(t.db, 'Långsamt'), text: 'Några reaktioner', businessLocation: 'Lund' });
    for (let i = 0; i < 20; i++) notifyReaction(t.db, bo.id, 'comment', c._id, Date.now());
    vi.useFakeTimers();
    // A clock that moves 20 ms per look: a slice's deadline passes after its third event.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 20));
    const log = { info: vi.fn(), error: vi.fn() };
    const stop = startMaintenance(t.deps, log);
    try {
      vi.advanceTimersByTime(1_000);
      expect(pendingReactionCount(t.db)).toBe(17);
      // The slices that follow run in the turns after it (a setImmediate each), three events a
      // slice: six turns, a few milliseconds, not the next second's tick.
      let turns = 0;
      while (pendingReactionCount(t.db) > 0 && turns < 50) {
        vi.advanceTimersByTime(1);
        turns++;
      }
      expect(pendingReactionCount(t.db)).toBe(0);
      expect(turns).toBe(6);
      const rows = t.db.select({ userId: notifications.userId, kind: notifications.kind, count: notifications.count }).from(notifications).all();
      expect(rows).toContainEqual({ userId: anna.id, kind: 'reaction', count: 20 });
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      stop();
      now.mockRestore();
      vi.useRealTimers();
    }
  });

  it(`pull new reviews of favourites for their mail readers in slices of ${MAIL_PULL_SLICE_MS} ms, requests in between`, async () => {
    const [cilla, dan, eva] = await Promise.all([
      createTestUser(t.db, { firstName: 'Cilla' }),
      createTestUser(t.db, { firstName: 'Dan' }),
      createTestUser(t.db, { firstName: 'Eva' }),
    ]);
    const shop = insertBusiness(t.db, 'Skivbutiken');
    const elsewhere = insertBusiness(t.db, 'Annanstans');
    // Dan and Eva have posted and want mail of new reviews at once; both follow the shop.
    for (const who of [dan, eva]) {
      await createComment(t.deps, who.actor, { businessId: elsewhere, text: 'Har skrivit förut', businessLocation: 'Lund' });
      t.db
        .insert(notificationSettings)
        .values({ userId: who.id, token: `token-${who.id}`, reviews: 'instant' })
        .run();
      t.db
        .insert(favorites)
        .values({ userId: who.id, businessId: shop, createdAt: Date.now() - 1_000 })
        .run();
    }
    const review = await createComment(t.deps, cilla.actor, { businessId: shop, text: 'En ny recension', businessLocation: 'Lund' });
    const pulled = () =>
      t.db
        .select({ userId: notifications.userId })
        .from(notifications)
        .all()
        .filter((r) => r.userId === dan.id || r.userId === eva.id);
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'] });
    const log = { info: vi.fn(), error: vi.fn() };
    const stop = startMaintenance(t.deps, log);
    try {
      expect(pulled()).toEqual([]);
      // The timer's run and the slices it hands on with setImmediate.
      vi.advanceTimersByTime(15_000);
      await vi.runAllTimersAsync().catch(() => undefined);
      expect(
        pulled()
          .map((r) => r.userId)
          .sort(),
      ).toEqual([dan.id, eva.id].sort());
      expect(
        t.db
          .select({ c: notifications.commentId })
          .from(notifications)
          .all()
          .map((r) => r.c),
      ).toContain(review._id);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
