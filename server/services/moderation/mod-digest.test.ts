import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../../db/schema';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { linkFrom, startSmtp, type TestSmtp } from '../../test/accounts-testing';
import { insertBusiness } from '../../test/comment-fixtures';
import { createComment } from '../comments/comments';
import { MOD_DIGEST_EVERY_MS } from './mod-digest';
import { reportPost } from './reports';
import { establish } from '../../test/trust';

const MINUTE = 60 * 1000;

let clock = Date.UTC(2026, 10, 23, 9);
const now = () => clock;
let smtp: TestSmtp;
let t: TestContext;
let svAdmin: TestUser;
let enAdmin: TestUser;
let quietAdmin: TestUser;
let author: TestUser;
let reporters: TestUser[];
let shop: string;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: '0' }, now });
  svAdmin = await createTestUser(t.db, { firstName: 'Sara', lastName: 'Admin', isAdmin: true, email: 'sara.admin@example.se' });
  enAdmin = await createTestUser(t.db, { firstName: 'Emma', lastName: 'Admin', isAdmin: true, language: 'en', email: 'emma.admin@example.com' });
  quietAdmin = await createTestUser(t.db, { firstName: 'Tyst', lastName: 'Admin', isAdmin: true, email: 'tyst.admin@example.se' });
  author = await createTestUser(t.db, { firstName: 'Olle', lastName: 'Owner' });
  reporters = await Promise.all([1, 2, 3].map(() => createTestUser(t.db)));
  // Only established users' reports hide a post (reports.ts).
  await establish(t.deps, reporters, clock);
  shop = insertBusiness(t.db, 'Digestbutiken');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A new comment hidden by three reports at the clock's time. */
async function hiddenComment(text: string) {
  const c = await createComment(t.deps, author.actor, { businessId: shop, text, businessLocation: 'Lund' });
  for (const r of reporters) await reportPost(t.deps, r.actor, 'comment', { id: c._id, reason: 'spam' }, clock);
  return c;
}
const waiting = (to: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).all();

describe("admins' digest mails when reports hide a post", () => {
  it('only admins choose it, through both doors', async () => {
    const rest = await t.app.inject({ method: 'PUT', url: '/api/mod-digest', headers: bearer(svAdmin), payload: { modDigest: true } });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toEqual({ modDigest: true });
    expect(await callerFor(t.deps, enAdmin).moderation.setDigest({ modDigest: true })).toEqual({ modDigest: true });
    expect(await callerFor(t.deps, svAdmin).moderation.digest()).toEqual({ modDigest: true });
    expect((await t.app.inject({ url: '/api/mod-digest', headers: bearer(quietAdmin) })).json()).toEqual({ modDigest: false });
    expect((await t.app.inject({ method: 'PUT', url: '/api/mod-digest', headers: bearer(author), payload: { modDigest: true } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/mod-digest', payload: { modDigest: true } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/mod-digest', headers: bearer(svAdmin), payload: { modDigest: 'yes' } })).statusCode).toBe(400);
    await expect(callerFor(t.deps, author).moderation.setDigest({ modDigest: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(t.db.select({ on: users.modDigest }).from(users).where(eq(users.id, author.id)).get()?.on).toBe(false);
  });

  it('mails at once, then gathers what is hidden within the hour into one mail an hour later, in each admin’s language', async () => {
    const start = clock;
    const first = await hiddenComment('Köp billiga klockor hos oss');
    await t.deps.outbox.deliverDue();
    const sv1 = smtp.lastMailTo(svAdmin.email);
    expect(sv1.subject).toBe('Recensera: 1 inlägg har dolts efter rapporter');
    expect(sv1.text).toContain('Hej Sara!');
    expect(sv1.text).toContain('Kommentar om Digestbutiken: "Köp billiga klockor hos oss"');
    expect(linkFrom(sv1, '/comment/').pathname).toBe(`/comment/${first._id}`);
    expect(linkFrom(sv1, '/mod-queue').pathname).toBe('/mod-queue');
    const en1 = smtp.lastMailTo(enAdmin.email);
    expect(en1.subject).toBe('Recensera: 1 post was hidden after reports');
    expect(en1.text).toContain('Comment on Digestbutiken: "Köp billiga klockor hos oss"');
    expect(smtp.mailsTo(quietAdmin.email)).toEqual([]);
    expect(smtp.mailsTo(author.email)).toEqual([]);

    // Two more within the hour: nothing goes out yet; one waiting mail per admin holds both.
    clock += 10 * MINUTE;
    const second = await hiddenComment('Andra reklamen');
    clock += 10 * MINUTE;
    await hiddenComment('Tredje reklamen');
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(1);
    expect(smtp.mailsTo(enAdmin.email)).toHaveLength(1);
    expect(waiting(svAdmin.email)).toHaveLength(1);
    expect(waiting(svAdmin.email)[0].nextAttemptAt).toBe(start + MOD_DIGEST_EVERY_MS);

    // A minute before the hour: still nothing. At the hour: the digest of the two.
    clock = start + MOD_DIGEST_EVERY_MS - MINUTE;
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(1);
    clock = start + MOD_DIGEST_EVERY_MS;
    await t.deps.outbox.deliverDue();
    const sv2 = smtp.lastMailTo(svAdmin.email);
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(2);
    expect(sv2.subject).toBe('Recensera: 2 inlägg har dolts efter rapporter');
    expect(sv2.text).toContain('"Andra reklamen"');
    expect(sv2.text).toContain('"Tredje reklamen"');
    expect(sv2.text).not.toContain('billiga klockor');
    expect(linkFrom(sv2, '/comment/').pathname).toBe(`/comment/${second._id}`);
    expect(smtp.lastMailTo(enAdmin.email).subject).toBe('Recensera: 2 posts were hidden after reports');
    expect(waiting(svAdmin.email)).toEqual([]);

    // Half an hour after that digest: held until an hour after it.
    clock += 30 * MINUTE;
    await hiddenComment('Fjärde reklamen');
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(2);
    clock = start + 2 * MOD_DIGEST_EVERY_MS;
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(3);
    expect(smtp.lastMailTo(svAdmin.email).text).toContain('"Fjärde reklamen"');

    // Long after: the next one goes at once.
    clock += 5 * MOD_DIGEST_EVERY_MS;
    await hiddenComment('Femte reklamen');
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(4);

    // Turned off: no more mails for that admin; the other still gets them.
    await callerFor(t.deps, svAdmin).moderation.setDigest({ modDigest: false });
    clock += 5 * MOD_DIGEST_EVERY_MS;
    await hiddenComment('Sjätte reklamen');
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(svAdmin.email)).toHaveLength(4);
    expect(smtp.lastMailTo(enAdmin.email).text).toContain('"Sjätte reklamen"');
  });

  it('reports that hide nothing, and posts already hidden, send no mail', async () => {
    clock += 5 * MOD_DIGEST_EVERY_MS;
    const before = smtp.mailsTo(enAdmin.email).length;
    const c = await createComment(t.deps, author.actor, { businessId: shop, text: 'Bara två rapporter', businessLocation: 'Lund' });
    for (const r of reporters.slice(0, 2)) await reportPost(t.deps, r.actor, 'comment', { id: c._id, reason: 'spam' }, clock);
    const fourth = await createTestUser(t.db);
    const hidden = await hiddenComment('Redan dold');
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(enAdmin.email)).toHaveLength(before + 1);
    clock += 5 * MOD_DIGEST_EVERY_MS;
    await reportPost(t.deps, fourth.actor, 'comment', { id: hidden._id, reason: 'fake' }, clock);
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(enAdmin.email)).toHaveLength(before + 1);
  });
});
