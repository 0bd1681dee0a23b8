import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, favorites, notificationEvents, notifications, replies, users } from '../../../db/schema';
import { THREAD_COUNT_MAX, threadCountText } from '../../../shared/schemas/notifications';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { establish } from '../../test/trust';
import { deleteAccount } from '../accounts/accounts-delete';
import { rateComment, rateReply } from '../comments/comment-ratings';
import { createComment } from '../comments/comments';
import {
  cleanupQueries,
  drainNotificationEvents,
  eventQueries,
  listNotifications,
  markNotificationsRead,
  markReadQuery,
  notificationQueries,
  notificationWrites,
  pendingReactionCount,
  pruneReadNotifications,
  READ_NOTIFICATIONS_KEPT_MS,
  THREAD_NOTIFY_REPLIERS,
} from './notifications';
import { createReply, deleteReply } from '../comments/replies';
import { reportPost, resolveReports } from '../moderation/reports';

let t: TestContext;
let anna: TestUser, bo: TestUser, cilla: TestUser, dan: TestUser, admin: TestUser;
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', REPORT_HIDE_THRESHOLD: '2' } });
  [anna, bo, cilla, dan, admin] = await Promise.all([
    createTestUser(t.db, { firstName: 'Anna', lastName: 'Andersson' }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Berg' }),
    createTestUser(t.db, { firstName: 'Cilla', lastName: 'Carlsson' }),
    createTestUser(t.db, { firstName: 'Dan', lastName: 'Dahl' }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
  ]);
  shop = insertBusiness(t.db, 'Notiskaféet');
});
afterAll(() => t.close());

const review = (who: TestUser, text = 'Kanelbullarna var fantastiska', business = shop) =>
  createComment(t.deps, who.actor, { businessId: business, text, businessLocation: 'Lund' });
const reply = (who: TestUser, commentId: string, text = 'Håller helt med dig') => createReply(t.deps, who.actor, { commentId, text });
/** The user's unread notifications, newest first. */
const rowsOf = (user: TestUser) =>
  listNotifications(t.deps, user.actor, { limit: 100 })
    .items.filter((n) => !n.read)
    .map((n) => ({
      kind: n.kind,
      actor: n.actor?._id ?? null,
      commentId: n.commentId,
      replyId: n.replyId,
      count: n.count,
      reason: n.reason,
    }));
const clear = async (...who: TestUser[]) => {
  for (const u of who) await markNotificationsRead(t.deps, u.actor, { all: true });
};
const unreadOf = (user: TestUser) => listNotifications(t.deps, user.actor, {}).unread;

describe('which events notify whom', () => {
  it('a reply notifies the comment author and the thread, never the one who replied', async () => {
    const c = await review(anna);
    await clear(anna, bo, cilla, dan);
    const r1 = await reply(bo, c._id);
    expect(rowsOf(anna)).toEqual([{ kind: 'reply', actor: bo.id, commentId: c._id, replyId: r1._id, count: 1, reason: null }]);
    expect(rowsOf(bo)).toEqual([]);
    const r2 = await reply(cilla, c._id);
    expect(rowsOf(bo)).toEqual([{ kind: 'threadReply', actor: cilla.id, commentId: c._id, replyId: r2._id, count: 1, reason: null }]);
    // The author's notice of her thread counts both replies, leads to the first, names the latest.
    expect(rowsOf(anna)).toEqual([{ kind: 'reply', actor: cilla.id, commentId: c._id, replyId: r1._id, count: 2, reason: null }]);
    expect(rowsOf(cilla)).toEqual([]);
    // Bo replies again in the thread: Cilla hears of it, Bo not of his own.
    await reply(bo, c._id, 'En gång till');
    expect(rowsOf(cilla).map((n) => [n.kind, n.actor, n.count])).toEqual([['threadReply', bo.id, 1]]);
    expect(rowsOf(bo)).toHaveLength(1);
    // The author replying in her own thread: the repliers hear it as a thread reply, she nothing.
    await reply(anna, c._id, 'Tack för svaren');
    expect(rowsOf(anna)).toEqual([{ kind: 'reply', actor: bo.id, commentId: c._id, replyId: r1._id, count: 3, reason: null }]);
    expect(rowsOf(bo)[0]).toMatchObject({ kind: 'threadReply', actor: anna.id, count: 2 });
    expect(rowsOf(cilla)[0]).toMatchObject({ kind: 'threadReply', actor: anna.id, count: 2 });
    expect(rowsOf(dan)).toEqual([]);
  });

  it('a reply in a long thread notifies its latest repliers, at most THREAD_NOTIFY_REPLIERS', async () => {
    const c = await review(anna, 'En lång tråd om bullarna');
    const crowd = await Promise.all(Array.from({ length: THREAD_NOTIFY_REPLIERS + 2 }, (_, i) => createTestUser(t.db, { firstName: `Svarare${i}` })));
    // Cilla replied first, then the whole crowd: she is not among the latest 50.
    await reply(cilla, c._id, 'Först i tråden');
    for (const who of crowd) await reply(who, c._id, `Svar från ${who.id}`);
    await clear(anna, cilla);
    for (const who of crowd) await clear(who);
    const last = await reply(dan, c._id, 'Sist i tråden');
    const told = crowd.filter((who) => rowsOf(who).some((n) => n.replyId === last._id));
    // The latest 50 of the crowd heard of Dan's reply, the first two and Cilla (before them all) did not.
    expect(told.map((w) => w.id)).toEqual(crowd.slice(-THREAD_NOTIFY_REPLIERS).map((w) => w.id));
    expect(rowsOf(cilla).filter((n) => n.replyId === last._id)).toEqual([]);
    expect(
      rowsOf(anna)
        .filter((n) => n.replyId === last._id)
        .map((n) => n.kind),
    ).toEqual(['reply']);
  });

  it('a thread’s replies are grouped per thread while unread: one notice counts them and names the latest', async () => {
    const c = await review(anna, 'En tråd som växer');
    await reply(bo, c._id, 'Först');
    await clear(anna, bo, cilla, dan);
    const first = await reply(cilla, c._id, 'Sedan');
    await reply(dan, c._id, 'Och jag');
    await reply(cilla, c._id, 'En gång till');
    // Bo heard of three replies in one notice, linked to the first he missed, naming the latest.
    expect(rowsOf(bo)).toEqual([{ kind: 'threadReply', actor: cilla.id, commentId: c._id, replyId: first._id, count: 3, reason: null }]);
    // Cilla had replied before Dan: his reply and none of her own.
    expect(rowsOf(cilla)).toEqual([{ kind: 'threadReply', actor: dan.id, commentId: c._id, replyId: expect.any(String), count: 1, reason: null }]);
    expect(unreadOf(bo)).toBe(1);
    // Once read, the next reply starts a notice of its own; the read one keeps its count.
    await clear(bo);
    const next = await reply(dan, c._id, 'Sista ordet');
    const ofThread = listNotifications(t.deps, bo.actor, {}).items.filter((n) => n.commentId === c._id);
    expect(ofThread.map((n) => [n.count, n.replyId, n.read])).toEqual([
      [1, next._id, false],
      [3, first._id, true],
    ]);
    // The thread's author hears of them the same way: one notice since she last read.
    expect(rowsOf(anna)).toEqual([{ kind: 'reply', actor: dan.id, commentId: c._id, replyId: first._id, count: 4, reason: null }]);
  });

  it('an open thread notice counts live: not hidden replies, not a banned author’s, at most THREAD_COUNT_MAX', async () => {
    const eva = await createTestUser(t.db, { firstName: 'Eva', lastName: 'Ek' });
    const c = await review(anna, 'En tråd som räknas live');
    await reply(bo, c._id, 'Jag svarar först');
    await clear(bo);
    const first = await reply(cilla, c._id, 'Cilla svarar');
    const hidden = await reply(dan, c._id, 'Dan svarar');
    await reply(eva, c._id, 'Eva svarar');
    expect(rowsOf(bo)).toEqual([{ kind: 'threadReply', actor: eva.id, commentId: c._id, replyId: first._id, count: 3, reason: null }]);
    // A hidden reply no longer counts; a banned author's neither, nor is named.
    t.db.update(replies).set({ hiddenAt: Date.now() }).where(eq(replies.id, hidden._id)).run();
    t.db.update(users).set({ isBanned: true }).where(eq(users.id, eva.id)).run();
    expect(rowsOf(bo)).toEqual([{ kind: 'threadReply', actor: cilla.id, commentId: c._id, replyId: first._id, count: 1, reason: null }]);
    t.db.update(users).set({ isBanned: false }).where(eq(users.id, eva.id)).run();
    // A thread of more than THREAD_COUNT_MAX new replies is counted up to it ("99+").
    for (let i = 0; i < THREAD_COUNT_MAX; i++) await reply(cilla, c._id, `Cilla igen ${i}`);
    const [busy] = rowsOf(bo);
    expect(busy.count).toBe(THREAD_COUNT_MAX);
    expect(threadCountText(busy.count)).toBe(`${THREAD_COUNT_MAX - 1}+`);
    // Read, it keeps what it said (settled), whatever comes after.
    await clear(bo);
    await reply(eva, c._id, 'Eva en gång till');
    const ofThread = listNotifications(t.deps, bo.actor, {}).items.filter((n) => n.commentId === c._id);
    expect(ofThread.map((n) => [n.count, n.actor?._id, n.read])).toEqual([
      [1, eva.id, false],
      [THREAD_COUNT_MAX, cilla.id, true],
    ]);
  });

  it('a batch tells each replier what the same replies worked off one at a time would have', async () => {
    // Two threads get the same 90 replies from 60 people (some reply often): one thread's events
    // are worked off after every reply, the other's in one batch. Each reader's notice must agree.
    const people = [bo, cilla, dan, ...(await Promise.all(Array.from({ length: 57 }, (_, i) => createTestUser(t.db, { firstName: `Deltagare${i}` }))))];
    const one = await review(anna, 'Svar ett i taget');
    const many = await review(anna, 'Svar i en klump');
    drainNotificationEvents(t.db);
    const order = Array.from({ length: 90 }, (_, i) => people[(i * 37 + (i % 7) * 11) % people.length]);
    const queued = () => t.db.select().from(notificationEvents).all().length;
    const ids: Record<string, string[]> = { [one._id]: [], [many._id]: [] };
    for (const [i, who] of order.entries()) {
      ids[one._id].push((await reply(who, one._id, `Ett i taget ${i}`))._id);
      drainNotificationEvents(t.db);
    }
    for (const [i, who] of order.entries()) ids[many._id].push((await reply(who, many._id, `I klump ${i}`))._id);
    expect(queued()).toBe(90);
    drainNotificationEvents(t.db);
    expect(queued()).toBe(0);
    // Per reader: the count, the latest replier and which reply (by its place) the notice links to.
    const byReader = (thread: string) =>
      people.map((who) =>
        listNotifications(t.deps, who.actor, { limit: 100 })
          .items.filter((n) => n.commentId === thread && n.kind === 'threadReply')
          .map((n) => [n.count, n.actor?._id, ids[thread].indexOf(n.replyId ?? '')]),
      );
    const told = byReader(one._id);
    expect(byReader(many._id)).toEqual(told);
    // Not vacuous: more than 50 people replied, so the earliest stopped hearing.
    expect(told.filter((n) => n.length > 0).length).toBeGreaterThan(THREAD_NOTIFY_REPLIERS);
    expect(Math.max(...told.map((n) => (n[0]?.[0] as number | undefined) ?? 0))).toBeLessThan(90);
  });

  it('reactions are grouped per post while unread: "3 people reacted"', async () => {
    const c = await review(anna);
    const r = await reply(bo, c._id);
    await clear(anna, bo);
    await rateComment(t.deps, bo.actor, { id: c._id, rate: 5 });
    await rateComment(t.deps, cilla.actor, { id: c._id, rate: 4 });
    // A changed rate or a withdrawn one is not news.
    await rateComment(t.deps, cilla.actor, { id: c._id, rate: 3 });
    await rateComment(t.deps, dan.actor, { id: c._id, rate: 5 });
    await rateComment(t.deps, dan.actor, { id: c._id, rate: null });
    expect(rowsOf(anna)).toEqual([{ kind: 'reaction', actor: bo.id, commentId: c._id, replyId: null, count: 3, reason: null }]);
    await rateReply(t.deps, anna.actor, { id: r._id, rate: 4 });
    expect(rowsOf(bo)).toEqual([{ kind: 'reaction', actor: anna.id, commentId: c._id, replyId: r._id, count: 1, reason: null }]);
    // Once read, the next reaction starts a new notice.
    await clear(anna);
    await rateComment(t.deps, admin.actor, { id: c._id, rate: 2 });
    const ofPost = listNotifications(t.deps, anna.actor, {}).items.filter((n) => n.commentId === c._id && n.kind === 'reaction');
    expect(ofPost.map((n) => [n.count, n.actor?._id, n.read])).toEqual([
      [1, admin.id, false],
      [3, bo.id, true],
    ]);
    expect(unreadOf(anna)).toBe(1);
  });

  it('a new review notifies those who keep the business among favourites, not its author', async () => {
    const other = insertBusiness(t.db, 'Favoritbageriet');
    const now = Date.now();
    t.db
      .insert(favorites)
      .values([anna, bo, cilla].map((u) => ({ userId: u.id, businessId: other, createdAt: now })))
      .run();
    await clear(anna, bo, cilla, dan);
    const c = await review(bo, 'Bästa surdegen i stan', other);
    expect(rowsOf(anna)).toEqual([{ kind: 'favoriteReview', actor: bo.id, commentId: c._id, replyId: null, count: 1, reason: null }]);
    expect(rowsOf(cilla)).toHaveLength(1);
    expect(rowsOf(bo)).toEqual([]);
    expect(rowsOf(dan)).toEqual([]);
    expect(listNotifications(t.deps, anna.actor, {}).items[0]).toMatchObject({
      businessId: other,
      businessTitle: 'Favoritbageriet',
      link: `/comment/${c._id}#comment-${c._id}`,
    });
  });

  it('hidden by reports, restored and removed: the author hears each with the reason; reporters hear the outcome', async () => {
    const c = await review(anna, 'En recension som någon ogillar');
    const r = await reply(anna, (await review(dan))._id, 'Ett svar som någon ogillar');
    // Only established reporters' reports hide a post (docs/product.md "Moderation and trust").
    await establish(t.deps, [bo, cilla]);
    await clear(anna, bo, cilla, dan);
    await reportPost(t.deps, bo.actor, 'comment', { id: c._id, reason: 'spam' });
    expect(rowsOf(anna)).toEqual([]);
    await reportPost(t.deps, cilla.actor, 'comment', { id: c._id, reason: 'offensive' });
    expect(rowsOf(anna)).toEqual([{ kind: 'hidden', actor: null, commentId: c._id, replyId: null, count: 1, reason: null }]);
    await resolveReports(t.deps, admin.actor, { id: c._id, action: 'dismiss' });
    expect(rowsOf(anna)[0]).toMatchObject({ kind: 'restored', actor: null });
    for (const u of [bo, cilla])
      expect(rowsOf(u)).toEqual([{ kind: 'reportResolved', actor: null, commentId: c._id, replyId: null, count: 1, reason: 'dismiss' }]);

    await reportPost(t.deps, bo.actor, 'reply', { id: r._id, reason: 'spam' });
    // The author reads the reason and words chosen for them, never the private note to the log.
    await resolveReports(t.deps, admin.actor, { id: r._id, action: 'remove', reason: 'spam', reasonText: 'Reklam', note: 'Privat' });
    expect(rowsOf(anna)[0]).toEqual({ kind: 'removed', actor: null, commentId: r.commentId, replyId: r._id, count: 1, reason: 'spam: Reklam' });
    expect(rowsOf(bo)[0]).toMatchObject({ kind: 'reportResolved', replyId: r._id, reason: 'remove' });
    // Without a note, the author reads the reports' reasons.
    const c2 = await review(anna, 'Ännu en recension');
    await reportPost(t.deps, cilla.actor, 'comment', { id: c2._id, reason: 'fake' });
    await resolveReports(t.deps, admin.actor, { id: c2._id, action: 'remove' });
    expect(rowsOf(anna)[0]).toMatchObject({ kind: 'removed', reason: 'fake' });
    // The removing admin is told nothing of her own decision, nor of a report she resolved herself.
    expect(rowsOf(admin).filter((n) => n.kind !== 'reaction')).toEqual([]);
  });

  it('nothing from a banned account; a deleted account takes its notices with it', async () => {
    const eve = await createTestUser(t.db, { firstName: 'Eve', lastName: 'Evil' });
    const c = await review(anna);
    await clear(anna);
    await reply(eve, c._id, 'Elakt svar');
    await rateComment(t.deps, eve.actor, { id: c._id, rate: 1 });
    expect(unreadOf(anna)).toBe(2);
    t.db.update(users).set({ isBanned: true }).where(eq(users.id, eve.id)).run();
    expect(rowsOf(anna).filter((n) => n.actor === eve.id)).toEqual([]);
    expect(unreadOf(anna)).toBe(0);
    t.db.update(users).set({ isBanned: false }).where(eq(users.id, eve.id)).run();
    expect(unreadOf(anna)).toBe(2);
    await deleteAccount(t.deps, eve.actor, eve.id);
    expect(t.db.select().from(notifications).where(eq(notifications.actorId, eve.id)).all()).toEqual([]);
    expect(unreadOf(anna)).toBe(0);
  });
});

describe('a deleted reply takes its notices with it (notifications.reply_id has no foreign key)', () => {
  const aboutReply = (replyId: string) => t.db.select().from(notifications).where(eq(notifications.replyId, replyId)).all();

  it('deleting a reply, or its author’s account, deletes every notice about it, a reporter’s outcome too', async () => {
    const gus = await createTestUser(t.db, { firstName: 'Gus', lastName: 'Grön' });
    await establish(t.deps, [bo]);
    const c = await review(anna, 'En tråd där svar försvinner');
    const kept = await reply(cilla, c._id, 'Det här svaret står kvar');
    const own = await reply(dan, c._id, 'Dan tar bort det här');
    const byGus = await reply(gus, c._id, 'Gus konto försvinner');
    await rateReply(t.deps, bo.actor, { id: byGus._id, rate: 5 });
    await reportPost(t.deps, bo.actor, 'reply', { id: byGus._id, reason: 'spam' });
    await resolveReports(t.deps, admin.actor, { id: byGus._id, action: 'dismiss' });
    drainNotificationEvents(t.db);
    expect(aboutReply(own._id).length).toBeGreaterThan(0);
    // Bo's outcome of his report has no actor and goes to Bo: no cascade would reach it.
    expect(aboutReply(byGus._id).map((n) => [n.kind, n.userId])).toContainEqual(['reportResolved', bo.id]);

    await deleteReply(t.deps, dan.actor, own._id);
    expect(aboutReply(own._id)).toEqual([]);
    await deleteAccount(t.deps, gus.actor, gus.id);
    expect(aboutReply(byGus._id)).toEqual([]);
    expect(aboutReply(kept._id).length).toBeGreaterThan(0);
  });

  it('an id that is not a notification’s marks nothing and is no error', async () => {
    const c = await review(cilla, 'Ett id som inte finns');
    await clear(cilla);
    await reply(dan, c._id);
    for (const ids of [['x'], ['0'], ['99999999999999999999'], ['1.5']]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: bearer(cilla), payload: { ids } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ unread: 1 });
    }
  });
});

describe('replies and reactions are queued and fanned out in batches (docs/decisions/020)', () => {
  /** Replies wait in the queue's table, first reactions in memory. */
  const queued = () => t.db.select().from(notificationEvents).all().length + pendingReactionCount(t.db);
  const rowsAbout = (commentId: string) => t.db.select().from(notifications).where(eq(notifications.commentId, commentId)).all();

  it('the write queues one event and no row; the next read writes the rows; an earlier replier hears of a later reply, not the other way', async () => {
    drainNotificationEvents(t.db);
    const c = await review(anna, 'Kön först');
    await clear(anna, bo, cilla);
    const r1 = await reply(bo, c._id, 'Först');
    const r2 = await reply(cilla, c._id, 'Sedan');
    await rateComment(t.deps, dan.actor, { id: c._id, rate: 4 });
    expect(queued()).toBe(3);
    expect(rowsAbout(c._id)).toEqual([]);
    // Any read works the queue off first (here Dan's, who is told nothing).
    expect(rowsOf(dan)).toEqual([]);
    expect(queued()).toBe(0);
    expect(rowsOf(anna)).toEqual([
      { kind: 'reaction', actor: dan.id, commentId: c._id, replyId: null, count: 1, reason: null },
      { kind: 'reply', actor: cilla.id, commentId: c._id, replyId: r1._id, count: 2, reason: null },
    ]);
    // Bo had replied before Cilla: he hears of her reply. She replied after his: nothing for her.
    expect(rowsOf(bo)).toEqual([{ kind: 'threadReply', actor: cilla.id, commentId: c._id, replyId: r2._id, count: 1, reason: null }]);
    expect(rowsOf(cilla)).toEqual([]);
  });

  it('a batch skips an event whose reply or actor is gone, and works off the rest', async () => {
    drainNotificationEvents(t.db);
    const gone = await createTestUser(t.db, { firstName: 'Gun', lastName: 'Gone' });
    const c = await review(anna, 'Svar som försvinner');
    await clear(anna);
    await reply(gone, c._id, 'Snart borta');
    await rateComment(t.deps, gone.actor, { id: c._id, rate: 2 });
    await deleteAccount(t.deps, gone.actor, gone.id);
    const kept = await reply(bo, c._id, 'Jag stannar');
    expect(queued()).toBe(3);
    expect(drainNotificationEvents(t.db)).toBe(3);
    expect(queued()).toBe(0);
    expect(rowsOf(anna)).toEqual([{ kind: 'reply', actor: bo.id, commentId: c._id, replyId: kept._id, count: 1, reason: null }]);
  });

  it('a first reaction writes no queue row in its request; the author reading right after it sees the notice (REST)', async () => {
    drainNotificationEvents(t.db);
    const c = await review(anna, 'Reaktion i minnet');
    await clear(anna);
    const res = await t.app.inject({ method: 'POST', url: `/api/comment/addRate/${c._id}`, headers: bearer(bo), payload: { rate: 5 } });
    expect(res.statusCode).toBe(200);
    expect(t.db.select().from(notificationEvents).all()).toEqual([]);
    expect(pendingReactionCount(t.db)).toBe(1);
    // A changed rate is not news: nothing more waits.
    await rateComment(t.deps, bo.actor, { id: c._id, rate: 3 });
    expect(pendingReactionCount(t.db)).toBe(1);
    const list = await t.app.inject({ url: '/api/notifications', headers: bearer(anna) });
    expect(list.json().items[0]).toMatchObject({ kind: 'reaction', actor: { _id: bo.id }, commentId: c._id, count: 1, read: false });
    expect(pendingReactionCount(t.db)).toBe(0);
  });

  it('a refused reaction (own post, unknown post) is not announced', async () => {
    drainNotificationEvents(t.db);
    const c = await review(anna, 'Egen reaktion');
    await expect(rateComment(t.deps, anna.actor, { id: c._id, rate: 4 })).rejects.toThrow();
    await expect(rateComment(t.deps, bo.actor, { id: 'no-such-comment', rate: 4 })).rejects.toThrow();
    expect(pendingReactionCount(t.db)).toBe(0);
  });

  it('concurrent first reactions: the notice counts each exactly once, as the post does', async () => {
    drainNotificationEvents(t.db);
    const c = await review(anna, 'Många reagerar samtidigt');
    await clear(anna);
    const raters = await Promise.all(Array.from({ length: 12 }, (_, i) => createTestUser(t.db, { firstName: `Rater${i}` })));
    // Each reacts twice at once (the second a changed rate) and a first batch runs in between.
    await Promise.all(
      raters.flatMap((r, i) => [
        rateComment(t.deps, r.actor, { id: c._id, rate: 1 + (i % 5) }),
        Promise.resolve().then(() => drainNotificationEvents(t.db, 5)),
        rateComment(t.deps, r.actor, { id: c._id, rate: 5 }),
      ]),
    );
    const [reaction] = rowsOf(anna);
    expect(reaction).toMatchObject({ kind: 'reaction', commentId: c._id, count: raters.length });
    expect(rowsOf(anna)).toHaveLength(1);
    const tally = t.db.select({ n: comments.ratingCount }).from(comments).where(eq(comments.id, c._id)).get();
    expect(tally?.n).toBe(raters.length);
  });

  it('one batch works off at most its size, oldest first', async () => {
    drainNotificationEvents(t.db);
    // Three reviews: each reply is its author's first notice of the thread, a row of its own.
    const cs = [await review(cilla, 'Många svar 1'), await review(cilla, 'Många svar 2'), await review(cilla, 'Många svar 3')];
    for (const c of cs) await reply(dan, c._id, `Svar på ${c._id}`);
    const rows = () => cs.flatMap((c) => rowsAbout(c._id));
    expect(drainNotificationEvents(t.db, 2)).toBe(2);
    expect(queued()).toBe(1);
    expect(rows().map((r) => r.commentId)).toEqual([cs[0]._id, cs[1]._id]);
    expect(drainNotificationEvents(t.db, 2)).toBe(1);
    expect(rows()).toHaveLength(3);
  });

  it('a batch with a deadline stops after the event that passes it; the rest wait in their order, reactions too', async () => {
    drainNotificationEvents(t.db);
    const cs = [await review(cilla, 'Svar och reaktioner 1'), await review(cilla, 'Svar och reaktioner 2'), await review(cilla, 'Svar och reaktioner 3')];
    const c = cs[0];
    await clear(cilla);
    const r1 = await reply(dan, cs[0]._id, 'Ett');
    const r2 = await reply(dan, cs[1]._id, 'Två');
    const r3 = await reply(dan, cs[2]._id, 'Tre');
    await rateComment(t.deps, bo.actor, { id: c._id, rate: 5 });
    await rateComment(t.deps, anna.actor, { id: c._id, rate: 4 });
    expect(queued()).toBe(5);
    // The rows are read from the table: a read of the list would work the rest off first.
    const written = () =>
      cs
        .flatMap((x) => rowsAbout(x._id))
        .sort((a, b) => a.id - b.id)
        .map((r) => ({ kind: r.kind, replyId: r.replyId, actor: r.actorId, count: r.count }));
    const replyRow = (r: { _id: string }) => ({ kind: 'reply', replyId: r._id, actor: dan.id, count: 1 });
    // A clock that moves one step per look: the deadline passes after the second event.
    const steps = () => {
      let clock = 0;
      return { at: 2, now: () => ++clock };
    };
    // Cut inside the queue's rows: the third reply stays queued, the reactions stay in memory.
    expect(drainNotificationEvents(t.db, 10, steps())).toBe(2);
    expect(queued()).toBe(3);
    expect(written()).toEqual([replyRow(r1), replyRow(r2)]);
    // Cut inside the reactions: the third reply and Bo's reaction; Anna's waits.
    expect(drainNotificationEvents(t.db, 10, steps())).toBe(2);
    expect(queued()).toBe(1);
    expect(written()).toEqual([replyRow(r1), replyRow(r2), replyRow(r3), { kind: 'reaction', replyId: null, actor: bo.id, count: 1 }]);
    // Past its deadline from the start, a batch still works off one event: the queue always moves.
    expect(drainNotificationEvents(t.db, 10, { at: 0, now: () => 1 })).toBe(1);
    expect(queued()).toBe(0);
    expect(written()).toHaveLength(4);
    expect(written()[3]).toEqual({ kind: 'reaction', replyId: null, actor: bo.id, count: 2 });
  });
});

describe('the list and read state (REST and tRPC)', () => {
  it('GET /api/notifications pages newest first with X-Next-Cursor; only the caller’s own', async () => {
    const fia = await createTestUser(t.db, { firstName: 'Fia', lastName: 'Fors' });
    // Three reviews, a reply to each: three notices (replies in one thread would be one).
    const cs = [await review(fia, 'Fias första recension'), await review(fia, 'Fias andra recension'), await review(fia, 'Fias tredje recension')];
    const c = cs[2];
    for (const [i, x] of cs.entries()) await reply(dan, x._id, `Svar nummer ${i}`);
    const first = await t.app.inject({ url: '/api/notifications?limit=2', headers: bearer(fia) });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.unread).toBe(3);
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toMatchObject({ kind: 'reply', read: false, actor: { _id: dan.id, firstName: 'Dan', lastName: 'Dahl' }, commentId: c._id });
    expect(body.items[0].link).toBe(`/comment/${c._id}#reply-${body.items[0].replyId}`);
    expect(JSON.stringify(body)).not.toContain('@');
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await t.app.inject({ url: `/api/notifications?limit=2&cursor=${cursor}`, headers: bearer(fia) });
    expect(second.json().items).toHaveLength(1);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect((await t.app.inject({ url: '/api/notifications' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/notifications?cursor=zzz', headers: bearer(fia) })).statusCode).toBe(400);
    // Someone else sees none of Fia's.
    const others = (await t.app.inject({ url: '/api/notifications?limit=100', headers: bearer(bo) })).json();
    expect(others.items.some((n: { commentId: string }) => cs.some((x) => x._id === n.commentId))).toBe(false);
  });

  it('POST /api/notifications/read marks some or all; others’ ids change nothing; bad bodies are 400', async () => {
    const [c1, c2] = [await review(cilla, 'Cillas första'), await review(cilla, 'Cillas andra')];
    await clear(cilla, dan);
    await reply(dan, c1._id, 'Första');
    await reply(dan, c2._id, 'Andra');
    const [newest, older] = listNotifications(t.deps, cilla.actor, {}).items;
    const foreign = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: bearer(dan), payload: { ids: [newest._id] } });
    expect(foreign.json()).toEqual({ unread: 0 });
    expect(unreadOf(cilla)).toBe(2);
    const one = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: bearer(cilla), payload: { ids: [newest._id] } });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ unread: 1 });
    expect(listNotifications(t.deps, cilla.actor, { limit: 2 }).items.map((n) => [n._id, n.read])).toEqual([
      [newest._id, true],
      [older._id, false],
    ]);
    for (const payload of [{}, { ids: [] }, { all: false }, { ids: ['x'], all: true }]) {
      expect((await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: bearer(cilla), payload })).statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/read', payload: { all: true } })).statusCode).toBe(401);
    // tRPC: the count, the list and marking all.
    const caller = callerFor(t.deps, cilla);
    expect(await caller.notifications.unread()).toBe(1);
    expect((await caller.notifications.list()).unread).toBe(1);
    expect(await caller.notifications.markRead({ all: true })).toEqual({ unread: 0 });
    await expect(callerFor(t.deps, null).notifications.unread()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('read notifications older than 90 days are pruned; unread ones stay', async () => {
    const c = await review(dan);
    await clear(dan);
    await reply(bo, c._id, 'Gammalt svar');
    const [old] = listNotifications(t.deps, dan.actor, {}).items;
    const now = Date.now();
    await markNotificationsRead(t.deps, dan.actor, { ids: [old._id] }, now - READ_NOTIFICATIONS_KEPT_MS - 1000);
    // Read, the thread's notice is closed: the next reply starts a new one.
    await reply(bo, c._id, 'Olästa svaret');
    const [unread] = listNotifications(t.deps, dan.actor, {}).items;
    expect(unread._id).not.toBe(old._id);
    expect(pruneReadNotifications(t.db, now)).toBeGreaterThanOrEqual(1);
    expect(
      listNotifications(t.deps, dan.actor, {})
        .items.filter((n) => n.commentId === c._id)
        .map((n) => n._id),
    ).toEqual([unread._id]);
  });
});

describe('query plans', () => {
  const plan = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql, params } = query.toSQL();
    const named = params.map(() => null);
    return (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...named) as { detail: string }[]).map((r) => r.detail).join('\n');
  };

  it('the list merges the recipient’s unread and read indexes, and the unread count walks the first, without a sort', () => {
    const q = notificationQueries(t.db);
    for (const query of [q.list, q.listAfter]) {
      const p = plan(query);
      expect(p).toMatch(/^MERGE \(UNION ALL\)/);
      expect(p).toMatch(/SEARCH notifications USING INDEX notifications_unread_idx \(user_id=\?/);
      expect(p).toMatch(/SEARCH notifications USING INDEX notifications_read_list_idx \(user_id=\?/);
      // An open thread notice's replies, counted and their latest author found on the thread's
      // index from its first reply on (at most THREAD_COUNT_MAX of them, the subquery scanned).
      expect(p).not.toMatch(/TEMP B-TREE|SCAN (?!\(subquery-\d+\))/);
      expect(p).toMatch(/SEARCH later USING INDEX replies_comment_idx \(comment_id=\? AND created_at>\?\)/);
      // A notice's business (its own, or its comment's) and suggestion by primary key.
      expect(p).toMatch(/SEARCH businesses USING INDEX sqlite_autoindex_businesses_1 \(id=\?\) LEFT-JOIN/);
      expect(p).toMatch(/SEARCH business_suggestions USING INDEX sqlite_autoindex_business_suggestions_1 \(id=\?\) LEFT-JOIN/);
    }
    expect(plan(q.unread)).toMatch(/SEARCH notifications USING INDEX notifications_unread_idx \(user_id=\?\)/);
    // The user's id is bound as +? (keptParam): as a plain ? in a `column = ?` term of these joins,
    // SQLite compiled each statement anew on every run (docs/decisions/003).
    for (const query of [q.list, q.listAfter, q.unread]) {
      const { sql } = query.toSQL();
      expect(sql).toMatch(/"notifications"\."user_id" = \+\?/);
      expect(sql).not.toMatch(/"notifications"\."user_id" = \?/);
    }
  });

  it('marking read settles an open thread notice on the thread’s index, the first reply by its key', () => {
    const p = plan(markReadQuery(t.db, 'someone', 0, [1, 2]));
    expect(p).toMatch(
      /^SEARCH notifications USING INDEX sqlite_autoindex_notifications_1 \(id=\?\)|^SEARCH notifications USING INTEGER PRIMARY KEY \(rowid=\?\)/,
    );
    expect(p).toMatch(/SEARCH later USING INDEX replies_comment_idx \(comment_id=\? AND created_at>\?\)/);
    expect(p).toMatch(/SEARCH replies USING (COVERING )?INDEX sqlite_autoindex_replies_1 \(id=\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE|SCAN (?!\(subquery-\d+\))/);
    expect(plan(markReadQuery(t.db, 'someone', 0))).toMatch(/^SEARCH notifications USING INDEX notifications_unread_idx \(user_id=\?\)/);
  });

  it('the deletes of a gone reply’s and a gone actor’s notices find them on the thread’s index', () => {
    const q = cleanupQueries(t.db);
    expect(plan(q.reply)).toMatch(/SEARCH notifications USING (COVERING )?INDEX notifications_comment_idx \(comment_id=\? AND reply_id=\?\)/);
    expect(plan(q.reaction)).toMatch(/SEARCH notifications USING (COVERING )?INDEX notifications_comment_idx \(comment_id=\? AND reply_id=\?\)/);
  });

  it('the queue is read in rowid order; the batch walks a thread’s latest replies on their index, newest first', () => {
    expect(plan(eventQueries(t.db).oldest)).toBe('SCAN notification_events');
    const w = notificationWrites(t.db);
    const walk = plan(w.threadWalk);
    // The latest replies come in index order (no sort of the thread) and from the index alone
    // (migration 0039: no row read per reply); the walk stops at THREAD_NOTIFY_LOOKBACK.
    expect(walk).toMatch(/^SEARCH replies USING COVERING INDEX replies_comment_repliers_idx \(comment_id=\?\)\n/);
    expect(walk).toMatch(/SEARCH replies USING COVERING INDEX sqlite_autoindex_replies_1 \(id=\?\)/);
    expect(walk).not.toMatch(/SCAN replies|TEMP B-TREE/);
    expect(plan(w.replyStanding)).toMatch(/SEARCH replies USING (COVERING )?INDEX sqlite_autoindex_replies_1 \(id=\?\)/);
    expect(plan(w.replyStanding)).not.toMatch(/SCAN/);
    expect(plan(w.threadAuthor)).toMatch(/^SEARCH comments USING INDEX sqlite_autoindex_comments_1 \(id=\?\)$/);
    expect(plan(w.reply)).toMatch(/SEARCH comments USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    expect(plan(w.reply)).not.toMatch(/SCAN/);
    // A thread's notice is found on the group index (the upsert's conflict target).
    expect(plan(w.threadReply)).not.toMatch(/SCAN/);
  });

  it('the walk keeps its covering index with statistics, and right after migration 0039, when only the new index has none', () => {
    const walk = /^SEARCH replies USING COVERING INDEX replies_comment_repliers_idx \(comment_id=\?\)\n/;
    const db = t.db.$client;
    db.exec('analyze');
    expect(plan(notificationWrites(t.db).threadWalk)).toMatch(walk);
    // A site analyzed at 0038 (PRAGMA optimize on close) and then migrated: replies_comment_idx has
    // its row in sqlite_stat1, the new index none until the next optimize.
    db.exec("delete from sqlite_stat1 where idx = 'replies_comment_repliers_idx'; analyze sqlite_schema");
    expect(plan(notificationWrites(t.db).threadWalk)).toMatch(walk);
  });
});
