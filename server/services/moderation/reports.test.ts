import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, modLog, reports } from '../../../db/schema';
import { bearer, callerFor, createCast, createTestApp, createTestUser, pngForm, type TestContext, type TestUser } from '../../test/helpers';
import { commentCountOf, insertBusiness } from '../../test/comment-fixtures';
import { rateComment } from '../comments/comment-ratings';
import { createComment, deleteComment, getComment, listBusinessComments, listFeed } from '../comments/comments';
import { deleteAccount } from '../accounts/accounts-delete';
import { deleteBusiness } from '../business/business-admin';
import { createReply, deleteReply, listAllReplies, listReplies } from '../comments/replies';
import { setUserFlags } from '../accounts/users';
import { reportPost, resolveReports } from './reports';
import { establish } from '../../test/trust';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let reporters: TestUser[];
let shop: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  reporters = await Promise.all([1, 2, 3].map((i) => createTestUser(t.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
  // Only established users' reports hide a post (reports.ts); trust.test.ts tests who counts.
  await establish(t.deps, reporters);
  shop = insertBusiness(t.db, 'Rapportbutiken');
});
afterAll(() => t.close());

const post = (text = 'Kanelbullarna var fantastiska', business = shop, who = cast.owner) =>
  createComment(t.deps, who.actor, { businessId: business, text, businessLocation: 'Lund' });
const reportRest = (kind: 'comment' | 'subComment', id: string, user: TestUser | null, payload: unknown = { reason: 'spam' }) =>
  t.app.inject({ method: 'POST', url: `/api/${kind}/report/${id}`, headers: user ? bearer(user) : {}, payload: payload as object });
const hideByReports = async (kind: 'comment' | 'reply', id: string) => {
  for (const r of reporters) await reportPost(t.deps, r.actor, kind, { id, reason: 'offensive' });
};

describe('reporting a comment or reply (REST and tRPC)', () => {
  it('who may report: visitors log in, authors cannot, banned users cannot, others can', async () => {
    const c = await post();
    const visitor = await reportRest('comment', c._id, null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ key: 'reportLoginRequired', message: 'Please log in to report a post.' });
    expect((await reportRest('comment', c._id, cast.owner)).json()).toMatchObject({ key: 'reportOwnPost' });
    expect((await reportRest('comment', c._id, cast.owner)).statusCode).toBe(403);
    expect((await reportRest('comment', c._id, cast.banned)).statusCode).toBe(403);
    const first = await reportRest('comment', c._id, cast.other, { reason: 'fake', note: 'Aldrig varit där' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ message: 'Thank you! A moderator will look at it.', result: 'created', hidden: false });
    const again = await reportRest('comment', c._id, cast.other, { reason: 'spam' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ result: 'existing' });
    expect((await reportRest('comment', c._id, cast.admin)).statusCode).toBe(201);
    expect(t.db.select().from(reports).where(eq(reports.commentId, c._id)).all()).toHaveLength(2);
    expect((await reportRest('comment', 'no-such-id', cast.other)).statusCode).toBe(404);
    // The reporter sees their report on the card; others do not.
    expect(getComment(t.deps, cast.other.actor, c._id).reportedByMe).toBe(true);
    expect(getComment(t.deps, reporters[0].actor, c._id).reportedByMe).toBe(false);
  });

  it('an unknown reason or a long note is a 400; the reasons are an enum in the OpenAPI document', async () => {
    const c = await post();
    expect((await reportRest('comment', c._id, cast.other, { reason: 'boring' })).statusCode).toBe(400);
    expect((await reportRest('comment', c._id, cast.other, {})).statusCode).toBe(400);
    expect((await reportRest('comment', c._id, cast.other, { reason: 'other', note: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await reportRest('comment', c._id, cast.other, { reason: 'other', note: 'x'.repeat(500) })).statusCode).toBe(201);
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    for (const path of ['/api/comment/report/{id}', '/api/subComment/report/{id}']) {
      const body = doc.paths[path].post.requestBody.content['application/json'].schema;
      expect(body.properties.reason.enum).toEqual(['spam', 'fake', 'offensive', 'personal', 'offTopic', 'other']);
    }
    expect(doc.paths['/api/reports'].get).toBeDefined();
    expect(doc.paths['/api/reports/{id}/resolve'].post).toBeDefined();
    expect(doc.paths['/api/mod-log'].get).toBeDefined();
  });

  it('replies through tRPC, with the same rules', async () => {
    const c = await post();
    const r = await createReply(t.deps, cast.owner.actor, { commentId: c._id, text: 'Håller med' });
    await expect(callerFor(t.deps, null).moderation.reportReply({ id: r._id, reason: 'spam' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(t.deps, cast.owner).moderation.reportReply({ id: r._id, reason: 'spam' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(t.deps, cast.banned).moderation.reportReply({ id: r._id, reason: 'spam' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(t.deps, cast.other).moderation.reportReply({ id: r._id, reason: 'nope' as 'spam' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await callerFor(t.deps, cast.other).moderation.reportReply({ id: r._id, reason: 'personal' })).toEqual({ result: 'created', hidden: false });
    expect(await callerFor(t.deps, cast.other).moderation.reportReply({ id: r._id, reason: 'spam' })).toEqual({ result: 'existing', hidden: false });
    expect((await reportRest('subComment', r._id, cast.admin, { reason: 'offTopic' })).statusCode).toBe(201);
    expect(listReplies(t.deps, cast.other.actor, { commentId: c._id }).items[0].reportedByMe).toBe(true);
  });
});

describe('auto-hide at REPORT_HIDE_THRESHOLD distinct reporters', () => {
  it('a hidden comment leaves every public list, search and count; its author and admins still see it, marked', async () => {
    const business = insertBusiness(t.db, 'Gömbutiken');
    const c = await post('Kanelbullar och reklam här', business);
    await post('En vanlig kommentar om kanelbullar', business);
    await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Svar på den' });
    await rateComment(t.deps, cast.other.actor, { id: c._id, rate: 5 });
    expect(commentCountOf(t.db, business)).toBe(2);
    const ids = (items: { _id: string }[]) => items.map((i) => i._id);
    expect(ids(listFeed(t.deps, null, { filter: 'mostReplied' }).items)).toContain(c._id);

    await reportPost(t.deps, reporters[0].actor, 'comment', { id: c._id, reason: 'spam' });
    await reportPost(t.deps, reporters[1].actor, 'comment', { id: c._id, reason: 'spam' });
    // A repeat by the same user is not a second reporter.
    expect(await reportPost(t.deps, reporters[1].actor, 'comment', { id: c._id, reason: 'spam' })).toEqual({ result: 'existing', hidden: false });
    expect(getComment(t.deps, null, c._id).hidden).toBe(false);
    expect(await reportPost(t.deps, reporters[2].actor, 'comment', { id: c._id, reason: 'offensive' })).toEqual({ result: 'created', hidden: true });

    expect(commentCountOf(t.db, business)).toBe(1);
    for (const filter of ['all', 'mostReplied', 'topRated'] as const) expect(ids(listFeed(t.deps, null, { filter }).items)).not.toContain(c._id);
    expect(ids(listBusinessComments(t.deps, null, { businessId: business }).items)).not.toContain(c._id);
    const found = listBusinessComments(t.deps, cast.owner.actor, { businessId: business, search: 'kanelbullar' });
    expect(ids(found.items)).not.toContain(c._id);
    expect(found.items).toHaveLength(1);
    for (const url of [
      '/api/comment',
      '/api/comment/most-rated',
      '/api/comment/most-subcomments',
      `/api/comment/${business}`,
      `/api/comment/${business}?search=reklam`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(ids(res.json()), url).not.toContain(c._id);
    }
    const bizRes = await t.app.inject({ url: `/api/business/${business}` });
    if (bizRes.statusCode === 200 && 'commentCount' in bizRes.json()) expect(bizRes.json().commentCount).toBe(1);
    await expect(callerFor(t.deps, null).comments.byId({ id: c._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callerFor(t.deps, cast.other).comments.byId({ id: c._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // Its thread goes with it: the reply under it is in no public list.
    expect(listAllReplies(t.deps, null, {}).items.map((x) => x.commentId)).not.toContain(c._id);
    await expect(callerFor(t.deps, null).comments.replies({ commentId: c._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(listReplies(t.deps, cast.admin.actor, { commentId: c._id }).items).toHaveLength(1);

    // The author and admins still see it, marked.
    expect((await callerFor(t.deps, cast.owner).comments.byId({ id: c._id })).hidden).toBe(true);
    expect((await callerFor(t.deps, cast.admin).comments.byId({ id: c._id })).hidden).toBe(true);
    expect(ids(listBusinessComments(t.deps, cast.owner.actor, { businessId: business }).items)).toContain(c._id);
    expect(ids((await callerFor(t.deps, cast.admin).comments.feed({ filter: 'all' })).items)).toContain(c._id);

    // Deleting a hidden comment does not take it off the count a second time.
    await deleteComment(t.deps, cast.owner.actor, c._id);
    expect(commentCountOf(t.db, business)).toBe(1);
  });

  it("a hidden reply leaves its comment's lists and reply count", async () => {
    const c = await post();
    const r = await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Köp billiga klockor här' });
    await createReply(t.deps, cast.admin.actor, { commentId: c._id, text: 'Ett vanligt svar' });
    expect(getComment(t.deps, null, c._id).replyCount).toBe(2);
    await hideByReports('reply', r._id);
    expect(getComment(t.deps, null, c._id).replyCount).toBe(1);
    expect(listReplies(t.deps, null, { commentId: c._id }).items.map((x) => x._id)).not.toContain(r._id);
    expect(listAllReplies(t.deps, null, {}).items.map((x) => x._id)).not.toContain(r._id);
    const full = (await t.app.inject({ url: `/api/comment/${shop}` })).json<{ _id: string; subComments: { _id: string }[] }[]>();
    expect(full.find((x) => x._id === c._id)!.subComments.map((x) => x._id)).not.toContain(r._id);
    expect((await t.app.inject({ url: '/api/subComment' })).json().map((x: { _id: string }) => x._id)).not.toContain(r._id);
    const mine = listReplies(t.deps, cast.other.actor, { commentId: c._id }).items.find((x) => x._id === r._id);
    expect(mine?.hidden).toBe(true);
  });
});

describe('the moderation queue and its decisions (admins)', () => {
  it('only admins read the queue and decide', async () => {
    const c = await post();
    await reportPost(t.deps, cast.other.actor, 'comment', { id: c._id, reason: 'spam' });
    for (const who of [null, cast.owner, cast.other, cast.banned]) {
      const headers = who ? bearer(who) : {};
      expect([401, 403]).toContain((await t.app.inject({ url: '/api/reports', headers })).statusCode);
      expect([401, 403]).toContain((await t.app.inject({ url: '/api/mod-log', headers })).statusCode);
      const res = await t.app.inject({ method: 'POST', url: `/api/reports/${c._id}/resolve`, headers, payload: { action: 'dismiss' } });
      expect([401, 403]).toContain(res.statusCode);
      await expect(callerFor(t.deps, who).moderation.reports({ status: 'open' })).rejects.toMatchObject({
        code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/),
      });
    }
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/reports/${c._id}/resolve`, headers: bearer(cast.admin), payload: { action: 'ban' } })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/reports/unknown/resolve', headers: bearer(cast.admin), payload: { action: 'dismiss' } })).statusCode,
    ).toBe(404);
  });

  it('groups reports by item, most reported first, with reasons, notes, reporters and the author', async () => {
    const few = await post('Lite rapporterad');
    const many = await post('Mycket rapporterad');
    await reportPost(t.deps, reporters[0].actor, 'comment', { id: few._id, reason: 'offTopic' });
    await reportPost(t.deps, reporters[0].actor, 'comment', { id: many._id, reason: 'spam', note: 'Reklam för klockor' });
    await reportPost(t.deps, reporters[1].actor, 'comment', { id: many._id, reason: 'fake' });
    const res = await t.app.inject({ url: '/api/reports?status=open&limit=100', headers: bearer(cast.admin) });
    expect(res.statusCode).toBe(200);
    const groups = res.json<{ _id: string; reportCount: number }[]>();
    const order = groups.map((g) => g._id);
    expect(order.indexOf(many._id)).toBeLessThan(order.indexOf(few._id));
    const group = (await callerFor(t.deps, cast.admin).moderation.reports({ status: 'open', limit: 100 })).items.find((g) => g._id === many._id)!;
    expect(group).toMatchObject({ kind: 'comment', text: 'Mycket rapporterad', businessTitle: 'Rapportbutiken', reportCount: 2, hidden: false });
    expect(group.author).toMatchObject({ _id: cast.owner.id, firstName: 'Olle', isBanned: false });
    expect(group.author.posts).toBeGreaterThan(1);
    expect(group.reports.map((r) => [r.reason, r.note, r.reporterName])).toEqual([
      ['spam', 'Reklam för klockor', 'Rapportör1 R'],
      ['fake', null, 'Rapportör2 R'],
    ]);
  });

  it('dismiss restores a hidden item, its count and its search; the log keeps who, what and why', async () => {
    const business = insertBusiness(t.db);
    const c = await post('Kanelbullar som döljs', business);
    await hideByReports('comment', c._id);
    expect(commentCountOf(t.db, business)).toBe(0);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/reports/${c._id}/resolve`,
      headers: bearer(cast.admin),
      payload: { action: 'dismiss', note: 'Inget fel' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'The reports were resolved.', action: 'dismiss' });
    expect(commentCountOf(t.db, business)).toBe(1);
    expect(getComment(t.deps, null, c._id).hidden).toBe(false);
    expect(listBusinessComments(t.deps, null, { businessId: business, search: 'kanelbullar' }).items.map((x) => x._id)).toContain(c._id);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/reports/${c._id}/resolve`, headers: bearer(cast.admin), payload: { action: 'dismiss' } })).statusCode,
    ).toBe(404);
    const resolved = (await callerFor(t.deps, cast.admin).moderation.reports({ status: 'resolved' })).items;
    expect(resolved.find((g) => g._id === c._id)).toMatchObject({ status: 'resolved', resolution: 'dismiss', reportCount: 3 });
    const log = (await t.app.inject({ url: '/api/mod-log', headers: bearer(cast.admin) })).json();
    expect(log[0]).toMatchObject({
      action: 'dismiss',
      targetKind: 'comment',
      targetId: c._id,
      actorName: 'Alma Admin',
      reason: 'Inget fel',
      excerpt: 'Kanelbullar som döljs',
    });
    // Reported again after a dismissal: a fresh count.
    await reportPost(t.deps, reporters[0].actor, 'comment', { id: c._id, reason: 'spam' });
    expect(getComment(t.deps, null, c._id).hidden).toBe(false);
  });

  it('remove empties the post and keeps it as a notice with the reason for its author; a comment with replies stays a public placeholder', async () => {
    const business = insertBusiness(t.db);
    const lone = await post('Ensam och elak', business);
    const threaded = await post('Elak med svar', business);
    const r = await createReply(t.deps, cast.other.actor, { commentId: threaded._id, text: 'Ett elakt svar' });
    await createReply(t.deps, cast.admin.actor, { commentId: threaded._id, text: 'Ett vänligt svar' });
    await hideByReports('comment', lone._id);
    await hideByReports('comment', threaded._id);
    await hideByReports('reply', r._id);
    expect(commentCountOf(t.db, business)).toBe(0);
    const removalsBefore = (await callerFor(t.deps, cast.admin).moderation.reports({ status: 'open', limit: 100 })).items.find((g) => g._id === lone._id)!
      .author.removals;

    const admin = callerFor(t.deps, cast.admin);
    expect(await admin.moderation.resolve({ id: r._id, action: 'remove' })).toEqual({ action: 'remove' });
    // Issue 27 item 10: the author reads the chosen reason and the words meant for them, never the log's note.
    expect(
      await admin.moderation.resolve({ id: lone._id, action: 'remove', reason: 'offensive', reasonText: 'Hat', note: 'Tredje gången, se förra veckan' }),
    ).toEqual({ action: 'remove' });
    const rest = await t.app.inject({
      method: 'POST',
      url: `/api/reports/${threaded._id}/resolve`,
      headers: bearer(cast.admin),
      payload: { action: 'remove' },
    });
    expect(rest.statusCode).toBe(200);

    // The lone comment: gone for everyone but its author (and admins), who read why.
    expect(t.db.select().from(comments).where(eq(comments.id, lone._id)).get()).toMatchObject({ text: '', imageId: null, removalReason: 'offensive: Hat' });
    await expect(callerFor(t.deps, null).comments.byId({ id: lone._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callerFor(t.deps, cast.other).comments.byId({ id: lone._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await callerFor(t.deps, cast.owner).comments.byId({ id: lone._id })).toMatchObject({
      removed: true,
      hidden: true,
      text: '',
      removalReason: 'offensive: Hat',
    });
    expect(getComment(t.deps, cast.admin.actor, lone._id)).toMatchObject({ removed: true, removalReason: 'offensive: Hat' });
    expect(JSON.stringify(await callerFor(t.deps, cast.owner).comments.byId({ id: lone._id }))).not.toContain('Tredje gången');
    const logged = t.db.select().from(modLog).where(eq(modLog.targetId, lone._id)).get();
    expect(logged?.reason).toBe('offensive: Hat — Tredje gången, se förra veckan');
    expect(listBusinessComments(t.deps, cast.owner.actor, { businessId: business }).items.find((c) => c._id === lone._id)).toMatchObject({
      removalReason: 'offensive: Hat',
    });
    expect(listBusinessComments(t.deps, null, { businessId: business }).items.map((c) => c._id)).not.toContain(lone._id);
    // Nor can the author write it back, through either door; deleting it stays possible.
    await expect(callerFor(t.deps, cast.owner).comments.update({ id: lone._id, text: 'Tillbaka igen' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const form = await pngForm({ text: 'Tillbaka igen' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/comment/update/${lone._id}`,
      payload: form.payload,
      headers: { ...form.headers, ...bearer(cast.owner) },
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ key: 'postRemoved' });

    // The reply: its author sees the reports' reason in its place; the thread's readers do not see it.
    const ownReplies = listReplies(t.deps, cast.other.actor, { commentId: threaded._id }).items;
    expect(ownReplies.find((x) => x._id === r._id)).toMatchObject({ removed: true, hidden: true, text: '', removalReason: 'offensive' });
    expect(listReplies(t.deps, null, { commentId: threaded._id }).items.map((x) => x._id)).not.toContain(r._id);
    await expect(callerFor(t.deps, cast.other).comments.updateReply({ id: r._id, text: 'Nytt svar' })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    // The threaded comment: a public placeholder; only its author and admins get the reason.
    const placeholder = getComment(t.deps, null, threaded._id);
    expect(placeholder).toMatchObject({ removed: true, hidden: false, text: '', image: null, removalReason: null });
    expect(getComment(t.deps, cast.owner.actor, threaded._id).removalReason).toBe('offensive');
    expect(getComment(t.deps, cast.other.actor, threaded._id).removalReason).toBeNull();
    // Its thread stays readable but takes no new replies, through either door.
    await expect(callerFor(t.deps, cast.other).comments.reply({ commentId: threaded._id, text: 'Ett nytt svar' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const replyForm = await pngForm({ text: 'Ett nytt svar' });
    const replied = await t.app.inject({
      method: 'POST',
      url: `/api/comment/addSubComment/${threaded._id}`,
      payload: replyForm.payload,
      headers: { ...replyForm.headers, ...bearer(cast.other) },
    });
    expect(replied.statusCode).toBe(403);
    expect(replied.json()).toMatchObject({ key: 'postRemovedNoReplies' });
    // Nothing removed can be reported again.
    expect((await reportRest('comment', threaded._id, cast.admin)).statusCode).toBe(404);
    expect((await reportRest('comment', lone._id, cast.admin)).statusCode).toBe(404);
    expect((await reportRest('subComment', r._id, cast.admin)).statusCode).toBe(404);
    expect(commentCountOf(t.db, business)).toBe(1);
    expect(getComment(t.deps, null, threaded._id).replyCount).toBe(1);
    expect(listBusinessComments(t.deps, null, { businessId: business, search: 'elak' }).items).toEqual([]);
    const log = (await admin.moderation.log()).items;
    expect(log.slice(0, 3).map((e) => [e.action, e.targetKind, e.excerpt])).toEqual([
      ['remove', 'comment', 'Elak med svar'],
      ['remove', 'comment', 'Ensam och elak'],
      ['remove', 'reply', 'Ett elakt svar'],
    ]);
    expect(log[1].reason).toBe('offensive: Hat — Tredje gången, se förra veckan');
    expect(log[0].reason).toBe('offensive');
    expect(
      t.db
        .select()
        .from(modLog)
        .all()
        .every((e) => e.actorId === cast.admin.id),
    ).toBe(true);

    // The author's history in the queue counts the removals.
    const again = await post('Ett nytt inlägg', business);
    await reportPost(t.deps, reporters[0].actor, 'comment', { id: again._id, reason: 'spam' });
    const group = (await admin.moderation.reports({ status: 'open', limit: 100 })).items.find((g) => g._id === again._id)!;
    expect(group.author.removals).toBe(removalsBefore + 2);

    // The author deletes the notice: the count it left earlier is not taken twice.
    await deleteComment(t.deps, cast.owner.actor, lone._id);
    expect(commentCountOf(t.db, business)).toBe(2);
  });
});

describe("removing all of an author's posts (admins)", () => {
  it('turns every post into a notice with the reason, closes their reports, logs once; both doors, admins only', async () => {
    const business = insertBusiness(t.db);
    const spammer = await createTestUser(t.db, { firstName: 'Sam', lastName: 'Spam' });
    const a = await post('Reklam ett', business, spammer);
    const b = await post('Reklam två', business, spammer);
    const mine = await createReply(t.deps, cast.other.actor, { commentId: b._id, text: 'Ett svar av någon annan' });
    const r = await createReply(t.deps, spammer.actor, { commentId: a._id, text: 'Reklam tre' });
    await reportPost(t.deps, cast.other.actor, 'comment', { id: a._id, reason: 'spam' });
    expect(commentCountOf(t.db, business)).toBe(2);

    for (const who of [null, cast.owner, cast.banned]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/users/${spammer.id}/remove-posts`, headers: who ? bearer(who) : {}, payload: {} });
      expect([401, 403]).toContain(res.statusCode);
      await expect(callerFor(t.deps, who).moderation.removeAllPosts({ userId: spammer.id })).rejects.toMatchObject({
        code: expect.stringMatching(/UNAUTHORIZED|FORBIDDEN/),
      });
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/users/no-such-user/remove-posts', headers: bearer(cast.admin), payload: {} })).statusCode).toBe(
      404,
    );

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/${spammer.id}/remove-posts`,
      headers: bearer(cast.admin),
      payload: { note: 'Reklamkonto' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "The user's posts were removed.", removed: 3 });
    expect(getComment(t.deps, spammer.actor, a._id)).toMatchObject({ removed: true, hidden: true, text: '', removalReason: 'Reklamkonto' });
    // b has a reply by someone else: a public placeholder, that reply untouched.
    expect(getComment(t.deps, null, b._id)).toMatchObject({ removed: true, hidden: false, text: '' });
    expect(listReplies(t.deps, null, { commentId: b._id }).items.map((x) => [x._id, x.text])).toEqual([[mine._id, 'Ett svar av någon annan']]);
    expect(listReplies(t.deps, spammer.actor, { commentId: a._id }).items[0]).toMatchObject({ _id: r._id, removed: true, removalReason: 'Reklamkonto' });
    expect(commentCountOf(t.db, business)).toBe(1);
    expect((await callerFor(t.deps, cast.admin).moderation.reports({ status: 'open', limit: 100 })).items.map((g) => g._id)).not.toContain(a._id);
    const log = (await callerFor(t.deps, cast.admin).moderation.log({ action: 'removeAll' })).items;
    expect(log[0]).toMatchObject({ targetKind: 'user', targetId: spammer.id, excerpt: 'Sam Spam (3)', reason: 'Reklamkonto' });

    // Again through tRPC: nothing is left to remove.
    expect(await callerFor(t.deps, cast.admin).moderation.removeAllPosts({ userId: spammer.id })).toEqual({ removed: 0 });
  });
});

describe('paging the queue and the log (both doors)', () => {
  it('pages the open queue in its order by cursor, with X-Next-Cursor on REST', async () => {
    const pager = await createTestApp({ env: { RATE_LIMITS: '0' } });
    try {
      const people = await createCast(pager.db);
      const others = await Promise.all([1, 2, 3].map(() => createTestUser(pager.db)));
      const business = insertBusiness(pager.db);
      const posts = [];
      for (let i = 0; i < 5; i++)
        posts.push(await createComment(pager.deps, people.owner.actor, { businessId: business, text: `Inlägg ${i}`, businessLocation: 'Lund' }));
      // Post 3 has two reports, the rest one each (oldest first among equals).
      // A millisecond apart (the clock reportPost takes): "oldest first" never rests on a tie.
      const base = Date.now();
      for (const [i, p] of posts.entries()) await reportPost(pager.deps, people.other.actor, 'comment', { id: p._id, reason: 'spam' }, base + i);
      await reportPost(pager.deps, others[0].actor, 'comment', { id: posts[3]._id, reason: 'fake' }, base + 10);
      const admin = callerFor(pager.deps, people.admin);
      const first = await admin.moderation.reports({ status: 'open', limit: 2 });
      expect(first.items.map((g) => g._id)).toEqual([posts[3]._id, posts[0]._id]);
      const second = await admin.moderation.reports({ status: 'open', limit: 2, cursor: first.nextCursor! });
      expect(second.items.map((g) => g._id)).toEqual([posts[1]._id, posts[2]._id]);
      const third = await admin.moderation.reports({ status: 'open', limit: 2, cursor: second.nextCursor! });
      expect(third).toEqual({ items: [expect.objectContaining({ _id: posts[4]._id })], nextCursor: null });

      const rest1 = await pager.app.inject({ url: '/api/reports?limit=3', headers: bearer(people.admin) });
      expect(rest1.json().map((g: { _id: string }) => g._id)).toEqual([posts[3]._id, posts[0]._id, posts[1]._id]);
      const cursor = rest1.headers['x-next-cursor'] as string;
      const rest2 = await pager.app.inject({ url: `/api/reports?limit=3&cursor=${cursor}`, headers: bearer(people.admin) });
      expect(rest2.json().map((g: { _id: string }) => g._id)).toEqual([posts[2]._id, posts[4]._id]);
      expect(rest2.headers['x-next-cursor']).toBeUndefined();
      expect((await pager.app.inject({ url: '/api/reports?cursor=%%%', headers: bearer(people.admin) })).statusCode).toBe(400);

      // Resolved: most recently decided first, paged the same way.
      for (const [i, p] of [posts[0], posts[1], posts[2]].entries())
        await resolveReports(pager.deps, people.admin.actor, { id: p._id, action: 'dismiss' }, base + 100 + i);
      const done1 = await admin.moderation.reports({ status: 'resolved', limit: 2 });
      expect(done1.items.map((g) => g._id)).toEqual([posts[2]._id, posts[1]._id]);
      const done2 = await admin.moderation.reports({ status: 'resolved', limit: 2, cursor: done1.nextCursor! });
      expect(done2.items.map((g) => g._id)).toEqual([posts[0]._id]);
      expect(done2.nextCursor).toBeNull();
    } finally {
      await pager.close();
    }
  });

  it('pages the log newest first and filters it by action and by target, through both doors', async () => {
    const pager = await createTestApp({ env: { RATE_LIMITS: '0' } });
    try {
      const people = await createCast(pager.db);
      const target = await createTestUser(pager.db, { firstName: 'Mona', lastName: 'Mål' });
      for (const isBanned of [true, false, true, false]) await setUserFlags(pager.deps, people.admin.actor, target.id, { isBanned });
      await setUserFlags(pager.deps, people.admin.actor, target.id, { isAdmin: true });
      await deleteBusiness(pager.deps, people.admin.actor, insertBusiness(pager.db, 'Loggbutik'));
      const admin = callerFor(pager.deps, people.admin);
      const all: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await admin.moderation.log({ limit: 2, cursor });
        all.push(...page.items.map((e) => e.action));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(all).toEqual(['deleteBusiness', 'adminOn', 'unban', 'ban', 'unban', 'ban']);
      expect((await admin.moderation.log({ action: 'ban' })).items.map((e) => e.action)).toEqual(['ban', 'ban']);
      expect((await admin.moderation.log({ targetKind: 'business' })).items.map((e) => e.excerpt)).toEqual(['Loggbutik']);

      const rest = await pager.app.inject({ url: '/api/mod-log?targetKind=user&limit=3', headers: bearer(people.admin) });
      expect(rest.json().map((e: { action: string }) => e.action)).toEqual(['adminOn', 'unban', 'ban']);
      const next = await pager.app.inject({
        url: `/api/mod-log?targetKind=user&limit=3&cursor=${String(rest.headers['x-next-cursor'])}`,
        headers: bearer(people.admin),
      });
      expect(next.json().map((e: { action: string }) => e.action)).toEqual(['unban', 'ban']);
      expect((await pager.app.inject({ url: '/api/mod-log?action=unban', headers: bearer(people.admin) })).json()).toHaveLength(2);
      expect((await pager.app.inject({ url: '/api/mod-log?action=explode', headers: bearer(people.admin) })).statusCode).toBe(400);
      expect((await pager.app.inject({ url: '/api/mod-log', headers: bearer(people.other) })).statusCode).toBe(403);
    } finally {
      await pager.close();
    }
  });
});

describe('the moderation log records every moderator action', () => {
  it('ban, unban, admin on and off, deleting a user or a business, removing posts; not what users do to their own', async () => {
    const target = await createTestUser(t.db, { firstName: 'Mona', lastName: 'Mål' });
    const business = insertBusiness(t.db, 'Loggbutiken');
    const c = await post('Borttagen av admin', business, cast.other);
    const r = await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Svar som tas bort' });
    const own = await createReply(t.deps, cast.other.actor, { commentId: c._id, text: 'Mitt eget svar' });
    await deleteReply(t.deps, cast.other.actor, own._id);
    await setUserFlags(t.deps, cast.admin.actor, target.id, { isAdmin: true });
    await setUserFlags(t.deps, cast.admin.actor, target.id, { isAdmin: false });
    await setUserFlags(t.deps, cast.admin.actor, target.id, { isBanned: true });
    await setUserFlags(t.deps, cast.admin.actor, target.id, { isBanned: false });
    await deleteReply(t.deps, cast.admin.actor, r._id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/comment/${c._id}`, headers: bearer(cast.admin) })).statusCode).toBe(200);
    await deleteBusiness(t.deps, cast.admin.actor, business);
    await deleteAccount(t.deps, cast.admin.actor, target.id);
    const self = await createTestUser(t.db);
    await deleteAccount(t.deps, self.actor, self.id);

    const log = (await callerFor(t.deps, cast.admin).moderation.log({ limit: 100 })).items;
    expect(
      log
        .slice(0, 8)
        .map((e) => [e.action, e.targetKind, e.excerpt])
        .reverse(),
    ).toEqual([
      ['adminOn', 'user', 'Mona Mål'],
      ['adminOff', 'user', 'Mona Mål'],
      ['ban', 'user', 'Mona Mål'],
      ['unban', 'user', 'Mona Mål'],
      ['remove', 'reply', 'Svar som tas bort'],
      ['remove', 'comment', 'Borttagen av admin'],
      ['deleteBusiness', 'business', 'Loggbutiken'],
      ['deleteUser', 'user', 'Mona Mål'],
    ]);
    expect(log.every((e) => e.actorName === 'Alma Admin')).toBe(true);
    expect(log.some((e) => e.excerpt === 'Mitt eget svar')).toBe(false);
  });
});

describe('the report limit', () => {
  it('counts every report of a user, repeats included: the 21st in a minute is a 429', async () => {
    const limited = await createTestApp();
    try {
      const [author, reporter] = await Promise.all([createTestUser(limited.db), createTestUser(limited.db)]);
      const c = await createComment(limited.deps, author.actor, { businessId: insertBusiness(limited.db), text: 'Text', businessLocation: 'Lund' });
      const send = () => limited.app.inject({ method: 'POST', url: `/api/comment/report/${c._id}`, headers: bearer(reporter), payload: { reason: 'spam' } });
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await send()).statusCode);
      expect(statuses[0]).toBe(201);
      expect(statuses.slice(1, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
