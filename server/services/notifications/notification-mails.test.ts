import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, favorites, notifications, notificationSettings } from '../../../db/schema';
import { linkFrom, startSmtp, type TestSmtp } from '../../test/accounts-testing';
import { insertBusiness } from '../../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { rateComment } from '../comments/comment-ratings';
import { createComment } from '../comments/comments';
import {
  DIGEST_EVERY_MS,
  getNotificationSettings,
  MAIL_BATCH,
  mailJobQueries,
  pendingQuery,
  queueNotificationMails,
  THREAD_MAIL_EVERY_MS,
} from './notification-mails';
import { createReply } from '../comments/replies';

const MINUTE = 60 * 1000;
let clock = Date.now();
let smtp: TestSmtp;
let t: TestContext;
let anna: TestUser, bo: TestUser, emma: TestUser, lurker: TestUser;
let shop: string;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: '0', PUBLIC_URL: 'https://recensera.example' }, now: () => clock });
  [anna, bo, emma, lurker] = await Promise.all([
    createTestUser(t.db, { firstName: 'Anna', lastName: 'Andersson', email: 'anna@example.se' }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Berg', email: 'bo@example.se' }),
    createTestUser(t.db, { firstName: 'Emma', lastName: 'Evans', email: 'emma@example.com', language: 'en' }),
    createTestUser(t.db, { firstName: 'Lo', lastName: 'Lurk', email: 'lo@example.se' }),
  ]);
  shop = insertBusiness(t.db, 'Mejlkaféet');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const review = (who: TestUser, text = 'Riktigt goda kanelbullar här') => createComment(t.deps, who.actor, { businessId: shop, text, businessLocation: 'Lund' });
/** A header as the mail carried it (mailparser folds List-* headers into one object). */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((h) => h.key === name)
    ?.line.slice(name.length + 1)
    .trim();
const unsubscribeOf = (mail: ParsedMail) => (header(mail, 'list-unsubscribe') ?? '').replace(/^<|>$/g, '');
const reply = (who: TestUser, commentId: string, text = 'Håller med dig helt') => createReply(t.deps, who.actor, { commentId, text });
/** Runs the mail job at `at` (the outbox's clock moves with it) and delivers what it queued. */
// Replies take their time from the real clock: a run is never before them (the queue reads what is due).
async function run(at = Math.max(clock, Date.now())) {
  clock = at;
  const queued = queueNotificationMails(t.deps, at);
  await t.deps.outbox.deliverDue();
  return queued;
}

describe('notification mails', () => {
  it('a reply mails the author at once, in her language, with both List-Unsubscribe headers; one mail per thread an hour', async () => {
    const c = await review(emma);
    const r = await reply(bo, c._id);
    expect(await run()).toBe(1);
    const mail = smtp.lastMailTo(emma.email);
    expect(mail.subject).toBe('New reply about Mejlkaféet on Recensera');
    expect(mail.text).toContain('Bo Berg replied to your review of Mejlkaféet');
    expect(mail.text).toContain(`https://recensera.example/comment/${c._id}?lang=en#reply-${r._id}`);
    const unsubscribe = unsubscribeOf(mail);
    expect(unsubscribe).toMatch(/^https:\/\/recensera\.example\/unsubscribe\?user=.+&kind=replies&token=.+/);
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(linkFrom(mail, '/unsubscribe').href).toBe(unsubscribe);
    // Two more replies within the hour wait, then go in one mail: one notice of both.
    const more = await reply(bo, c._id, 'Och en sak till');
    await reply(anna, c._id, 'Jag med');
    // Only Bo's mail (Anna replied in his thread) goes now; Emma's waits for the hour.
    expect(await run(clock + 10 * MINUTE)).toBe(1);
    expect(smtp.mailsTo(emma.email)).toHaveLength(1);
    expect(await run(clock + THREAD_MAIL_EVERY_MS + MINUTE)).toBe(1);
    const second = smtp.lastMailTo(emma.email);
    expect(second.text).toContain('2 new replies to your review of Mejlkaféet, the latest from Anna Andersson');
    expect(second.text).toContain(`https://recensera.example/comment/${c._id}?lang=en#reply-${more._id}`);
    expect(smtp.mailsTo(emma.email)).toHaveLength(2);
    // Bo heard of Anna's reply in his thread (Swedish), but not of his own.
    expect(smtp.lastMailTo(bo.email).text).toContain('Anna Andersson svarade i en tråd du deltar i om Mejlkaféet');
    expect(smtp.lastMailTo(bo.email).text).toContain('?lang=sv#reply-');
  });

  it('replies in a thread go in one notice until its mail; the next reply starts a notice of its own', async () => {
    const c = await review(anna, 'En tråd med många svar');
    await reply(bo, c._id, 'Jag var där i går');
    await run();
    const before = smtp.mailsTo(bo.email).length;
    const first = await reply(emma, c._id, 'So was I');
    await reply(emma, c._id, 'And again');
    expect(await run(clock + MINUTE)).toBeGreaterThan(0);
    expect(smtp.mailsTo(bo.email)).toHaveLength(before + 1);
    const grouped = smtp.lastMailTo(bo.email);
    expect(grouped.text).toContain('2 nya svar i en tråd du deltar i om Mejlkaféet, senast från Emma Evans');
    expect(grouped.text).toContain(`/comment/${c._id}?lang=sv#reply-${first._id}`);
    // The mailed notice counts no further: Emma's next reply is a notice of its own, held for the hour.
    const later = await reply(emma, c._id, 'One more thing');
    await run(clock + 10 * MINUTE);
    expect(smtp.mailsTo(bo.email)).toHaveLength(before + 1);
    const rows = t.db.select().from(notifications).where(eq(notifications.commentId, c._id)).all();
    expect(
      rows
        .filter((r) => r.userId === bo.id)
        .map((r) => [r.count, r.replyId, r.mailedAt === null])
        .sort(),
    ).toEqual([
      [1, later._id, true],
      [2, first._id, false],
    ]);
    await run(clock + THREAD_MAIL_EVERY_MS + MINUTE);
    expect(smtp.mailsTo(bo.email)).toHaveLength(before + 2);
    expect(smtp.lastMailTo(bo.email).text).toContain('Emma Evans svarade i en tråd du deltar i om Mejlkaféet');
    expect(smtp.lastMailTo(bo.email).text).toContain(`#reply-${later._id}`);
  });

  it('the one-click POST without a cookie turns that kind off, idempotently; the GET page asks first', async () => {
    const c = await review(anna);
    await reply(bo, c._id);
    await run(clock + 3 * THREAD_MAIL_EVERY_MS);
    const url = new URL(unsubscribeOf(smtp.lastMailTo(anna.email)));
    const path = `${url.pathname}${url.search}`;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Vill du sluta få e-post om svar?');
    expect(getNotificationSettings(t.deps, anna.actor).replies).toBe('instant');
    for (let i = 0; i < 2; i++) {
      const post = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(post.statusCode).toBe(200);
      expect(post.body).toContain('du får inte längre e-post om svar');
    }
    expect(getNotificationSettings(t.deps, anna.actor)).toEqual({ replies: 'off', reactions: 'daily', reviews: 'daily', moderation: 'instant' });
    const wrong = await t.app.inject({ method: 'POST', url: path.replace(/token=[^&]+/, 'token=nope') });
    expect(wrong.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/unsubscribe?user=x' })).statusCode).toBe(400);
    // Replies are off: no mail for the next one.
    const before = smtp.mailsTo(anna.email).length;
    await reply(bo, c._id, 'Hallå igen');
    await run(clock + 5 * THREAD_MAIL_EVERY_MS);
    expect(smtp.mailsTo(anna.email)).toHaveLength(before);
  });

  it('reactions and new reviews of favourites wait for the daily digest', async () => {
    const start = clock + 10 * THREAD_MAIL_EVERY_MS;
    const c = await review(bo, 'Bo skriver en recension');
    // Posts carry the real time (the job's clock is injected): the favourite is made before Anna's review.
    t.db.insert(favorites).values({ userId: bo.id, businessId: shop, createdAt: Date.now() }).run();
    await rateComment(t.deps, anna.actor, { id: c._id, rate: 5 });
    await rateComment(t.deps, emma.actor, { id: c._id, rate: 4 });
    const annas = await review(anna, 'Anna skriver också en');
    // … and carries the job's time: the daily look reads the reviews since its last look.
    t.db
      .update(comments)
      .set({ createdAt: start - MINUTE })
      .where(eq(comments.id, annas._id))
      .run();
    const before = smtp.mailsTo(bo.email).length;
    // The first daily item starts Bo's clock; the digest comes a day later.
    expect(await run(start)).toBe(0);
    expect(await run(start + DIGEST_EVERY_MS - MINUTE)).toBe(0);
    expect(await run(start + DIGEST_EVERY_MS)).toBe(2);
    const digests = smtp.mailsTo(bo.email).slice(before);
    expect(digests.map((m) => m.subject).sort()).toEqual(['Recensera: 1 nyhet sedan i går', 'Recensera: 1 nyhet sedan i går']);
    const text = digests.map((m) => m.text).join('\n');
    expect(text).toContain('2 personer reagerade på ditt inlägg om Mejlkaféet');
    expect(text).toContain('Anna Andersson skrev en ny recension av din favorit Mejlkaféet');
    expect(digests.map((m) => unsubscribeOf(m).match(/kind=(\w+)/)?.[1]).sort()).toEqual(['reactions', 'reviews']);
  });

  it('more than a batch of rows waiting for a digest that is not due hold back no instant mail', async () => {
    // Lo's digest clock started now: her daily rows wait a day. More of them than a batch, and older.
    const lo = await createTestUser(t.db, { firstName: 'Lotta', lastName: 'Lång', email: 'lotta@example.se' });
    await review(lo, 'Lotta har skrivit förut');
    t.db.insert(notificationSettings).values({ userId: lo.id, token: 'lotta-token', digestAt: clock }).run();
    const c = await review(lo, 'Lottas inlägg som alla reagerar på');
    t.db
      .insert(notifications)
      .values(
        Array.from({ length: MAIL_BATCH + 10 }, (_, i) => ({
          userId: lo.id,
          kind: 'reaction',
          actorId: bo.id,
          commentId: c._id,
          count: 1,
          // Older than anything else waiting: at the head of the queue.
          createdAt: 1_000 + i,
        })),
      )
      .run();
    // Emma (who gets mail of replies at once) hears of Bo's reply in this run.
    const mine = await review(emma, 'Emmas recension som Bo svarar på');
    await reply(bo, mine._id, 'Ett svar Emma ska få veta om nu');
    const before = smtp.mailsTo(emma.email).length;
    clock += 3 * THREAD_MAIL_EVERY_MS;
    // A run reads a batch of Lotta's rows once and holds them; the next run is past them.
    const [first, second] = [await run(), await run()];
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(smtp.mailsTo(emma.email)).toHaveLength(before + 1);
    const held = t.db.$client.prepare(`select count(*) as n from notifications where user_id = ? and mail_due_at is not null`).get(lo.id) as { n: number };
    expect(held.n).toBe(MAIL_BATCH + 10);
    expect(smtp.lastMailTo(emma.email).text).toContain('Bo Berg replied');
    // Lotta's rows still wait for her digest, which goes a day after her clock started.
    expect(smtp.mailsTo(lo.email)).toEqual([]);
    expect(await run(clock + DIGEST_EVERY_MS)).toBeGreaterThanOrEqual(1);
    expect(smtp.lastMailTo(lo.email).subject).toMatch(/^Recensera: \d+ nyheter sedan i går$/);
  });

  it('reads the queue on notifications_mail_due_idx in its order: no sort, no scan', () => {
    const { sql, params } = pendingQuery(t.db, clock, MAIL_BATCH).toSQL();
    for (const analyzed of [false, true]) {
      if (analyzed) t.db.$client.exec('analyze');
      const plan = (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/SEARCH notifications USING INDEX notifications_mail_due_idx \(<expr><\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN notifications/);
    }
  });

  it("looks a recipient up on indexes: posts by author and a thread's last mail by key", () => {
    const q = mailJobQueries(t.db);
    const plans: [keyof ReturnType<typeof mailJobQueries>, RegExp][] = [
      ['postedComment', /SEARCH comments USING COVERING INDEX comments_user_idx \(user_id=\?\)/],
      ['postedReply', /SEARCH replies USING COVERING INDEX replies_user_idx \(user_id=\?\)/],
      ['postedAnswer', /SEARCH owner_replies USING COVERING INDEX owner_replies_user_idx \(user_id=\?\)/],
      ['threadMailedAt', /SEARCH notification_threads USING INDEX sqlite_autoindex_notification_threads_1 \(user_id=\? AND comment_id=\?\)/],
    ];
    for (const [name, expected] of plans) {
      const { sql, params } = q[name].toSQL();
      const plan = (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => 'x')) as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan, name).toMatch(expected);
      expect(plan, name).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });

  it("a recipient's first mail makes their settings row once: the token stays, a daily item starts the digest's clock", async () => {
    const ida = await createTestUser(t.db, { firstName: 'Ida', lastName: 'Ek', email: 'ida@example.se' });
    const c = await review(ida, 'Ida recenserar kaféet en gång');
    const settings = () => t.db.select().from(notificationSettings).where(eq(notificationSettings.userId, ida.id)).all();
    expect(settings()).toEqual([]);
    // A reaction (daily): the row is made with the clock started, and the reaction waits for it.
    await rateComment(t.deps, bo.actor, { id: c._id, rate: 5 });
    const at = Math.max(clock, Date.now());
    await run(at);
    const [made] = settings();
    expect(made).toMatchObject({ digestAt: at });
    expect(made.token).toMatch(/^[\w-]{32}$/);
    expect(smtp.mailsTo(ida.email)).toEqual([]);
    // A reply (instant) later mails her with the same token; the clock stays where it was.
    await reply(bo, c._id, 'Bo svarar Ida');
    await run();
    expect(settings()).toEqual([made]);
    expect(unsubscribeOf(smtp.lastMailTo(ida.email))).toContain(`token=${made.token}`);
  });

  it("one run with a recipient's first instant mail and first daily item: one settings row, the clock started, one token", async () => {
    const jon = await createTestUser(t.db, { firstName: 'Jon', lastName: 'Jul', email: 'jon@example.se' });
    const c = await review(jon, 'Jon recenserar kaféet');
    await rateComment(t.deps, bo.actor, { id: c._id, rate: 4 });
    await reply(bo, c._id, 'Bo svarar Jon');
    const at = Math.max(clock, Date.now());
    await run(at);
    expect(smtp.mailsTo(jon.email).map((m) => m.subject)).toEqual(['Nytt svar om Mejlkaféet på Recensera']);
    const rows = t.db.select().from(notificationSettings).where(eq(notificationSettings.userId, jon.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0].digestAt).toBe(at);
    expect(unsubscribeOf(smtp.lastMailTo(jon.email))).toContain(`token=${rows[0].token}`);
    // The reaction waits for the digest a day later, with the same token.
    await run(at + DIGEST_EVERY_MS);
    expect(smtp.mailsTo(jon.email)).toHaveLength(2);
    expect(smtp.lastMailTo(jon.email).subject).toBe('Recensera: 1 nyhet sedan i går');
    expect(unsubscribeOf(smtp.lastMailTo(jon.email))).toContain(`token=${rows[0].token}`);
  });

  it('someone who has never posted gets no mail', async () => {
    const other = insertBusiness(t.db, 'Tystbutiken');
    t.db.insert(favorites).values({ userId: lurker.id, businessId: other, createdAt: clock }).run();
    await createComment(t.deps, anna.actor, { businessId: other, text: 'En recension för Lo', businessLocation: 'Lund' });
    await run(clock + 20 * DIGEST_EVERY_MS);
    await run(clock + 22 * DIGEST_EVERY_MS);
    expect(smtp.mailsTo(lurker.email)).toEqual([]);
  });
});

describe('GET/PUT /api/notification-settings and tRPC', () => {
  it('reads the defaults, changes some kinds, refuses bad input', async () => {
    const fia = await createTestUser(t.db, { firstName: 'Fia', lastName: 'Fors' });
    const got = await t.app.inject({ url: '/api/notification-settings', headers: bearer(fia) });
    expect(got.json()).toEqual({ replies: 'instant', reactions: 'daily', reviews: 'daily', moderation: 'instant' });
    const put = await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: bearer(fia), payload: { reactions: 'off' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ replies: 'instant', reactions: 'off', reviews: 'daily', moderation: 'instant' });
    expect((await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: bearer(fia), payload: { replies: 'weekly' } })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: bearer(fia), payload: { spam: 'off' } })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/notification-settings' })).statusCode).toBe(401);
    const caller = callerFor(t.deps, fia);
    expect(await caller.notifications.setSettings({ replies: 'daily' })).toMatchObject({ replies: 'daily', reactions: 'off' });
    expect(await caller.notifications.settings()).toMatchObject({ replies: 'daily' });
  });
});
