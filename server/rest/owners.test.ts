import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses, notifications } from '../../db/schema';
import { lastMonths } from '../services/business/owner-stats';
import { emailAtWebsiteDomain } from '../services/business/owners';
import { insertBusiness } from '../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

let t: TestContext;
let reviewer: TestUser;
let owner: TestUser;
let otherOwner: TestUser;
let moderator: TestUser;
let admin: TestUser;
let banned: TestUser;
let shop: string;
let otherShop: string;

const auth = (u: TestUser | null) => (u ? bearer(u) : {});
const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: auth(who), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  [reviewer, owner, otherOwner, moderator, admin, banned] = await Promise.all([
    createTestUser(t.db, { firstName: 'Rita', lastName: 'Reviewer' }),
    createTestUser(t.db, { firstName: 'Olle', lastName: 'Owner' }),
    createTestUser(t.db, { firstName: 'Otto', lastName: 'Other' }),
    createTestUser(t.db, { firstName: 'Mona', lastName: 'Mod', isModerator: true }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Banned', isBanned: true }),
  ]);
  shop = insertBusiness(t.db, 'Pizzeria Roma');
  otherShop = insertBusiness(t.db, 'Kafé Annat');
});
afterAll(() => t.close());

async function review(who: TestUser, businessId: string, text: string) {
  return callerFor(t.deps, who).comments.create({ businessId, text, businessLocation: 'Uppsala' });
}

describe('claims', () => {
  it('a member claims through REST; visitors, banned users and a repeat are refused', async () => {
    expect((await inject('POST', `/api/business/${shop}/claim`, null, { note: 'Jag äger den' })).statusCode).toBe(401);
    expect((await inject('POST', `/api/business/${shop}/claim`, banned, {})).statusCode).toBe(403);
    const res = await inject('POST', `/api/business/${shop}/claim`, owner, { note: 'Jag äger den' });
    expect(res.statusCode).toBe(201);
    expect(res.json().claim).toMatchObject({ businessId: shop, userId: owner.id, status: 'pending', note: 'Jag äger den', businessTitle: 'Pizzeria Roma' });
    const again = await inject('POST', `/api/business/${shop}/claim`, owner, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('claimAlreadyPending');
    expect((await inject('POST', `/api/business/no-such/claim`, owner, {})).statusCode).toBe(404);
    expect((await inject('POST', `/api/business/${shop}/claim`, reviewer, { note: 'x'.repeat(1001) })).statusCode).toBe(400);
  });

  it('a member claims through tRPC; a visitor hears to log in', async () => {
    await expect(callerFor(t.deps, null).owners.claim({ businessId: otherShop })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      cause: { key: 'claimLoginRequired' },
    });
    const result = await callerFor(t.deps, otherOwner).owners.claim({ businessId: otherShop, note: 'Min' });
    expect(result).toMatchObject({ approved: false, claim: { status: 'pending' } });
  });

  it('only admins list and decide claims, through both doors', async () => {
    for (const who of [null, reviewer, moderator, banned]) {
      expect((await inject('GET', '/api/claims', who)).statusCode).toBe(who ? 403 : 401);
      await expect(callerFor(t.deps, who).owners.claims()).rejects.toBeTruthy();
    }
    const listed = await inject('GET', '/api/claims', admin);
    expect(listed.statusCode).toBe(200);
    const mine = listed.json().find((c: { userId: string }) => c.userId === owner.id);
    expect(mine).toMatchObject({ businessId: shop, email: owner.email, emailConfirmed: true });
    expect((await inject('POST', `/api/claims/${mine._id}/approve`, moderator)).statusCode).toBe(403);
    expect((await inject('POST', `/api/claims/${mine._id}/approve`, owner)).statusCode).toBe(403);
    const approved = await inject('POST', `/api/claims/${mine._id}/approve`, admin);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().claim.status).toBe('approved');
    expect((await inject('POST', `/api/claims/${mine._id}/reject`, admin)).statusCode).toBe(409);
    const other = (await callerFor(t.deps, admin).owners.claims()).find((c) => c.userId === otherOwner.id)!;
    expect((await callerFor(t.deps, admin).owners.decideClaim({ id: other._id, decision: 'approve' })).status).toBe('approved');
    expect(await callerFor(t.deps, admin).owners.claims({ status: 'approved' })).toHaveLength(2);
    // An owner cannot claim again.
    expect((await inject('POST', `/api/business/${shop}/claim`, owner, {})).json().key).toBe('claimAlreadyOwner');
  });

  it('a rejected claim shows on its claimant’s list; owned businesses come first', async () => {
    const claim = await callerFor(t.deps, reviewer).owners.claim({ businessId: otherShop });
    await callerFor(t.deps, admin).owners.decideClaim({ id: claim.claim._id, decision: 'reject' });
    expect(await callerFor(t.deps, reviewer).owners.mine()).toEqual([{ businessId: otherShop, title: 'Kafé Annat', status: 'rejected' }]);
    const owned = await inject('GET', '/api/business/owned', owner);
    expect(owned.json()).toEqual([{ businessId: shop, title: 'Pizzeria Roma', status: 'approved' }]);
    expect((await inject('GET', '/api/business/owned', null)).statusCode).toBe(401);
  });

  it('the suggestion box cannot be claimed', async () => {
    const box = insertBusiness(t.db, 'Lägg till ny');
    t.db.update(businesses).set({ isSuggestionBox: true }).where(eq(businesses.id, box)).run();
    expect((await inject('POST', `/api/business/${box}/claim`, reviewer, {})).json().key).toBe('claimSuggestionBox');
  });
});

describe('owner replies', () => {
  let reviewId: string;

  it('only an owner of the business answers; the answer shows in REST and tRPC and the reviewer is notified once', async () => {
    reviewId = (await review(reviewer, shop, 'Bra pizza men lång kö.'))._id;
    const url = `/api/comment/${reviewId}/owner-reply`;
    const body = { text: 'Tack! Vi har anställt en till pizzabagare.' };
    expect((await inject('PUT', url, null, body)).statusCode).toBe(401);
    for (const who of [reviewer, otherOwner, moderator, admin, banned]) expect((await inject('PUT', url, who, body)).statusCode).toBe(403);
    await expect(callerFor(t.deps, otherOwner).owners.putReply({ commentId: reviewId, ...body })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      cause: { key: 'notOwner' },
    });
    expect((await inject('PUT', url, owner, { text: 'x' })).statusCode).toBe(400);
    const res = await inject('PUT', url, owner, body);
    expect(res.statusCode).toBe(200);
    const first = res.json().ownerReply;
    expect(first).toMatchObject({ text: body.text });
    expect(first.createdAt).toBe(first.updatedAt);
    const listed = (await inject('GET', `/api/comment/${shop}`, null)).json();
    expect(listed.find((c: { _id: string }) => c._id === reviewId).ownerReply.text).toBe(body.text);
    expect((await callerFor(t.deps, null).comments.byId({ id: reviewId })).ownerReply?.text).toBe(body.text);
    // An edit keeps the one answer and its date, and tells nobody again.
    const edited = await callerFor(t.deps, owner).owners.putReply({ commentId: reviewId, text: 'Tack! Kön är kortare nu.' });
    expect(edited.ownerReply).toMatchObject({ text: 'Tack! Kön är kortare nu.', createdAt: first.createdAt });
    const told = t.db.select().from(notifications).where(eq(notifications.userId, reviewer.id)).all();
    expect(told.filter((n) => n.kind === 'ownerReply')).toMatchObject([{ commentId: reviewId, actorId: null }]);
    const page = await callerFor(t.deps, reviewer).notifications.list();
    expect(page.items.find((n) => n.kind === 'ownerReply')).toMatchObject({ businessTitle: 'Pizzeria Roma', link: `/comment/${reviewId}#comment-${reviewId}` });
  });

  it('a review without an answer has ownerReply null', async () => {
    const plain = await review(reviewer, otherShop, 'Gott kaffe.');
    expect(plain.ownerReply).toBeNull();
    const listed = (await inject('GET', `/api/comment/${otherShop}`, null)).json();
    expect(listed.find((c: { _id: string }) => c._id === plain._id).ownerReply).toBeNull();
  });

  it('owners cannot rate their own business or report its reviews; others still can', async () => {
    const rate = await inject('POST', `/api/business/addRate/${shop}`, owner, { rate: 5 });
    expect(rate.statusCode).toBe(403);
    expect(rate.json().key).toBe('ownerCannotRate');
    await expect(callerFor(t.deps, owner).business.rate({ id: shop, rate: 5 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      callerFor(t.deps, owner).comments.create({ businessId: shop, text: 'Bäst i stan!', businessLocation: 'Uppsala', rate: 5 }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      cause: { key: 'ownerCannotRate' },
    });
    const report = await inject('POST', `/api/comment/report/${reviewId}`, owner, { reason: 'spam' });
    expect(report.statusCode).toBe(403);
    expect(report.json().key).toBe('ownerCannotReport');
    expect((await inject('POST', `/api/business/addRate/${otherShop}`, owner, { rate: 4 })).statusCode).toBe(200);
    expect((await inject('POST', `/api/business/addRate/${shop}`, reviewer, { rate: 4 })).statusCode).toBe(200);
  });

  it('the numbers: owners of the business and admins; unanswered reviews listed', async () => {
    const unanswered = await review(otherOwner, shop, 'Kall pizza.');
    const url = `/api/business/${shop}/owner-stats`;
    expect((await inject('GET', url, null)).statusCode).toBe(401);
    for (const who of [reviewer, otherOwner, moderator, banned]) expect((await inject('GET', url, who)).statusCode).toBe(403);
    const res = await inject('GET', url, owner);
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats).toMatchObject({ businessId: shop, title: 'Pizzeria Roma', ratingCount: 1, average: 4, breakdown: [0, 0, 0, 1, 0], reviews: 2, answered: 1 });
    expect(stats.unanswered.map((c: { _id: string }) => c._id)).toEqual([unanswered._id]);
    expect(stats.months).toHaveLength(12);
    expect(stats.months.at(-1)).toMatchObject({ reviews: 2, average: 4 });
    expect((await callerFor(t.deps, admin).owners.stats({ businessId: shop })).answered).toBe(1);
    await expect(callerFor(t.deps, otherOwner).owners.stats({ businessId: shop })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('owners and moderators delete an answer; nobody else', async () => {
    const url = `/api/comment/${reviewId}/owner-reply`;
    for (const who of [reviewer, otherOwner, banned]) expect((await inject('DELETE', url, who)).statusCode).toBe(403);
    expect((await inject('DELETE', url, null)).statusCode).toBe(401);
    expect((await inject('DELETE', url, moderator)).statusCode).toBe(200);
    expect((await inject('DELETE', url, owner)).statusCode).toBe(404);
    await callerFor(t.deps, owner).owners.putReply({ commentId: reviewId, text: 'Välkommen tillbaka!' });
    expect(await callerFor(t.deps, owner).owners.deleteReply({ commentId: reviewId })).toEqual({ ok: true });
    expect((await callerFor(t.deps, null).comments.byId({ id: reviewId })).ownerReply).toBeNull();
  });

  it('an admin lists and removes an owner, who can no longer answer', async () => {
    expect((await inject('GET', `/api/business/${shop}/owners`, moderator)).statusCode).toBe(403);
    const owners = await inject('GET', `/api/business/${shop}/owners`, admin);
    expect(owners.json().map((o: { userId: string }) => o.userId)).toEqual([owner.id]);
    expect((await inject('DELETE', `/api/business/${shop}/owners/${owner.id}`, owner)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/business/${shop}/owners/${owner.id}`, admin)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/business/${shop}/owners/${owner.id}`, admin)).statusCode).toBe(404);
    expect((await inject('PUT', `/api/comment/${reviewId}/owner-reply`, owner, { text: 'Hej igen' })).statusCode).toBe(403);
    await callerFor(t.deps, admin).owners.decideClaim({
      id: (await callerFor(t.deps, owner).owners.claim({ businessId: shop })).claim._id,
      decision: 'approve',
    });
    expect(await callerFor(t.deps, admin).owners.owners({ businessId: shop })).toHaveLength(1);
    await callerFor(t.deps, admin).owners.removeOwner({ businessId: shop, userId: owner.id });
    expect(await callerFor(t.deps, admin).owners.owners({ businessId: shop })).toHaveLength(0);
  });
});

describe('spam rules on answers', () => {
  it('a new account’s answer with a link is refused like any post', async () => {
    const s = await createTestApp({ env: { SPAM_RULES: '1' } });
    try {
      const [who, author, boss] = await Promise.all([createTestUser(s.db), createTestUser(s.db), createTestUser(s.db, { isAdmin: true })]);
      const b = insertBusiness(s.db, 'Spamfri');
      const claim = await callerFor(s.deps, who).owners.claim({ businessId: b });
      await callerFor(s.deps, boss).owners.decideClaim({ id: claim.claim._id, decision: 'approve' });
      const c = await callerFor(s.deps, author).comments.create({ businessId: b, text: 'En recension.', businessLocation: 'Uppsala' });
      const res = await s.app.inject({ method: 'PUT', url: `/api/comment/${c._id}/owner-reply`, headers: bearer(who), payload: { text: 'Se www.billigt.se' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().key).toBe('spamNewAccountLinks');
    } finally {
      await s.close();
    }
  });
});

describe('matching an address to a website', () => {
  it.each([
    ['anna@pizzeria-roma.se', 'https://www.pizzeria-roma.se/meny', true],
    ['anna@pizzeria-roma.se', 'boka.pizzeria-roma.se', true],
    ['anna@PIZZERIA-ROMA.SE', 'http://pizzeria-roma.se', true],
    ['anna@mail.pizzeria-roma.se', 'https://pizzeria-roma.se', false],
    ['anna@gmail.com', 'https://pizzeria-roma.se', false],
    ['anna@roma.se', 'https://pizzeria-roma.se', false],
    ['anna@pizzeria-roma.se', null, false],
    ['anna@localhost', 'http://localhost', false],
  ])('%s at %s: %s', (email, website, expected) => {
    expect(emailAtWebsiteDomain(email, website)).toBe(expected);
  });

  it('months run in Swedish time, oldest first', () => {
    // 23:30 UTC on 31 December is already January in Stockholm.
    expect(lastMonths(Date.UTC(2025, 11, 31, 23, 30), 3)).toEqual(['2025-11', '2025-12', '2026-01']);
  });
});
