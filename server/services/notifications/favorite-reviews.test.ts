import { flushGroup } from '../../lib/group-commit';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDb, openDb, type Db } from '../../../db/client';
import { comments, favorites, mailOutbox, notifications, notificationSettings, users } from '../../../db/schema';
import { startSmtp, type TestSmtp } from '../../test/accounts-testing';
import { insertBusiness } from '../../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { createComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import {
  DAILY_PULL_EVERY_MS,
  favoriteMailPullDone,
  favoriteReviewQueries,
  MAIL_FOLLOWERS_PAGE,
  mailPullCounts,
  PULL_MAX,
  PULL_OVERLAP_MS,
  pullFavoriteReviews,
  pullFavoriteReviewsForMail,
} from './favorite-reviews';
import { DIGEST_EVERY_MS, queueNotificationMails } from './notification-mails';
import { listNotifications, unreadCount } from './notifications';
import { reportPost, resolveReports } from '../moderation/reports';
import { establish } from '../../test/trust';

let t: TestContext;
let smtp: TestSmtp;
let anna: TestUser, bo: TestUser, cilla: TestUser, dan: TestUser;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: '0', PUBLIC_URL: 'https://recensera.example' } });
  [anna, bo, cilla, dan] = await Promise.all([
    createTestUser(t.db, { firstName: 'Anna', lastName: 'Andersson', email: 'anna@example.se' }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Berg', email: 'bo@example.se' }),
    createTestUser(t.db, { firstName: 'Cilla', lastName: 'Carlsson', email: 'cilla@example.se' }),
    createTestUser(t.db, { firstName: 'Dan', lastName: 'Dahl', email: 'dan@example.se' }),
  ]);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const review = (who: TestUser, business: string, text = 'Bästa surdegen i stan') =>
  createComment(t.deps, who.actor, { businessId: business, text, businessLocation: 'Lund' });
const favourite = (who: TestUser, business: string, createdAt = Date.now()) =>
  t.db.insert(favorites).values({ userId: who.id, businessId: business, createdAt }).run();
/** Rows stored for the user, without reading the bell (a read pulls). */
const storedFor = (who: TestUser) =>
  t.db
    .select({ commentId: notifications.commentId })
    .from(notifications)
    .where(and(eq(notifications.userId, who.id), eq(notifications.kind, 'favoriteReview')))
    .all()
    .map((r) => r.commentId);
/** The user's favourite-review entries as the bell lists them, newest first. */
const listedFor = (who: TestUser) =>
  listNotifications(t.deps, who.actor, { limit: 100 })
    .items.filter((n) => n.kind === 'favoriteReview')
    .map((n) => n.commentId);

describe('new reviews of favourites, fanned out on read', () => {
  it('a review writes nothing for the followers; their bell count or list pulls it, once', async () => {
    const shop = insertBusiness(t.db, 'Läsbageriet');
    favourite(anna, shop);
    favourite(cilla, shop);
    const c = await review(bo, shop);
    expect(storedFor(anna)).toEqual([]);
    expect(storedFor(cilla)).toEqual([]);
    // The bell's count pulls it.
    expect(unreadCount(t.deps, anna.actor)).toBe(1);
    expect(storedFor(anna)).toEqual([c._id]);
    expect(storedFor(cilla)).toEqual([]);
    // So does the list (REST and tRPC), and a second read adds nothing.
    const rest = await t.app.inject({ url: '/api/notifications', headers: bearer(cilla) });
    expect(rest.json().items.map((n: { kind: string; commentId: string }) => [n.kind, n.commentId])).toEqual([['favoriteReview', c._id]]);
    expect((await callerFor(t.deps, cilla).notifications.list({})).items).toHaveLength(1);
    expect(listedFor(anna)).toEqual([c._id]);
    expect(unreadCount(t.deps, anna.actor)).toBe(1);
    expect(storedFor(anna)).toEqual([c._id]);
    // The author hears nothing of her own review, and the watermark moved for the reader only.
    expect(listedFor(bo)).toEqual([]);
    const marks = t.db.select({ id: users.id, at: users.favoriteReviewsAt }).from(users).all();
    expect(marks.find((u) => u.id === anna.id)?.at).toEqual(expect.any(Number));
    expect(marks.find((u) => u.id === dan.id)?.at).toBeNull();
  });

  it('a favourite made later pulls no older review; unfavouriting stops new ones', async () => {
    const shop = insertBusiness(t.db, 'Sentbageriet');
    const old = await review(bo, shop, 'En recension från förr');
    // It was posted ten seconds before Dan made the business a favourite.
    t.db
      .update(comments)
      .set({ createdAt: Date.now() - 10_000 })
      .where(eq(comments.id, old._id))
      .run();
    favourite(dan, shop, Date.now() - 5_000);
    expect(listedFor(dan)).toEqual([]);
    const later = await review(bo, shop, 'En recension efter favoriten');
    expect(listedFor(dan)).toEqual([later._id]);
    expect(listedFor(dan)).not.toContain(old._id);
    t.db
      .delete(favorites)
      .where(and(eq(favorites.userId, dan.id), eq(favorites.businessId, shop)))
      .run();
    await review(cilla, shop, 'En recension efter att Dan slutat följa');
    expect(listedFor(dan)).toEqual([later._id]);
  });

  it('a review hidden or removed before the pull, by a banned author, or one’s own never appears', async () => {
    const shop = insertBusiness(t.db, 'Doltbageriet');
    const eva = await createTestUser(t.db, { firstName: 'Eva', lastName: 'Ek' });
    const fredrik = await createTestUser(t.db, { firstName: 'Fredrik', lastName: 'Fors' });
    favourite(anna, shop);
    const hidden = await review(bo, shop, 'Den här döljs efter anmälningar');
    const removed = await review(cilla, shop, 'Den här tas bort av en moderator');
    const banned = await review(eva, shop, 'En avstängd skribent');
    await review(anna, shop, 'Min egen recension');
    const shown = await review(fredrik, shop, 'Den här syns');
    t.db.update(comments).set({ hiddenAt: Date.now() }).where(eq(comments.id, hidden._id)).run();
    t.db.update(comments).set({ removedAt: Date.now() }).where(eq(comments.id, removed._id)).run();
    t.db.update(users).set({ isBanned: true }).where(eq(users.id, eva.id)).run();
    const before = storedFor(anna).length;
    const listed = listedFor(anna);
    expect(listed).toContain(shown._id);
    for (const gone of [hidden._id, removed._id, banned._id]) expect(listed).not.toContain(gone);
    expect(storedFor(anna)).toHaveLength(before + 1);
  });

  it('one pull keeps the newest PULL_MAX', async () => {
    const shop = insertBusiness(t.db, 'Storbageriet');
    const gustav = await createTestUser(t.db, { firstName: 'Gustav', lastName: 'Gran' });
    favourite(gustav, shop, Date.now() - 60_000);
    const base = Date.now() - 30_000;
    t.db
      .insert(comments)
      .values(
        Array.from({ length: PULL_MAX + 5 }, (_, i) => ({
          id: `bulk-${i}`,
          businessId: shop,
          userId: bo.id,
          text: `Recension nummer ${i}`,
          businessLocation: 'Lund',
          createdAt: base + i,
          updatedAt: base + i,
        })),
      )
      .run();
    const listed = listedFor(gustav);
    expect(listed).toHaveLength(PULL_MAX);
    expect(listed[0]).toBe(`bulk-${PULL_MAX + 4}`);
    expect(listed).not.toContain('bulk-4');
  });
});

describe('the mail job pulls for those who get mail of new reviews', () => {
  it('instant: the favouriter is mailed without opening the bell; off: nothing is pulled', async () => {
    const shop = insertBusiness(t.db, 'Mejlbageriet');
    const hanna = await createTestUser(t.db, { firstName: 'Hanna', lastName: 'Holm', email: 'hanna@example.se' });
    const ivar = await createTestUser(t.db, { firstName: 'Ivar', lastName: 'Ivarsson', email: 'ivar@example.se' });
    // Mail goes only to someone who has posted.
    const elsewhere = insertBusiness(t.db, 'Annanstans');
    await review(hanna, elsewhere, 'Hanna har skrivit något');
    await createReply(t.deps, ivar.actor, { commentId: (await review(bo, elsewhere, 'Bo skriver'))._id, text: 'Ivar svarar' });
    t.db.insert(notificationSettings).values({ userId: hanna.id, token: 'hanna-token', reviews: 'instant' }).run();
    t.db.insert(notificationSettings).values({ userId: ivar.id, token: 'ivar-token', reviews: 'off' }).run();
    favourite(hanna, shop);
    favourite(ivar, shop);
    const c = await review(cilla, shop, 'Ny recension som Hanna vill höra om');
    queueNotificationMails(t.deps);
    await t.deps.outbox.deliverDue();
    const mail = smtp.lastMailTo(hanna.email);
    expect(mail.subject).toBe('Ny recension av Mejlbageriet');
    expect(mail.text).toContain('Cilla Carlsson skrev en ny recension av din favorit Mejlbageriet');
    expect(mail.text).toContain(`https://recensera.example/comment/${c._id}?lang=sv#comment-${c._id}`);
    expect(storedFor(hanna)).toEqual([c._id]);
    expect(storedFor(ivar)).toEqual([]);
    expect(smtp.mailsTo(ivar.email)).toEqual([]);
    // Her bell shows the same row, not a second one.
    expect(listedFor(hanna)).toEqual([c._id]);
  });
});

describe('the mail job works a large fan-out off over several runs', () => {
  it(`walks a business's followers a page at a time, in slices when given a deadline`, () => {
    const shop = insertBusiness(t.db, 'Folkbageriet');
    const elsewhere = insertBusiness(t.db, 'Annanbageriet');
    const n = MAIL_FOLLOWERS_PAGE + 20;
    const sqlite = t.db.$client;
    const now = Date.now();
    // Work off what earlier tests left in the mail pull's window first.
    while (!favoriteMailPullDone(t.db)) pullFavoriteReviewsForMail(t.db, now, DIGEST_EVERY_MS);
    sqlite.transaction(() => {
      for (let i = 0; i < n; i++) {
        const id = `crowd-${i}`;
        sqlite
          .prepare(`insert into users (id, email, first_name, last_name, created_at, updated_at) values (?, ?, 'Folk', 'Följare', ?, ?)`)
          .run(id, `crowd${i}@example.se`, now, now);
        // Each has posted (no mail for someone who has not) and wants instant mail of new reviews.
        sqlite
          .prepare(
            `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values (?, ?, ?, 'Tidigare', 'Lund', ?, ?)`,
          )
          .run(`crowd-post-${i}`, elsewhere, id, now - 60_000, now - 60_000);
        sqlite.prepare(`insert into notification_settings (user_id, token, reviews) values (?, ?, 'instant')`).run(id, `crowd-token-${i}`);
        sqlite.prepare(`insert into favorites (user_id, business_id, created_at) values (?, ?, ?)`).run(id, shop, now - 30_000);
      }
      sqlite
        .prepare(
          `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values ('crowd-review', ?, ?, 'Ny', 'Lund', ?, ?)`,
        )
        .run(shop, bo.id, now, now);
    })();
    const pulledFor = () => (sqlite.prepare(`select count(*) as c from notifications where comment_id = 'crowd-review'`).get() as { c: number }).c;
    // Slices whose deadline has passed: each pulls for at most one reader, and together for all.
    let slices = 0;
    while (!favoriteMailPullDone(t.db) || slices === 0) {
      const before = pulledFor();
      const added = pullFavoriteReviewsForMail(t.db, now + 16_000, DIGEST_EVERY_MS, 0);
      expect(added).toBeLessThanOrEqual(1);
      expect(pulledFor()).toBe(before + added);
      slices++;
    }
    expect(slices).toBeGreaterThanOrEqual(n);
    expect(pulledFor()).toBe(n);
    // Without a deadline a window is worked off in one call (more than one page of followers).
    const more = `crowd-review-2`;
    sqlite
      .prepare(`insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values (?, ?, ?, 'Ny igen', 'Lund', ?, ?)`)
      .run(more, shop, bo.id, now + 20_000, now + 20_000);
    expect(pullFavoriteReviewsForMail(t.db, now + 21_000, DIGEST_EVERY_MS)).toBe(n);
    expect(favoriteMailPullDone(t.db)).toBe(true);
    expect(pullFavoriteReviewsForMail(t.db, now + 36_000, DIGEST_EVERY_MS)).toBe(0);
  });
});

describe('the mail job pulls in slices with a deadline', () => {
  it('stops after the reader during which the deadline passed and goes on where it stopped', () => {
    const sqlite = t.db.$client;
    // Work off what earlier tests left in the mail pull's window first.
    const start = Date.now() + 100_000;
    while (!favoriteMailPullDone(t.db)) pullFavoriteReviewsForMail(t.db, start, DIGEST_EVERY_MS);
    const shop = insertBusiness(t.db, 'Skivbageriet');
    const elsewhere = insertBusiness(t.db, 'Skivkaféet');
    const n = 4;
    sqlite.transaction(() => {
      for (let i = 0; i < n; i++) {
        const id = `slice-${i}`;
        sqlite
          .prepare(`insert into users (id, email, first_name, last_name, created_at, updated_at) values (?, ?, 'Skiva', 'Följare', ?, ?)`)
          .run(id, `slice${i}@example.se`, start, start);
        sqlite
          .prepare(
            `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values (?, ?, ?, 'Tidigare', 'Lund', ?, ?)`,
          )
          .run(`slice-post-${i}`, elsewhere, id, start, start);
        sqlite.prepare(`insert into notification_settings (user_id, token, reviews) values (?, ?, 'instant')`).run(id, `slice-token-${i}`);
        sqlite.prepare(`insert into favorites (user_id, business_id, created_at) values (?, ?, ?)`).run(id, shop, start + 1_000);
      }
      sqlite
        .prepare(
          `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values ('slice-review', ?, ?, 'Ny', 'Lund', ?, ?)`,
        )
        .run(shop, bo.id, start + 2_000, start + 2_000);
    })();
    const pulledFor = () => (sqlite.prepare(`select count(*) as c from notifications where comment_id = 'slice-review'`).get() as { c: number }).c;
    // A deadline already passed: each call pulls for at most one reader (a page of the other
    // business reviewed in the window, with no followers, is a call of its own); all, in the end.
    let calls = 0;
    while (!favoriteMailPullDone(t.db) || calls === 0) {
      const before = pulledFor();
      const added = pullFavoriteReviewsForMail(t.db, start + 3_000, DIGEST_EVERY_MS, 0);
      expect(added).toBeLessThanOrEqual(1);
      expect(pulledFor()).toBe(before + added);
      calls++;
    }
    expect(calls).toBeGreaterThanOrEqual(n);
    expect(pulledFor()).toBe(n);
    expect(pullFavoriteReviewsForMail(t.db, start + 18_000, DIGEST_EVERY_MS, 0)).toBe(0);
  });
});

/** Hides a review through reports of fresh established members (a dismissed reporter cannot hide it again). */
async function hideByReports(commentId: string, now: number) {
  const fresh = await Promise.all(
    Array.from({ length: t.deps.env.REPORT_HIDE_THRESHOLD }, (_, i) => createTestUser(t.db, { firstName: `Anmälare${i}`, lastName: 'A' })),
  );
  await establish(t.deps, fresh);
  for (const who of fresh) await reportPost(t.deps, who.actor, 'comment', { id: commentId, reason: 'spam' }, now);
  expect(t.db.select({ at: comments.hiddenAt }).from(comments).where(eq(comments.id, commentId)).get()?.at).toBe(now);
}
const listedAt = (who: TestUser, now: number) =>
  listNotifications(t.deps, who.actor, { limit: 100 }, now)
    .items.filter((n) => n.kind === 'favoriteReview')
    .map((n) => n.commentId);

describe('a review shown again after the follower looked past it (issue 30 item 1)', () => {
  it('is announced once: to a follower whose look passed it while hidden, never twice, also after hide, restore, hide, restore', async () => {
    const shop = insertBusiness(t.db, 'Återbageriet');
    const admin = await createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true });
    const kim = await createTestUser(t.db, { firstName: 'Kim', lastName: 'Kvist' });
    const lisa = await createTestUser(t.db, { firstName: 'Lisa', lastName: 'Lund' });
    const T = Date.now();
    favourite(kim, shop, T - 60_000);
    favourite(lisa, shop, T - 60_000);
    const c = await review(bo, shop, 'Den här döljs och visas igen');
    // Lisa looks before the hide: she has it.
    expect(listedAt(lisa, T + 1_000)).toEqual([c._id]);
    await hideByReports(c._id, T + 2_000);
    const later = await review(cilla, shop, 'En senare recension');
    // Kim looks while it is hidden: the later one only; his watermark passes both.
    expect(listedAt(kim, T + 10_000)).toEqual([later._id]);
    expect(t.db.select({ at: users.favoriteReviewsAt }).from(users).where(eq(users.id, kim.id)).get()?.at).toBe(T + 10_000);

    // A moderator dismisses the reports: the review is news to Kim, sorted at the restore.
    await resolveReports(t.deps, admin.actor, { id: c._id, action: 'dismiss' }, T + 20_000);
    const kims = listNotifications(t.deps, kim.actor, { limit: 100 }, T + 30_000).items.filter((n) => n.kind === 'favoriteReview');
    expect(kims.map((n) => [n.commentId, n.createdAt])).toEqual([
      [c._id, new Date(T + 20_000).toISOString()],
      [later._id, expect.any(String)],
    ]);
    // Lisa had it: nothing twice. Bo, its author, nothing.
    expect(listedAt(lisa, T + 30_000).filter((id) => id === c._id)).toHaveLength(1);
    expect(listedAt(bo, T + 30_000)).toEqual([]);

    // Hidden and restored again: still one entry each.
    await hideByReports(c._id, T + 40_000);
    expect(listedAt(kim, T + 50_000)).toEqual([later._id]);
    await resolveReports(t.deps, admin.actor, { id: c._id, action: 'dismiss' }, T + 60_000);
    expect(listedAt(kim, T + 70_000)).toEqual([c._id, later._id]);
    for (const who of [kim, lisa]) expect(storedFor(who).filter((id) => id === c._id)).toHaveLength(1);
  });

  it('the mail job finds the followers of a restored review too', async () => {
    const base = Date.now() + 300_000;
    // Work off what earlier tests left in the mail pull's window first, and open one at base - 5 s.
    while (!favoriteMailPullDone(t.db)) pullFavoriteReviewsForMail(t.db, base - 5_000, DIGEST_EVERY_MS);
    pullFavoriteReviewsForMail(t.db, base - 5_000, DIGEST_EVERY_MS);
    const shop = insertBusiness(t.db, 'Mejlåterbageriet');
    const admin = await createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true });
    const mia = await createTestUser(t.db, { firstName: 'Mia', lastName: 'Mild', email: 'mia@example.se' });
    await review(mia, insertBusiness(t.db, 'Mias ställe'), 'Mia har skrivit något');
    t.db.insert(notificationSettings).values({ userId: mia.id, token: 'mia-token', reviews: 'instant' }).run();
    favourite(mia, shop, Date.now() - 60_000);
    const c = await review(bo, shop, 'Visas igen för Mia');
    // Posted in the job's next window (test set-up: dated forward).
    t.db
      .update(comments)
      .set({ createdAt: base - 500 })
      .where(eq(comments.id, c._id))
      .run();
    await hideByReports(c._id, base);
    // The mail job's runs while it is hidden pull for Mia (the review is in their window) and move her watermark past it.
    queueNotificationMails(t.deps, base + 1_000);
    queueNotificationMails(t.deps, base + 5_000);
    expect(storedFor(mia)).toEqual([]);
    expect(t.db.select({ at: users.favoriteReviewsAt }).from(users).where(eq(users.id, mia.id)).get()?.at).toBe(base + 5_000);
    await resolveReports(t.deps, admin.actor, { id: c._id, action: 'dismiss' }, base + 10_000);
    // The next run's window has no new review of the shop, only the restore: Mia is pulled for, and mailed.
    queueNotificationMails(t.deps, base + 20_000);
    expect(storedFor(mia)).toEqual([c._id]);
    const mails = t.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.toAddress, mia.email)).all();
    expect(mails).toEqual([{ subject: 'Ny recension av Mejlåterbageriet' }]);
  });
});

describe('a pull does not step again over the reviews it skipped (issue 30 item 1)', () => {
  /**
   * The rows the next pull's walk steps over: each favourite's reviews after its start (the
   * walk reads them all when none qualifies, as the LIMIT counts kept rows only).
   */
  const walked = (who: TestUser, business: string) =>
    (
      t.db.$client
        .prepare(
          `select count(*) as n from favorites f join users r on r.id = f.user_id join comments c on c.business_id = f.business_id
           where f.user_id = ? and f.business_id = ? and c.created_at > max(f.created_at - 1, coalesce(r.favorite_reviews_at - ${PULL_OVERLAP_MS}, 0))`,
        )
        .get(who.id, business) as { n: number }
    ).n;

  it("the reader's own, hidden, removed and a banned author's reviews move the watermark past them", () => {
    const shop = insertBusiness(t.db, 'Skippbageriet');
    const nora = (t.db.$client.prepare(`select id from users where id = ?`).get(anna.id) as { id: string }).id;
    const olga = `skip-banned`;
    const T = Date.now();
    t.db.$client
      .prepare(`insert into users (id, email, first_name, last_name, is_banned, created_at, updated_at) values (?, 'olga@example.se', 'Olga', 'O', 1, ?, ?)`)
      .run(olga, T, T);
    const reader = cilla;
    favourite(reader, shop, T - 120_000);
    // 150 reviews the pull skips: the reader's own, hidden ones, removed ones, a banned author's.
    t.db
      .insert(comments)
      .values(
        Array.from({ length: 150 }, (_, i) => ({
          id: `skip-${i}`,
          businessId: shop,
          userId: i % 4 === 0 ? reader.id : i % 4 === 3 ? olga : nora,
          text: `Hoppas över ${i}`,
          businessLocation: 'Lund',
          hiddenAt: i % 4 === 1 ? T : null,
          removedAt: i % 4 === 2 ? T : null,
          createdAt: T - 100_000 + i,
          updatedAt: T - 100_000 + i,
        })),
      )
      .run();
    t.db
      .update(users)
      .set({ favoriteReviewsAt: T - 110_000 })
      .where(eq(users.id, reader.id))
      .run();
    expect(walked(reader, shop)).toBe(150);
    // The pull adds nothing, and moves the watermark: the next pull steps over none of them.
    expect(pullFavoriteReviews(t.db, reader.id, T)).toBe(0);
    expect(t.db.select({ at: users.favoriteReviewsAt }).from(users).where(eq(users.id, reader.id)).get()?.at).toBe(T);
    expect(walked(reader, shop)).toBe(0);
    // A read with nothing after the watermark writes nothing.
    const before = t.db.$client.prepare(`select total_changes() as n`).get() as { n: number };
    expect(pullFavoriteReviews(t.db, reader.id, T + 5_000)).toBe(0);
    expect(t.db.$client.prepare(`select total_changes() as n`).get()).toEqual(before);
    expect(t.db.select({ at: users.favoriteReviewsAt }).from(users).where(eq(users.id, reader.id)).get()?.at).toBe(T);
  });

  it('a bell or list read that finds nothing new opens no transaction (no BEGIN and COMMIT on a read)', async () => {
    const shop = insertBusiness(t.db, 'Lugna bageriet');
    favourite(dan, shop, Date.now() - 60_000);
    await review(bo, shop, 'Lugnt och gott');
    // The first read pulls the review (a write, in a transaction); the next ones find nothing new.
    expect(unreadCount(t.deps, dan.actor)).toBeGreaterThan(0);
    const listed = listedFor(dan).length;
    const opened = vi.spyOn(t.db.$client, 'transaction');
    try {
      const before = t.db.$client.prepare(`select total_changes() as n`).get();
      const count = unreadCount(t.deps, dan.actor);
      expect(listNotifications(t.deps, dan.actor, {}).unread).toBe(count);
      expect(opened).not.toHaveBeenCalled();
      expect(t.db.$client.prepare(`select total_changes() as n`).get()).toEqual(before);
    } finally {
      opened.mockRestore();
    }
    // Something new is pulled at once, as before.
    await review(cilla, shop, 'Ny recension, lika god');
    expect(listedFor(dan)).toHaveLength(listed + 1);
  });
});

describe('the mail job after a restart (issue 32 item 2)', () => {
  /** Works off the window open on `db` and runs one more at `now`, to its end. */
  const runJob = (db: Db, now: number) => {
    while (!favoriteMailPullDone(db)) pullFavoriteReviewsForMail(db, now, DIGEST_EVERY_MS);
    return pullFavoriteReviewsForMail(db, now, DIGEST_EVERY_MS);
  };
  const changes = (db: Db) => (db.$client.prepare('select total_changes() as n').get() as { n: number }).n;

  it('a start on a site whose readers are up to date reads no follower and pulls for nobody, then looks only at what is new', () => {
    const sqlite = t.db.$client;
    const now = Date.now() + 2 * 60 * 60 * 1000;
    const shop = insertBusiness(t.db, 'Omstartsbageriet');
    const elsewhere = insertBusiness(t.db, 'Omstartskaféet');
    const n = MAIL_FOLLOWERS_PAGE + 100;
    sqlite.transaction(() => {
      for (let i = 0; i < n; i++) {
        const id = `restart-${i}`;
        // Daily readers (the default) who have posted and have seen everything up to `now`.
        sqlite
          .prepare(`insert into users (id, email, first_name, last_name, favorite_reviews_at, created_at, updated_at) values (?, ?, 'Om', 'Start', ?, ?, ?)`)
          .run(id, `restart${i}@example.se`, now, now - 86_400_000, now - 86_400_000);
        sqlite
          .prepare(`insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values (?, ?, ?, 'Förut', 'Lund', ?, ?)`)
          .run(`restart-post-${i}`, elsewhere, id, now - 7_200_000, now - 7_200_000);
        sqlite.prepare(`insert into favorites (user_id, business_id, created_at) values (?, ?, ?)`).run(id, shop, now - 80_000_000);
      }
      // Reviewed an hour ago: in the window a start used to look back over (a day; two for the digests).
      sqlite
        .prepare(
          `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values ('restart-review', ?, ?, 'Sedd', 'Lund', ?, ?)`,
        )
        .run(shop, bo.id, now - 3_600_000, now - 3_600_000);
    })();
    // The running process works its windows off (a daily look among them, two hours on).
    runJob(t.db, now);
    const notices = () => (sqlite.prepare(`select count(*) as c from notifications`).get() as { c: number }).c;
    const before = notices();
    // A restart: a new connection, the mail job's first run (what the stopped process wrote is committed).
    flushGroup(sqlite);
    const again = openDb(path.join(t.dir, 'recensera.sqlite'));
    try {
      const written = changes(again);
      expect(pullFavoriteReviewsForMail(again, now + 15_000, DIGEST_EVERY_MS)).toBe(0);
      expect(favoriteMailPullDone(again)).toBe(true);
      expect(mailPullCounts(again)).toEqual({ windows: 1, businesses: 0, followers: 0, due: 0, pulls: 0 });
      // It stores where it stands (one row), nothing else.
      expect(changes(again) - written).toBe(1);
      expect(notices()).toBe(before);
      // Its next daily look (an hour after the last one) reads what came since it, not the last two days again.
      expect(runJob(again, now + DAILY_PULL_EVERY_MS + 20_000)).toBe(0);
      expect(mailPullCounts(again)).toMatchObject({ businesses: 0, followers: 0, due: 0, pulls: 0 });
      // A new review is read, once, with its followers.
      sqlite
        .prepare(
          `insert into comments (id, business_id, user_id, text, business_location, created_at, updated_at) values ('restart-review-2', ?, ?, 'Ny', 'Lund', ?, ?)`,
        )
        .run(shop, bo.id, now + DAILY_PULL_EVERY_MS + 30_000, now + DAILY_PULL_EVERY_MS + 30_000);
      runJob(again, now + DAILY_PULL_EVERY_MS + 45_000);
      expect(mailPullCounts(again)).toMatchObject({ businesses: 1, followers: n });
      runJob(again, now + DAILY_PULL_EVERY_MS + 60_000);
      expect(mailPullCounts(again)).toMatchObject({ businesses: 1, followers: n });
    } finally {
      closeDb(again);
    }
  });

  it('a daily reader passed over while her digest was not due is pulled for when it comes due', async () => {
    const T = Date.now() + 10 * 60 * 60 * 1000;
    const shop = insertBusiness(t.db, 'Sammanfattningsbageriet');
    const pia = await createTestUser(t.db, { firstName: 'Pia', lastName: 'Persson', email: 'pia@example.se' });
    await review(pia, insertBusiness(t.db, 'Pias ställe'), 'Pia har skrivit något');
    runJob(t.db, T);
    // Her digest's clock started at T; she has seen everything up to then.
    t.db.insert(notificationSettings).values({ userId: pia.id, token: 'pia-token', digestAt: T }).run();
    t.db.update(users).set({ favoriteReviewsAt: T }).where(eq(users.id, pia.id)).run();
    favourite(pia, shop, T - 60_000);
    const c = await review(bo, shop, 'Pia får höra om den i morgon');
    t.db
      .update(comments)
      .set({ createdAt: T + 60_000 })
      .where(eq(comments.id, c._id))
      .run();
    // The looks while her digest is not due pass her over.
    runJob(t.db, T + 120_000);
    runJob(t.db, T + DAILY_PULL_EVERY_MS + 180_000);
    expect(storedFor(pia)).toEqual([]);
    // A day on, the review is long out of the looks' windows; her digest came due, so she is looked at.
    const due = T + DIGEST_EVERY_MS + 2 * DAILY_PULL_EVERY_MS;
    runJob(t.db, due);
    expect(storedFor(pia)).toEqual([c._id]);
  });
});

describe('query plans', () => {
  const plan = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql, params } = query.toSQL();
    return (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => null)) as { detail: string }[]).map((r) => r.detail).join('\n');
  };

  for (const analyzed of [false, true]) {
    it(`a pull walks the reader’s favourites by key and each business’s newest reviews by time${analyzed ? ' (after ANALYZE)' : ''}`, () => {
      if (analyzed) t.db.$client.exec('analyze');
      const p = plan(favoriteReviewQueries(t.db).pull);
      expect(p).toMatch(/SEARCH favorites USING (COVERING )?INDEX sqlite_autoindex_favorites_1 \(user_id=\?\)/);
      // Each favourite's newest reviews, walked backwards on the business's index (no sort of all of them) …
      expect(p).toMatch(/SEARCH newest USING INDEX comments_business_idx \(business_id=\? AND created_at>\?\)/);
      expect(p).toMatch(/CORRELATED LIST SUBQUERY/);
      // … and only the few kept are read by key and sorted.
      expect(p).toMatch(/SEARCH comments USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
      expect(p).not.toMatch(/SCAN (comments|favorites|newest)\b/);
    });

    it(`a pull of restored reviews and the check for skipped ones seek each favourite's newest entries${analyzed ? ' (after ANALYZE)' : ''}`, () => {
      const q = favoriteReviewQueries(t.db);
      const restored = plan(q.pullRestored);
      expect(restored).toMatch(/SEARCH favorites USING (COVERING )?INDEX sqlite_autoindex_favorites_1 \(user_id=\?\)/);
      expect(restored).toMatch(/SEARCH newest USING INDEX comments_restored_business_idx \(business_id=\? AND restored_at>\?\)/);
      expect(restored).toMatch(/SEARCH comments USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
      expect(restored).not.toMatch(/SCAN (comments|favorites|newest)\b/);
      const behind = plan(q.look);
      expect(behind).toMatch(/SEARCH favorites USING (COVERING )?INDEX sqlite_autoindex_favorites_1 \(user_id=\?\)/);
      expect(behind).toMatch(/SEARCH newest USING COVERING INDEX comments_business_idx \(business_id=\?\)/);
      expect(behind).toMatch(/SEARCH newest USING COVERING INDEX comments_restored_business_idx \(business_id=\? AND restored_at>\?\)/);
      // Each subquery is the first step of a backwards walk (LIMIT 1), never a sort.
      expect(behind).not.toMatch(/SCAN|TEMP B-TREE/);
      // Every bell runs it: the reader is bound as +? (keptParam), or SQLite compiled it anew each run.
      expect(q.look.toSQL().sql).toMatch(/"favorites"\."user_id" = \+\?\)\) as look$/);
      const window = plan(q.mailRestoredBusinesses);
      expect(window).toMatch(/SEARCH comments USING INDEX comments_restored_idx \(restored_at>\?\)/);
      expect(window).not.toMatch(/SCAN/);
    });

    it(`the mail job reads the window's reviewed businesses on the feed index${analyzed ? ' (after ANALYZE)' : ''}`, () => {
      const p = plan(favoriteReviewQueries(t.db).mailBusinesses);
      expect(p).toMatch(/SEARCH comments USING (COVERING )?INDEX comments_feed_idx \(created_at>\?\)/);
      expect(p).not.toMatch(/SCAN|AUTOMATIC/);
    });

    it(`the mail job reads the digests that came due on their index${analyzed ? ' (after ANALYZE)' : ''}`, () => {
      const p = plan(favoriteReviewQueries(t.db).mailDue);
      expect(p).toMatch(/SEARCH notification_settings USING INDEX notification_settings_digest_idx \(digest_at>\? AND digest_at<\?\)/);
      expect(p).toMatch(/SEARCH reader USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
      expect(p).not.toMatch(/SCAN|AUTOMATIC|TEMP B-TREE/);
    });

    it(`the mail job pages a business's followers on their index, each reader by key${analyzed ? ' (after ANALYZE)' : ''}`, () => {
      const p = plan(favoriteReviewQueries(t.db).mailFollowers);
      expect(p).toMatch(/SEARCH favorites USING INDEX favorites_business_idx \(business_id=\? AND rowid>\?\)/);
      expect(p).toMatch(/SEARCH reader USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
      // In the index's order: no sort of a popular business's 20,000 followers for a page of them.
      expect(p).not.toMatch(/SCAN|AUTOMATIC|TEMP B-TREE/);
    });
  }
});
