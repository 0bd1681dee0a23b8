import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modLog, ownerReplies, reports } from '../../db/schema';
import { insertBusiness } from '../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';
import { establish } from '../test/trust';
import { setUserFlags } from '../services/accounts/users';

// A business's answer to a review is reported and moderated like a post (issue 31.7).

let t: TestContext;
let reviewer: TestUser;
let owner: TestUser;
let coOwner: TestUser;
let member: TestUser;
let moderator: TestUser;
let admin: TestUser;
let banned: TestUser;
let reporters: TestUser[];
let shop: string;

const auth = (u: TestUser | null) => (u ? bearer(u) : {});
const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: auth(who), ...(payload ? { payload } : {}) });
const reportRest = (reviewId: string, who: TestUser | null, payload: object = { reason: 'offensive' }) =>
  inject('POST', `/api/comment/${reviewId}/owner-reply/report`, who, payload);

async function own(who: TestUser, businessId: string) {
  const { claim } = await callerFor(t.deps, who).owners.claim({ businessId });
  await callerFor(t.deps, admin).owners.decideClaim({ id: claim._id, decision: 'approve' });
}

/** A review by the reviewer with the owner's answer; returns the review's id (the answer's too). */
async function answered(text = 'Tack för besöket, välkommen åter!') {
  const review = await callerFor(t.deps, reviewer).comments.create({ businessId: shop, text: `Recension ${Math.random()}`, businessLocation: 'Uppsala' });
  await callerFor(t.deps, owner).owners.putReply({ commentId: review._id, text });
  return review._id;
}

const answerFor = async (who: TestUser | null, reviewId: string) => (await callerFor(t.deps, who).comments.byId({ id: reviewId })).ownerReply;
const restAnswer = async (reviewId: string, who: TestUser | null = null) =>
  (await inject('GET', `/api/comment/${shop}`, who)).json().find((c: { _id: string }) => c._id === reviewId)?.ownerReply;
const hideByReports = async (reviewId: string) => {
  for (const r of reporters) expect((await reportRest(reviewId, r)).statusCode).toBe(201);
};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  [reviewer, owner, coOwner, member, moderator, admin, banned] = await Promise.all([
    createTestUser(t.db, { firstName: 'Rita', lastName: 'Reviewer' }),
    createTestUser(t.db, { firstName: 'Olle', lastName: 'Owner' }),
    createTestUser(t.db, { firstName: 'Cilla', lastName: 'Coowner' }),
    createTestUser(t.db, { firstName: 'Mats', lastName: 'Member' }),
    createTestUser(t.db, { firstName: 'Mona', lastName: 'Mod', isModerator: true }),
    createTestUser(t.db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
    createTestUser(t.db, { firstName: 'Bo', lastName: 'Banned', isBanned: true }),
  ]);
  reporters = await Promise.all([1, 2, 3].map((i) => createTestUser(t.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
  await establish(t.deps, reporters);
  shop = insertBusiness(t.db, 'Pizzeria Svar');
  await own(owner, shop);
  await own(coOwner, shop);
});
afterAll(() => t.close());

describe('reporting an answer (REST and tRPC)', () => {
  it('visitors log in; its writer, a fellow owner and banned users cannot; members, the reviewer and moderators can', async () => {
    const id = await answered();
    const visitor = await reportRest(id, null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().key).toBe('reportLoginRequired');
    expect((await reportRest(id, owner)).json()).toMatchObject({ key: 'reportOwnPost' });
    const fellow = await reportRest(id, coOwner);
    expect(fellow.statusCode).toBe(403);
    expect(fellow.json().key).toBe('ownerCannotReport');
    expect((await reportRest(id, banned)).statusCode).toBe(403);
    await expect(callerFor(t.deps, coOwner).moderation.reportOwnerReply({ id, reason: 'spam' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      cause: { key: 'ownerCannotReport' },
    });
    expect((await reportRest(id, member, { reason: 'spam', note: 'Reklam' })).statusCode).toBe(201);
    const again = await reportRest(id, member);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ result: 'existing', hidden: false });
    expect(await callerFor(t.deps, reviewer).moderation.reportOwnerReply({ id, reason: 'offTopic' })).toEqual({ result: 'created', hidden: false });
    expect((await reportRest(id, moderator)).statusCode).toBe(201);
    expect((await reportRest(id, member, { reason: 'nonsense' })).statusCode).toBe(400);
    // The reports are the answer's, not the review's; the reporter sees theirs on the card.
    expect(t.db.select().from(reports).where(eq(reports.ownerReplyId, id)).all()).toHaveLength(3);
    expect(t.db.select().from(reports).where(eq(reports.commentId, id)).all()).toHaveLength(0);
    expect((await answerFor(member, id))?.reportedByMe).toBe(true);
    expect((await answerFor(admin, id))?.reportedByMe).toBe(false);
    expect((await restAnswer(id, member)).reportedByMe).toBe(true);
  });

  it('a review without an answer: 404', async () => {
    const review = await callerFor(t.deps, reviewer).comments.create({ businessId: shop, text: 'Ingen svarar.', businessLocation: 'Uppsala' });
    const res = await reportRest(review._id, member);
    expect(res.statusCode).toBe(404);
    expect(res.json().key).toBe('ownerReplyNotFound');
  });
});

describe('hidden after reports, then decided', () => {
  it('hides after REPORT_HIDE_THRESHOLD established reporters: gone for visitors and members, kept for owners and moderators', async () => {
    const id = await answered('Ni är dumma i huvudet.');
    // A young account's report is read but does not count.
    expect((await reportRest(id, member)).json().hidden).toBe(false);
    await reportRest(id, reporters[0]);
    await reportRest(id, reporters[1]);
    expect((await answerFor(null, id))?.text).toBe('Ni är dumma i huvudet.');
    expect((await reportRest(id, reporters[2])).json()).toMatchObject({ result: 'created', hidden: true });

    expect(await answerFor(null, id)).toBeNull();
    expect(await answerFor(member, id)).toBeNull();
    expect(await restAnswer(id)).toBeNull();
    expect(await restAnswer(id, reviewer)).toBeNull();
    // The review itself stays.
    expect((await inject('GET', `/api/comment/${shop}`, null)).json().some((c: { _id: string }) => c._id === id)).toBe(true);
    for (const who of [owner, coOwner, moderator, admin])
      expect(await answerFor(who, id)).toMatchObject({ hidden: true, removed: false, text: 'Ni är dumma i huvudet.' });
    expect(await restAnswer(id, owner)).toMatchObject({ hidden: true });
    // An edit keeps it hidden.
    await callerFor(t.deps, owner).owners.putReply({ commentId: id, text: 'Förlåt, vi tar tillbaka det.' });
    expect(await answerFor(null, id)).toBeNull();
  });

  it('the queue lists it (moderators only); dismiss shows it again and logs it', async () => {
    const id = await answered('Helt fel av dig.');
    await hideByReports(id);
    for (const who of [null, member, owner, banned]) expect((await inject('GET', '/api/reports', who)).statusCode).toBe(who ? 403 : 401);
    const queue = (await inject('GET', '/api/reports', moderator)).json();
    const group = queue.find((g: { kind: string; _id: string }) => g.kind === 'ownerReply' && g._id === id);
    expect(group).toMatchObject({
      commentId: id,
      text: 'Helt fel av dig.',
      businessId: shop,
      businessTitle: 'Pizzeria Svar',
      hidden: true,
      removed: false,
      image: null,
      reportCount: 3,
      author: { _id: owner.id, firstName: 'Olle' },
    });
    expect((await callerFor(t.deps, moderator).moderation.reports({ status: 'open' })).items.some((g) => g.kind === 'ownerReply' && g._id === id)).toBe(true);
    expect((await inject('GET', '/api/reports/waiting', moderator)).json().waiting).toBeGreaterThanOrEqual(1);

    const url = `/api/reports/${id}/resolve`;
    expect((await inject('POST', url, member, { action: 'dismiss', kind: 'ownerReply' })).statusCode).toBe(403);
    expect((await inject('POST', url, owner, { action: 'dismiss', kind: 'ownerReply' })).statusCode).toBe(403);
    // The review has no open reports of its own.
    expect((await inject('POST', url, moderator, { action: 'dismiss', kind: 'comment' })).statusCode).toBe(404);
    const res = await inject('POST', url, moderator, { action: 'dismiss', kind: 'ownerReply', note: 'Hårt men inte kränkande' });
    expect(res.statusCode).toBe(200);
    expect(await answerFor(null, id)).toMatchObject({ text: 'Helt fel av dig.', hidden: false });
    const logged = t.db.select().from(modLog).where(eq(modLog.targetId, id)).all();
    expect(logged).toMatchObject([{ action: 'dismiss', targetKind: 'ownerReply', excerpt: 'Helt fel av dig.', actorId: moderator.id }]);
    // Its reporters cannot hide it again.
    await hideByReports(id);
    expect(await answerFor(null, id)).not.toBeNull();
  });

  it('remove (tRPC): the text goes, visitors see nothing, the owners see why; they delete it and answer anew', async () => {
    const id = await answered('Köp billiga klockor på example.com');
    await hideByReports(id);
    await expect(callerFor(t.deps, owner).moderation.resolve({ id, kind: 'ownerReply', action: 'remove' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await callerFor(t.deps, admin).moderation.resolve({ id, kind: 'ownerReply', action: 'remove', reason: 'spam', reasonText: 'Reklam' })).toEqual({
      action: 'remove',
    });
    expect(await answerFor(null, id)).toBeNull();
    expect(await restAnswer(id, reviewer)).toBeNull();
    expect(await answerFor(coOwner, id)).toMatchObject({ text: '', hidden: true, removed: true, removalReason: 'spam: Reklam' });
    expect(t.db.select().from(modLog).where(eq(modLog.targetId, id)).all()).toMatchObject([{ action: 'remove', targetKind: 'ownerReply' }]);
    // It cannot be reported again, nor edited back.
    expect((await reportRest(id, member)).statusCode).toBe(404);
    const edit = await inject('PUT', `/api/comment/${id}/owner-reply`, owner, { text: 'Tack för besöket!' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().key).toBe('ownerReplyRemoved');
    expect((await inject('DELETE', `/api/comment/${id}/owner-reply`, owner)).statusCode).toBe(200);
    // The decided reports went with it; the log keeps the removal.
    expect(t.db.select().from(reports).where(eq(reports.ownerReplyId, id)).all()).toHaveLength(0);
    expect((await inject('PUT', `/api/comment/${id}/owner-reply`, owner, { text: 'Tack för besöket!' })).statusCode).toBe(200);
    expect(await answerFor(null, id)).toMatchObject({ text: 'Tack för besöket!', hidden: false, removed: false });
  });

  it('a review and its answer both reported: kind picks the answer; without it the review is decided', async () => {
    const id = await answered('Svar som rapporteras.');
    expect((await inject('POST', `/api/comment/report/${id}`, member, { reason: 'fake' })).statusCode).toBe(201);
    expect((await reportRest(id, member)).statusCode).toBe(201);
    expect((await inject('POST', `/api/reports/${id}/resolve`, moderator, { action: 'dismiss', kind: 'ownerReply' })).statusCode).toBe(200);
    expect(t.db.select().from(reports).where(eq(reports.commentId, id)).get()?.resolvedAt).toBeNull();
    expect((await inject('POST', `/api/reports/${id}/resolve`, moderator, { action: 'dismiss' })).statusCode).toBe(200);
    expect(t.db.select().from(reports).where(eq(reports.commentId, id)).get()?.resolution).toBe('dismiss');
    expect((await inject('POST', `/api/reports/${id}/resolve`, moderator, { action: 'dismiss', kind: 'owner' })).statusCode).toBe(400);
  });

  it('banning a reporter shows the answer again when the rest fall short', async () => {
    const id = await answered('Vi ses i rätten.');
    await hideByReports(id);
    expect(await answerFor(null, id)).toBeNull();
    await setUserFlags(t.deps, admin.actor, reporters[0].id, { isBanned: true });
    expect(await answerFor(null, id)).toMatchObject({ text: 'Vi ses i rätten.' });
    await setUserFlags(t.deps, admin.actor, reporters[0].id, { isBanned: false });
  });

  it('a hidden answer cannot be deleted by its owners (and so not posted anew) until a moderator decides', async () => {
    const id = await answered('Gömd men inte borta.');
    const fresh = await Promise.all([4, 5, 6].map((i) => createTestUser(t.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
    await establish(t.deps, fresh);
    for (const r of fresh) expect((await reportRest(id, r)).statusCode).toBe(201);
    // REST and tRPC: 403, the answer and its open reports stay, in the queue.
    const res = await inject('DELETE', `/api/comment/${id}/owner-reply`, owner);
    expect(res.statusCode).toBe(403);
    expect(res.json().key).toBe('ownerReplyHidden');
    await expect(callerFor(t.deps, coOwner).owners.deleteReply({ commentId: id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(t.db.select().from(reports).where(eq(reports.ownerReplyId, id)).all()).toHaveLength(fresh.length);
    // Re-posting over it edits the hidden answer, which stays hidden.
    expect((await inject('PUT', `/api/comment/${id}/owner-reply`, owner, { text: 'Gömd men inte borta.' })).statusCode).toBe(200);
    expect(await answerFor(null, id)).toBeNull();
    // A moderator still may; after a dismissal the owners may too.
    await callerFor(t.deps, moderator).moderation.resolve({ id, kind: 'ownerReply', action: 'dismiss' });
    expect((await inject('DELETE', `/api/comment/${id}/owner-reply`, owner)).statusCode).toBe(200);
  });

  it("a moderator's DELETE is logged as the answer's removal", async () => {
    const id = await answered('Raderas av moderator.');
    expect((await inject('DELETE', `/api/comment/${id}/owner-reply`, moderator)).statusCode).toBe(200);
    expect(t.db.select().from(modLog).where(eq(modLog.targetId, id)).all()).toMatchObject([{ action: 'remove', targetKind: 'ownerReply' }]);
    expect(t.db.select().from(ownerReplies).where(eq(ownerReplies.commentId, id)).all()).toHaveLength(0);
  });
});

describe('limits on answers', () => {
  it('a new answer counts against the per-user post limit (6 a minute), an edit against the edit limit', async () => {
    const s = await createTestApp();
    try {
      const [who, authorA, authorB, boss] = await Promise.all([
        createTestUser(s.db),
        createTestUser(s.db),
        createTestUser(s.db),
        createTestUser(s.db, { isAdmin: true }),
      ]);
      const b = insertBusiness(s.db, 'Begränsat');
      const { claim } = await callerFor(s.deps, who).owners.claim({ businessId: b });
      await callerFor(s.deps, boss).owners.decideClaim({ id: claim._id, decision: 'approve' });
      const reviews: string[] = [];
      for (const author of [authorA, authorB]) {
        for (let i = 0; i < 4; i++) {
          reviews.push(
            (await callerFor(s.deps, author).comments.create({ businessId: b, text: `Recension ${i} om stället.`, businessLocation: 'Uppsala' }))._id,
          );
        }
      }
      const put = (id: string, text: string) => s.app.inject({ method: 'PUT', url: `/api/comment/${id}/owner-reply`, headers: bearer(who), payload: { text } });
      const codes: number[] = [];
      for (const [i, id] of reviews.slice(0, 7).entries()) codes.push((await put(id, `Tack för recension nummer ${i}!`)).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 200, 200, 429]);
      // Edits are limited apart: the owner may still correct an answer.
      expect((await put(reviews[0], 'Tack, rättat svar!')).statusCode).toBe(200);
    } finally {
      await s.close();
    }
  });
});
