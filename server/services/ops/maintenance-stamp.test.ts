import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { favorites, mailOutbox, notifications, notificationSettings } from '../../../db/schema';
import { insertBusiness } from '../../test/comment-fixtures';
import { createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { createPublicCache } from '../../plugins/public-cache';
import { dataStamp, unshownWrite } from '../../lib/data-stamp';
import { createComment } from '../comments/comments';
import { indexQueuedComments } from '../comments/comment-search';
import { createReply } from '../comments/replies';
import { startMaintenance } from './maintenance';
import { createMailer } from './mail';
import { createOutbox, enqueueMail } from './mail-outbox';
import { startSmtp } from '../../test/accounts-testing';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
});
afterAll(() => t.close());

const changes = () => t.db.$client.prepare('select total_changes()').pluck().get() as number;

describe('the data stamp and personal writes (issue 32, scale 10)', () => {
  it('unshownWrite leaves the stamp where it was, even when the write throws; other writes move it', () => {
    t.db.$client.exec('create temp table stamp_test (x integer)');
    const before = dataStamp(t.db);
    unshownWrite(t.db, () => t.db.$client.prepare('insert into stamp_test (x) values (1)').run());
    expect(() =>
      unshownWrite(t.db, () => {
        t.db.$client.prepare('update stamp_test set x = 2').run();
        throw new Error('after a write');
      }),
    ).toThrow('after a write');
    expect(dataStamp(t.db)).toBe(before);
    insertBusiness(t.db, 'Räknas');
    expect(dataStamp(t.db)).not.toBe(before);
  });

  it('keeps the public cache while the mail job and the fan-out write notifications, mails and watermarks', async () => {
    const [anna, bo, cilla] = await Promise.all([
      createTestUser(t.db, { firstName: 'Anna' }),
      createTestUser(t.db, { firstName: 'Bo' }),
      createTestUser(t.db, { firstName: 'Cilla' }),
    ]);
    const shop = insertBusiness(t.db, 'Stämpelkaféet');
    // Bo has posted, wants mail of new reviews at once and follows the shop; Cilla reviews it.
    await createComment(t.deps, bo.actor, { businessId: insertBusiness(t.db, 'Annat'), text: 'Har skrivit förut', businessLocation: 'Lund' });
    t.db
      .insert(notificationSettings)
      .values({ userId: bo.id, token: `token-${bo.id}`, reviews: 'instant' })
      .run();
    t.db
      .insert(favorites)
      .values({ userId: bo.id, businessId: shop, createdAt: Date.now() - 1_000 })
      .run();
    const review = await createComment(t.deps, cilla.actor, { businessId: shop, text: 'En ny recension', businessLocation: 'Lund' });
    // A queued reply event for the fan-out (docs/decisions/020).
    await createReply(t.deps, anna.actor, { commentId: review._id, text: 'Håller med' });

    // The new comments' search rows are a write visitors see (comment search): made before the cache keeps anything.
    indexQueuedComments(t.db);
    const cache = createPublicCache(t.db);
    cache.keep('/api/comment/most-subcomments', cache.stamp(), Buffer.from('[]'), '"kept"', []);
    const written = changes();
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'] });
    const log = { info: vi.fn(), error: vi.fn() };
    const stop = startMaintenance(t.deps, log);
    try {
      // The first hourly sweep (5 s), the fan-out (each second), the mail job (15 s) and its slices.
      vi.advanceTimersByTime(15_000);
      for (let i = 0; i < 100; i++) vi.advanceTimersByTime(1);
    } finally {
      stop();
      vi.useRealTimers();
    }
    expect(log.error).not.toHaveBeenCalled();
    // The timers did write: Cilla got the reply's notice, Bo the review's.
    expect(changes()).toBeGreaterThan(written);
    const rows = t.db.select({ userId: notifications.userId, kind: notifications.kind }).from(notifications).all();
    expect(rows).toContainEqual({ userId: cilla.id, kind: 'reply' });
    expect(rows.map((r) => r.userId)).toContain(bo.id);
    // …and the kept reply is still there.
    cache.stamp();
    expect(cache.sizes().list.entries).toBe(1);
    // A write a visitor sees still empties it.
    await createComment(t.deps, anna.actor, { businessId: shop, text: 'Synlig skrivning', businessLocation: 'Lund' });
    cache.stamp();
    expect(cache.sizes().list.entries).toBe(0);
  });

  it('keeps the public cache while the outbox sends a mail (a real SMTP server)', async () => {
    const silent = { info: () => undefined, error: () => undefined, warn: () => undefined };
    const smtp = await startSmtp();
    const outbox = createOutbox(t.db, createMailer({ ...t.deps.env, SMTP_URL: smtp.url }, t.deps.paths.outbox, silent), silent, { pollMs: null });
    try {
      enqueueMail(t.db, { to: 'stamp@example.test', subject: 'Hej', text: 'Ett brev' });
      indexQueuedComments(t.db); // the last test's comment: its search rows are a counted write
      const cache = createPublicCache(t.db);
      cache.keep('/api/comment', cache.stamp(), Buffer.from('[]'), '"kept"', []);
      await outbox.deliverDue();
      expect(smtp.mailsTo('stamp@example.test')).toHaveLength(1);
      expect(t.db.select().from(mailOutbox).all()).toEqual([]);
      cache.stamp();
      expect(cache.sizes().list.entries).toBe(1);
    } finally {
      outbox.stop();
      await smtp.close();
    }
  });

  it("keeps the public cache while a member's bell and list make her notices and mark them read", async () => {
    const [dora, eva] = await Promise.all([createTestUser(t.db, { firstName: 'Dora' }), createTestUser(t.db, { firstName: 'Eva' })]);
    const shop = insertBusiness(t.db, 'Klockbutiken');
    const review = await createComment(t.deps, dora.actor, { businessId: shop, text: 'Bra klockor', businessLocation: 'Lund' });
    // A queued reply event and a new review of a favourite wait to become Dora's rows on her next look.
    await createReply(t.deps, eva.actor, { commentId: review._id, text: 'Visst!' });
    t.db
      .insert(favorites)
      .values({ userId: dora.id, businessId: shop, createdAt: Date.now() - 60_000 })
      .run();
    await createComment(t.deps, eva.actor, { businessId: shop, text: 'Min recension av klockorna', businessLocation: 'Lund' });
    indexQueuedComments(t.db);
    const cache = createPublicCache(t.db);
    cache.keep('/api/comment', cache.stamp(), Buffer.from('[]'), '"kept"', []);
    const written = changes();
    const headers = { authorization: `Bearer ${dora.token}` };
    const list = await t.app.inject({ url: '/api/notifications', headers });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json<{ items: Array<{ kind: string }> }>()
        .items.map((n) => n.kind)
        .toSorted(),
    ).toEqual(['favoriteReview', 'reply']);
    const read = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers, payload: { all: true } });
    expect(read.json()).toEqual({ unread: 0 });
    // They wrote (her rows, her watermark, read marks) and the kept reply is still there.
    expect(changes()).toBeGreaterThan(written);
    cache.stamp();
    expect(cache.sizes().list.entries).toBe(1);
  });
});
