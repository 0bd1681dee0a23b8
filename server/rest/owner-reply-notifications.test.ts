import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../test/accounts-testing';
import { insertBusiness } from '../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';
import { establish } from '../test/trust';
import { queueNotificationMails } from '../services/notifications/notification-mails';
import { notificationWrites } from '../services/notifications/notifications';

// Issue 30 item 1: the owners of a business hear when a moderator hides, removes or restores the
// business's answer to a review, as an author hears it of a post; its reporters hear the outcome.

let smtp: TestSmtp;
/** The outbox's clock: the mail job runs at it (the thread's hour passes by moving it). */
let clock = Date.now();
let t: TestContext;
let reviewer: TestUser;
let owner: TestUser;
let coOwner: TestUser;
let member: TestUser;
let moderator: TestUser;
let admin: TestUser;
let reporters: TestUser[];
let shop: string;

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: who ? bearer(who) : {}, ...(payload ? { payload } : {}) });

type Item = { kind: string; commentId: string | null; replyId: string | null; reason: string | null; actor: unknown; link: string; businessTitle: string };
/** The user's notices about a review (REST), newest first. */
const restAbout = async (who: TestUser, reviewId: string): Promise<Item[]> => {
  const res = await inject('GET', '/api/notifications', who);
  expect(res.statusCode).toBe(200);
  return (res.json().items as Item[]).filter((n) => n.commentId === reviewId);
};
/** The same through tRPC. */
const trpcAbout = async (who: TestUser, reviewId: string) =>
  (await callerFor(t.deps, who).notifications.list({})).items.filter((n) => n.commentId === reviewId);
const kindsAbout = async (who: TestUser, reviewId: string) => (await restAbout(who, reviewId)).map((n) => n.kind);

async function own(who: TestUser, businessId: string) {
  const { claim } = await callerFor(t.deps, who).owners.claim({ businessId });
  await callerFor(t.deps, admin).owners.decideClaim({ id: claim._id, decision: 'approve' });
}

/** A review of `business` by the reviewer with `by`'s answer; returns the review's id (the answer's too). */
async function answered(text: string, business = shop, by = owner) {
  const review = await callerFor(t.deps, reviewer).comments.create({ businessId: business, text: `Recension ${Math.random()}`, businessLocation: 'Uppsala' });
  await callerFor(t.deps, by).owners.putReply({ commentId: review._id, text });
  return review._id;
}

const hideByReports = async (id: string) => {
  for (const r of reporters) expect((await inject('POST', `/api/comment/${id}/owner-reply/report`, r, { reason: 'offensive' })).statusCode).toBe(201);
};

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: '0', PUBLIC_URL: 'https://recensera.example' }, now: () => clock });
  [reviewer, owner, coOwner, member, moderator, admin] = await Promise.all([
    createTestUser(t.db, { firstName: 'Rita', lastName: 'Reviewer' }),
    createTestUser(t.db, { firstName: 'Olle', lastName: 'Owner', email: 'olle@example.se' }),
    createTestUser(t.db, { firstName: 'Cilla', lastName: 'Coowner', email: 'cilla@example.com', language: 'en' }),
    createTestUser(t.db, { firstName: 'Mats', lastName: 'Member' }),
    createTestUser(t.db, { firstName: 'Mona', lastName: 'Mod', isModerator: true }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
  ]);
  reporters = await Promise.all([1, 2, 3].map((i) => createTestUser(t.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
  await establish(t.deps, reporters);
  shop = insertBusiness(t.db, 'Pizzeria Svar');
  await own(owner, shop);
  await own(coOwner, shop);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe("a moderator's decision on a business's answer reaches its owners", () => {
  it('hidden by reports, then restored: every owner hears each (REST and tRPC); the reviewer nothing, reporters the outcome', async () => {
    const id = await answered('Ni har fel.');
    await hideByReports(id);
    for (const who of [owner, coOwner]) expect(await kindsAbout(who, id)).toEqual(['ownerReplyHidden']);
    expect((await restAbout(owner, id))[0]).toMatchObject({
      actor: null,
      replyId: null,
      reason: null,
      businessTitle: 'Pizzeria Svar',
      link: `/comment/${id}#comment-${id}`,
    });
    expect((await trpcAbout(coOwner, id)).map((n) => n.kind)).toEqual(['ownerReplyHidden']);
    // The reviewer is told of the answer itself, not of its moderation.
    expect(await kindsAbout(reviewer, id)).toEqual(['ownerReply']);

    expect((await inject('POST', `/api/reports/${id}/resolve`, moderator, { action: 'dismiss', kind: 'ownerReply' })).statusCode).toBe(200);
    for (const who of [owner, coOwner]) expect(await kindsAbout(who, id)).toEqual(['ownerReplyRestored', 'ownerReplyHidden']);
    for (const r of reporters) expect((await restAbout(r, id)).map((n) => [n.kind, n.reason])).toEqual([['reportResolved', 'dismiss']]);
    expect(await kindsAbout(moderator, id)).toEqual([]);
    expect(await kindsAbout(reviewer, id)).toEqual(['ownerReply']);
  });

  it('removed (tRPC): the owners read the reason they are shown; the private note never', async () => {
    const id = await answered('Köp klockor på example.com');
    await hideByReports(id);
    await callerFor(t.deps, moderator).moderation.resolve({ id, kind: 'ownerReply', action: 'remove', reason: 'spam', reasonText: 'Reklam', note: 'Privat' });
    for (const who of [owner, coOwner]) {
      const [latest] = await trpcAbout(who, id);
      expect(latest).toMatchObject({ kind: 'ownerReplyRemoved', reason: 'spam: Reklam', actor: null });
    }
    expect((await restAbout(owner, id))[0]).toMatchObject({ kind: 'ownerReplyRemoved', reason: 'spam: Reklam' });
    for (const r of reporters) expect((await restAbout(r, id))[0]).toMatchObject({ kind: 'reportResolved', reason: 'remove' });
  });

  it("a moderator's DELETE is a removal the owners hear of; the owners' own delete tells nobody", async () => {
    const id = await answered('Raderas av en moderator.');
    expect((await inject('DELETE', `/api/comment/${id}/owner-reply`, moderator)).statusCode).toBe(200);
    for (const who of [owner, coOwner]) expect((await restAbout(who, id))[0]).toMatchObject({ kind: 'ownerReplyRemoved', reason: null });

    const mine = await answered('Vi tar bort det själva.');
    expect((await inject('DELETE', `/api/comment/${mine}/owner-reply`, owner)).statusCode).toBe(200);
    for (const who of [owner, coOwner]) expect(await kindsAbout(who, mine)).toEqual([]);
  });

  it('never for one’s own action: an admin who owns the business decides on its answer and is told nothing', async () => {
    const hers = insertBusiness(t.db, 'Adminbageriet');
    await own(admin, hers);
    await own(owner, hers);
    const id = await answered('Tack för besöket.', hers);
    await hideByReports(id);
    expect(await kindsAbout(admin, id)).toEqual(['ownerReplyHidden']);
    await callerFor(t.deps, admin).moderation.resolve({ id, kind: 'ownerReply', action: 'remove', reason: 'offensive' });
    expect(await kindsAbout(admin, id)).toEqual(['ownerReplyHidden']);
    expect(await kindsAbout(owner, id)).toEqual(['ownerReplyRemoved', 'ownerReplyHidden']);
  });

  it('by mail at once, in each owner’s language, per their moderation choice', async () => {
    // Cilla has posted; an owner's answer counts as Olle's post.
    await callerFor(t.deps, coOwner).comments.create({ businessId: insertBusiness(t.db, 'Annat ställe'), text: 'Gott kaffe.', businessLocation: 'Lund' });
    const id = await answered('Det här döljs.');
    clock = Math.max(clock, Date.now());
    queueNotificationMails(t.deps, clock);
    await t.deps.outbox.deliverDue();
    const before = { olle: smtp.mailsTo(owner.email).length, cilla: smtp.mailsTo(coOwner.email).length };
    await hideByReports(id);
    clock = Math.max(clock, Date.now());
    expect(queueNotificationMails(t.deps, clock)).toBe(2);
    await t.deps.outbox.deliverDue();
    const sv = smtp.lastMailTo(owner.email);
    expect(sv.subject).toBe('Om ditt inlägg om Pizzeria Svar');
    expect(sv.text).toContain('Svaret från Pizzeria Svar på en recension har dolts efter anmälningar och granskas av en moderator');
    expect(sv.text).toContain(`https://recensera.example/comment/${id}?lang=sv#comment-${id}`);
    const en = smtp.lastMailTo(coOwner.email);
    expect(en.text).toContain('The answer from Pizzeria Svar to a review was hidden after reports');
    expect(en.text).toContain(`?lang=en#comment-${id}`);
    expect(en.text).toContain('kind=moderation');

    // Cilla turns moderation mail off (REST); the removal then mails Olle (after the thread's hour),
    // with its reason, and each reporter the outcome.
    expect((await inject('PUT', '/api/notification-settings', coOwner, { moderation: 'off' })).statusCode).toBe(200);
    await callerFor(t.deps, moderator).moderation.resolve({ id, kind: 'ownerReply', action: 'remove', reason: 'offensive', reasonText: 'Otrevligt' });
    clock = Date.now() + 2 * 60 * 60 * 1000;
    expect(queueNotificationMails(t.deps, clock)).toBe(1 + reporters.length);
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(reporters[0].email).some((m) => m.text?.includes('Tack! Inlägget du anmälde om Pizzeria Svar har tagits bort'))).toBe(true);
    expect(smtp.lastMailTo(owner.email).text).toContain('En moderator tog bort svaret från Pizzeria Svar på en recension. Anledning: offensive: Otrevligt');
    expect(smtp.mailsTo(owner.email)).toHaveLength(before.olle + 2);
    expect(smtp.mailsTo(coOwner.email)).toHaveLength(before.cilla + 1);
    expect(smtp.mailsTo(member.email)).toHaveLength(0);
  });
});

describe('query plans', () => {
  const plan = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql, params } = query.toSQL();
    return (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => null)) as { detail: string }[]).map((r) => r.detail).join('\n');
  };

  it("the owners of an answer's business by primary keys; its open reporters on the partial unique index", () => {
    const w = notificationWrites(t.db);
    const owners = plan(w.ownerReplyModerated);
    expect(owners).toMatch(/SEARCH owner_replies USING INDEX sqlite_autoindex_owner_replies_1 \(comment_id=\?\)/);
    expect(owners).toMatch(/SEARCH business_owners USING (COVERING )?INDEX sqlite_autoindex_business_owners_1 \(business_id=\?\)/);
    expect(owners).not.toMatch(/SCAN|TEMP B-TREE/);
    const reporters = plan(w.ownerReplyReportsResolved);
    expect(reporters).toMatch(/SEARCH reports USING (COVERING )?INDEX reports_open_owner_reply_idx \(owner_reply_id=\?\)/);
    expect(reporters).not.toMatch(/SCAN/);
  });
});
