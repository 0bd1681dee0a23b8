import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessClaims, notificationSettings } from '../../../db/schema';
import { startSmtp, type TestSmtp } from '../../test/accounts-testing';
import { insertBusiness } from '../../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { createComment } from '../comments/comments';
import { queueNotificationMails } from './notification-mails';

/**
 * Decisions on a member's suggestion of a place and claim of a business reach the member through
 * the bell (REST and tRPC) and by mail, a rejection with its reason (issue 31.5–6): notices
 * without a comment.
 */

let t: TestContext;
let smtp: TestSmtp;
let member: TestUser, moderator: TestUser, admin: TestUser;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: '0', PUBLIC_URL: 'https://recensera.example' } });
  [member, moderator, admin] = await Promise.all([
    createTestUser(t.db, { firstName: 'Maja', lastName: 'Medlem', email: 'maja@example.se' }),
    createTestUser(t.db, { firstName: 'Mona', lastName: 'Moderator', isModerator: true }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
  ]);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (user: TestUser, url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: bearer(user), ...(payload ? { payload } : {}) });
const suggestion = (title: string) => ({ title, category: 'Pizza', location: 'Ystad', address: 'Stortorget 1', website: '' });
type Item = {
  kind: string;
  commentId: string | null;
  businessId: string | null;
  businessTitle: string;
  suggestionId: string | null;
  reason: string | null;
  link: string;
  read: boolean;
};
const restItems = async (user: TestUser) =>
  (await t.app.inject({ url: '/api/notifications', headers: bearer(user) })).json<{ items: Item[]; unread: number }>();

describe('decisions on suggestions and claims', () => {
  it('a rejected suggestion tells its member the reason (REST); an approved one links to the new business (tRPC)', async () => {
    const rejected = await post(member, '/api/business/suggestions', suggestion('Pizzeria Fel'));
    expect(rejected.statusCode, rejected.body).toBe(201);
    const res = await post(moderator, `/api/business/suggestions/${rejected.json()._id}/reject`, { reason: 'Finns redan som Pizzeria Rätt' });
    expect(res.statusCode, res.body).toBe(200);
    const list = await restItems(member);
    expect(list.unread).toBe(1);
    expect(list.items).toEqual([
      expect.objectContaining({
        kind: 'suggestionRejected',
        commentId: null,
        businessId: null,
        businessTitle: 'Pizzeria Fel',
        suggestionId: rejected.json()._id,
        reason: 'Finns redan som Pizzeria Rätt',
        link: '/suggest',
        read: false,
        actor: null,
      }),
    ]);
    // The moderator who decided hears nothing.
    expect((await restItems(moderator)).items).toEqual([]);

    const caller = callerFor(t.deps, member);
    const approved = await caller.suggestions.create(suggestion('Pizzeria Rätt'));
    const decided = await callerFor(t.deps, moderator).suggestions.approve({ id: approved._id });
    const page = await caller.notifications.list({});
    expect(page.unread).toBe(2);
    expect(page.items[0]).toMatchObject({
      kind: 'suggestionApproved',
      commentId: null,
      businessId: decided.businessId,
      businessTitle: 'Pizzeria Rätt',
      suggestionId: approved._id,
      reason: null,
      link: `/business/${decided.businessId}`,
    });
    expect(await caller.notifications.markRead({ ids: [page.items[0]._id] })).toEqual({ unread: 1 });
  });

  it('a rejected claim tells its claimant the reason (REST); an approved one links to the business (tRPC)', async () => {
    const shop = insertBusiness(t.db, 'Ägarbutiken');
    const claimant = await createTestUser(t.db, { firstName: 'Kim', lastName: 'Klar' });
    const caller = callerFor(t.deps, claimant);
    const first = await caller.owners.claim({ businessId: shop });
    const rejected = await post(admin, `/api/claims/${first.claim._id}/reject`, { reason: 'Vi kunde inte se att du arbetar där' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(t.db.select({ reason: businessClaims.reason }).from(businessClaims).where(eq(businessClaims.id, first.claim._id)).get()?.reason).toBe(
      'Vi kunde inte se att du arbetar där',
    );
    expect((await restItems(claimant)).items).toEqual([
      expect.objectContaining({
        kind: 'claimRejected',
        commentId: null,
        businessId: shop,
        businessTitle: 'Ägarbutiken',
        reason: 'Vi kunde inte se att du arbetar där',
        link: '/user',
      }),
    ]);
    // A reason is optional; a too long one is a 400.
    const second = await caller.owners.claim({ businessId: shop });
    expect((await post(admin, `/api/claims/${second.claim._id}/reject`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    const bare = await post(admin, `/api/claims/${second.claim._id}/reject`);
    expect(bare.statusCode, bare.body).toBe(200);
    const third = await caller.owners.claim({ businessId: shop });
    await callerFor(t.deps, admin).owners.decideClaim({ id: third.claim._id, decision: 'approve' });
    const items = (await caller.notifications.list({})).items;
    expect(items.map((n) => [n.kind, n.reason, n.link])).toEqual([
      ['claimApproved', null, `/business/${shop}`],
      ['claimRejected', null, '/user'],
      ['claimRejected', 'Vi kunde inte se att du arbetar där', '/user'],
    ]);
  });

  it('the decision is mailed at once by default, with its reason and link, in the member’s language', async () => {
    const eng = await createTestUser(t.db, { firstName: 'Erin', lastName: 'English', email: 'erin@example.com', language: 'en' });
    // Mail goes only to someone who has posted.
    await createComment(t.deps, eng.actor, { businessId: insertBusiness(t.db, 'Någonstans'), text: 'Erin skrev en recension', businessLocation: 'Lund' });
    const s = await callerFor(t.deps, eng).suggestions.create(suggestion('Pizza Nowhere'));
    await callerFor(t.deps, moderator).suggestions.reject({ id: s._id, reason: 'We could not find it' });
    queueNotificationMails(t.deps);
    await t.deps.outbox.deliverDue();
    const mail = smtp.lastMailTo(eng.email);
    expect(mail.subject).toBe('Decision about Pizza Nowhere');
    expect(mail.text).toContain('Your suggestion Pizza Nowhere was not approved. Reason: We could not find it');
    expect(mail.text).toContain('https://recensera.example/suggest?lang=en');
    // Turned off, nothing more is sent.
    t.db.update(notificationSettings).set({ moderation: 'off' }).where(eq(notificationSettings.userId, eng.id)).run();
    const before = smtp.mailsTo(eng.email).length;
    const again = await callerFor(t.deps, eng).suggestions.create(suggestion('Pizza Elsewhere'));
    await callerFor(t.deps, moderator).suggestions.reject({ id: again._id, reason: 'Not found either' });
    expect(queueNotificationMails(t.deps)).toBe(0);
    expect(smtp.mailsTo(eng.email)).toHaveLength(before);
  });
});
