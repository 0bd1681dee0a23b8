import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, upgradeTasks } from '../../../db/schema';
import { bearer, callerFor, createTestApp, createTestUser, pngForm, type TestContext, type TestUser } from '../../test/helpers';
import { newId } from '../../lib/ids';
import { messageText } from '../../../shared/schemas/messages';
import { matchBranch } from './comment-branches';
import { runUpgradeTasks } from '../ops/upgrade-tasks';

let t: TestContext;
let admin: TestUser;
let users: TestUser[];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  admin = await createTestUser(t.db, { isAdmin: true, firstName: 'Alma', lastName: 'Admin' });
  users = await Promise.all(Array.from({ length: 6 }, (_, i) => createTestUser(t.db, { firstName: `Person${i}` })));
});
afterAll(() => t.close());

const BRANCHES = [{ location: 'Kungens kurva' }, { location: 'Malmö' }, { location: 'Café Ängel' }];

async function newBusiness(branches = BRANCHES) {
  const b = await callerFor(t.deps, admin).business.create({ title: `IKEA ${newId().slice(0, 5)}`, category: 'Möbler', description: 'Möbler.', branches });
  const ids = Object.fromEntries(b.branches.map((br) => [br.location, br.id]));
  return { id: b.id, branch: ids };
}

/** Posts through REST as a legacy client does: multipart with free text. */
async function restPost(user: TestUser, businessId: string, fields: Record<string, string>) {
  const form = await pngForm({ text: 'Trevlig personal', ...fields });
  return t.app.inject({ method: 'POST', url: `/api/comment/create/${businessId}`, ...form, headers: { ...form.headers, ...bearer(user) } });
}

/** A comment row as stored: its link and its text. */
const stored = (id: string) =>
  t.db.select({ branchId: comments.branchId, location: comments.businessLocation }).from(comments).where(eq(comments.id, id)).get();

describe('matching free text to a branch', () => {
  const list = [
    { id: 'a', location: 'Kungens kurva' },
    { id: 'b', location: 'Västerås Erikslund' },
    { id: 'c', location: 'Café Ängel' },
  ];
  it('ignores case (Swedish rules), repeated spaces and accents', () => {
    expect(matchBranch(list, 'kungens KURVA')?.id).toBe('a');
    expect(matchBranch(list, ' Kungens   Kurva ')?.id).toBe('a');
    expect(matchBranch(list, 'VÄSTERÅS erikslund')?.id).toBe('b');
    expect(matchBranch(list, 'vasteras erikslund')?.id).toBe('b');
    expect(matchBranch(list, 'cafe angel')?.id).toBe('c');
    // Combining accents (decomposed input) are the same letters.
    expect(matchBranch(list, 'Cafe\u0301 A\u0308ngel')?.id).toBe('c');
    expect(matchBranch(list, 'Kungens')).toBeNull();
  });
  it('prefers the exact letters, and leaves two accent-only twins apart', () => {
    const twins = [
      { id: 't1', location: 'Täby' },
      { id: 't2', location: 'Taby' },
    ];
    expect(matchBranch(twins, 'TÄBY')?.id).toBe('t1');
    expect(matchBranch(twins, 'taby')?.id).toBe('t2');
    expect(matchBranch(twins, 'Tåby')).toBeNull();
  });
});

describe('the place of a new or edited comment', () => {
  it('tRPC: a chosen branch is stored with its spelling; free text naming a branch becomes that branch', async () => {
    const shop = await newBusiness();
    const c = callerFor(t.deps, users[0]).comments;
    const chosen = await c.create({ businessId: shop.id, text: 'Bra service', branchId: shop.branch['Kungens kurva'] });
    expect(chosen).toMatchObject({ branchId: shop.branch['Kungens kurva'], businessLocation: 'Kungens kurva' });
    const typed = await c.create({ businessId: shop.id, text: 'Bra service', businessLocation: 'kungens KURVA' });
    expect(typed).toMatchObject({ branchId: shop.branch['Kungens kurva'], businessLocation: 'Kungens kurva' });
    const accents = await c.create({ businessId: shop.id, text: 'Bra service', businessLocation: 'malmo' });
    expect(accents).toMatchObject({ branchId: shop.branch['Malmö'], businessLocation: 'Malmö' });
    const other = await c.create({ businessId: shop.id, text: 'Bra service', businessLocation: 'Barkarby' });
    expect(other).toMatchObject({ branchId: null, businessLocation: 'Barkarby' });
    expect(stored(other._id)).toEqual({ branchId: null, location: 'Barkarby' });
  });

  it("tRPC: neither a branch nor a place, or another business's branch, is a 400 naming the field", async () => {
    const shop = await newBusiness();
    const elsewhere = await newBusiness();
    const c = callerFor(t.deps, users[0]).comments;
    await expect(c.create({ businessId: shop.id, text: 'Bra service' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(c.create({ businessId: shop.id, text: 'Bra service', branchId: elsewhere.branch['Malmö'] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('REST (legacy clients): free text is matched; branchId is accepted; the reply carries branchId', async () => {
    const shop = await newBusiness();
    const legacy = await restPost(users[1], shop.id, { businessLocation: 'KUNGENS kurva' });
    expect(legacy.statusCode).toBe(201);
    expect(legacy.json()).toMatchObject({ businessLocation: 'Kungens kurva', branchId: shop.branch['Kungens kurva'] });
    const byId = await restPost(users[1], shop.id, { branchId: shop.branch['Café Ängel'] });
    expect(byId.statusCode).toBe(201);
    expect(byId.json()).toMatchObject({ businessLocation: 'Café Ängel', branchId: shop.branch['Café Ängel'] });
    const other = await restPost(users[1], shop.id, { businessLocation: 'Barkarby' });
    expect(other.json()).toMatchObject({ businessLocation: 'Barkarby', branchId: null });
    const none = await restPost(users[1], shop.id, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ businessLocation: messageText('commentLocationRequired') });
    const foreign = await restPost(users[1], shop.id, { branchId: 'no-such-branch' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({ branchId: messageText('commentBranchUnknown') });
  });

  it('an edit may move a comment to another place (REST and tRPC); without one it stays', async () => {
    const shop = await newBusiness();
    const c = callerFor(t.deps, users[2]).comments;
    const posted = await c.create({ businessId: shop.id, text: 'Bra service', branchId: shop.branch['Malmö'] });
    expect(await c.update({ id: posted._id, text: 'Ändrad text' })).toMatchObject({ branchId: shop.branch['Malmö'], businessLocation: 'Malmö' });
    expect(await c.update({ id: posted._id, text: 'Ändrad text', businessLocation: 'café ängel' })).toMatchObject({
      branchId: shop.branch['Café Ängel'],
      businessLocation: 'Café Ängel',
    });
    const form = await pngForm({ text: 'Ändrad igen', branchId: shop.branch['Kungens kurva'] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/comment/update/${posted._id}`, ...form, headers: { ...form.headers, ...bearer(users[2]) } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ branchId: shop.branch['Kungens kurva'], businessLocation: 'Kungens kurva' });
  });
});

describe('the upgrade of existing comments (migration 0014, run at start)', () => {
  it('links the texts that name a branch, keeps the others, runs once, and again changes nothing', async () => {
    const shop = await newBusiness();
    const now = Date.now();
    // Comments as an older release stored them: free text, no branch.
    const legacy = ['kungens KURVA', 'Kungens Kurva', 'MALMO', 'Café ängel', 'Barkarby'].map((location, i) => {
      const id = newId();
      t.db
        .insert(comments)
        .values({ id, businessId: shop.id, userId: users[i].id, businessLocation: location, text: 'Gammal kommentar', createdAt: now + i, updatedAt: now + i })
        .run();
      return id;
    });
    t.db.insert(upgradeTasks).values({ name: 'comment-branches' }).onConflictDoNothing().run();
    expect(runUpgradeTasks(t.db)).toContain('comment-branches');
    expect(legacy.map(stored)).toEqual([
      { branchId: shop.branch['Kungens kurva'], location: 'Kungens kurva' },
      { branchId: shop.branch['Kungens kurva'], location: 'Kungens kurva' },
      { branchId: shop.branch['Malmö'], location: 'Malmö' },
      { branchId: shop.branch['Café Ängel'], location: 'Café Ängel' },
      { branchId: null, location: 'Barkarby' },
    ]);
    expect(t.db.select().from(upgradeTasks).all()).toEqual([]);
    // Queued again (or run twice): linked rows are left alone, unmatched ones stay unmatched.
    t.db.insert(upgradeTasks).values({ name: 'comment-branches' }).run();
    expect(runUpgradeTasks(t.db)).toEqual(['comment-branches']);
    expect(runUpgradeTasks(t.db)).toEqual([]);
    expect(stored(legacy[4])).toEqual({ branchId: null, location: 'Barkarby' });
    expect(stored(legacy[0])).toEqual({ branchId: shop.branch['Kungens kurva'], location: 'Kungens kurva' });
    // The search finds the comments by their branch's spelling.
    const found = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, search: 'kungens kurva' });
    expect(found.items.map((c) => c._id).sort()).toEqual([legacy[0], legacy[1]].sort());
  });

  it('a task this release does not know stays queued', () => {
    t.db.insert(upgradeTasks).values({ name: 'from-a-newer-release' }).run();
    expect(runUpgradeTasks(t.db)).toEqual([]);
    expect(t.db.select().from(upgradeTasks).all()).toEqual([{ name: 'from-a-newer-release' }]);
    t.db.delete(upgradeTasks).run();
  });
});

describe('the branch filter (REST ?branch= and tRPC), with search and cursor paging', () => {
  let shop: Awaited<ReturnType<typeof newBusiness>>;
  const places = ['Kungens kurva', 'Malmö', 'Café Ängel', 'Barkarby'];

  beforeAll(async () => {
    shop = await newBusiness();
    // 40 comments spread over the branches and one other place; every third mentions köttbullar.
    for (let i = 0; i < 40; i++) {
      const place = places[i % places.length];
      await callerFor(t.deps, users[i % users.length]).comments.create({
        businessId: shop.id,
        text: i % 3 === 0 ? `Goda köttbullar ${i}` : `Fina möbler ${i}`,
        businessLocation: place.toUpperCase(),
      });
    }
  });

  /** What the filter must return, counted from the table in posting order (newest first). */
  function recount(branchId: string, word?: string) {
    return t.db
      .select({ id: comments.id })
      .from(comments)
      .where(sql`${comments.businessId} = ${shop.id} and ${comments.branchId} = ${branchId}${word ? sql` and ${comments.text} like ${`%${word}%`}` : sql``}`)
      .orderBy(sql`${comments.createdAt} desc, ${comments}.rowid desc`)
      .all()
      .map((r) => r.id);
  }

  async function allPagesTrpc(input: { branch: string; search?: string; sort?: 'oldest' | 'replied'; photos?: boolean }) {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, limit: 3, ...input, cursor });
      ids.push(...page.items.map((c) => c._id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  }

  async function allPagesRest(query: Record<string, string>) {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const qs = new URLSearchParams({ limit: '4', ...query, ...(cursor ? { cursor } : {}) });
      const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?${qs.toString()}` });
      expect(res.statusCode).toBe(200);
      ids.push(...res.json<Array<{ _id: string }>>().map((c) => c._id));
      cursor = res.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    return ids;
  }

  it("returns exactly the branch's comments, newest first, across pages", async () => {
    for (const place of ['Kungens kurva', 'Malmö', 'Café Ängel']) {
      const expected = recount(shop.branch[place]);
      expect(expected).toHaveLength(10);
      expect(await allPagesTrpc({ branch: shop.branch[place] })).toEqual(expected);
      expect(await allPagesRest({ branch: shop.branch[place] })).toEqual(expected);
    }
  });

  it('combines with the search', async () => {
    const branch = shop.branch['Malmö'];
    const expected = recount(branch, 'köttbullar');
    expect(expected.length).toBeGreaterThan(1);
    expect(await allPagesTrpc({ branch, search: 'köttbull' })).toEqual(expected);
    expect(await allPagesRest({ branch, search: 'köttbull' })).toEqual(expected);
  });

  it('combines with another order and with the search in it (the sorted walks)', async () => {
    const branch = shop.branch['Kungens kurva'];
    const oldestFirst = recount(branch).reverse();
    expect(await allPagesTrpc({ branch, sort: 'oldest' })).toEqual(oldestFirst);
    expect(await allPagesRest({ branch, sort: 'oldest' })).toEqual(oldestFirst);
    const matching = recount(branch, 'köttbullar').reverse();
    expect(matching.length).toBeGreaterThan(1);
    expect(await allPagesTrpc({ branch, sort: 'oldest', search: 'köttbull' })).toEqual(matching);
    expect(await allPagesRest({ branch, sort: 'oldest', search: 'köttbull' })).toEqual(matching);
    // No replies anywhere: 'replied' keeps the newest-first order within equal counts.
    expect(await allPagesRest({ branch, sort: 'replied' })).toEqual(recount(branch));
  });

  it("another business's branch, or an unknown one, is a 400 naming `branch`", async () => {
    const elsewhere = await newBusiness();
    const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop.id}?branch=${elsewhere.branch['Malmö']}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ branch: messageText('commentBranchUnknown') });
    await expect(callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id, branch: 'nope' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe("a branch's own rating", () => {
  it('averages the star ratings of the distinct users who wrote about the branch (REST and tRPC)', async () => {
    const shop = await newBusiness();
    const [a, b, c, d] = users;
    const post = (u: TestUser, place: string) => callerFor(t.deps, u).comments.create({ businessId: shop.id, text: 'Om filialen', businessLocation: place });
    await post(a, 'Kungens kurva');
    await post(a, 'kungens kurva'); // the same author twice counts once
    await post(b, 'Kungens kurva');
    await post(c, 'Malmö');
    await post(c, 'Kungens kurva'); // one author, two branches: counts for both
    const hidden = await post(d, 'Malmö');
    await callerFor(t.deps, a).business.rate({ id: shop.id, rate: 5 });
    await callerFor(t.deps, b).business.rate({ id: shop.id, rate: 2 });
    await callerFor(t.deps, c).business.rate({ id: shop.id, rate: 4 });
    await callerFor(t.deps, d).business.rate({ id: shop.id, rate: 1 });
    // A hidden comment (reports) does not count.
    t.db.update(comments).set({ hiddenAt: Date.now() }).where(eq(comments.id, hidden._id)).run();

    const detail = await callerFor(t.deps, null).business.byId({ id: shop.id });
    const byLocation = Object.fromEntries(detail.branches.map((br) => [br.location, { rate: br.rate, ratingCount: br.ratingCount }]));
    expect(byLocation).toEqual({
      'Kungens kurva': { rate: (5 + 2 + 4) / 3, ratingCount: 3 },
      Malmö: { rate: 4, ratingCount: 1 },
      'Café Ängel': { rate: null, ratingCount: 0 },
    });
    const rest = await t.app.inject({ method: 'GET', url: `/api/business/${shop.id}` });
    expect(rest.json().branches).toEqual([
      {
        _id: shop.branch['Kungens kurva'],
        location: 'Kungens kurva',
        address: null,
        town: 'Huddinge',
        area: 'Kungens kurva',
        postalCode: null,
        lat: null,
        lng: null,
        phone: null,
        openingHours: null,
        rate: (5 + 2 + 4) / 3,
        ratingCount: 3,
        commentCount: 4,
      },
      {
        _id: shop.branch['Malmö'],
        location: 'Malmö',
        address: null,
        town: 'Malmö',
        area: null,
        postalCode: null,
        lat: null,
        lng: null,
        phone: null,
        openingHours: null,
        rate: 4,
        ratingCount: 1,
        commentCount: 1,
      },
      {
        _id: shop.branch['Café Ängel'],
        location: 'Café Ängel',
        address: null,
        town: 'Café Ängel',
        area: null,
        postalCode: null,
        lat: null,
        lng: null,
        phone: null,
        openingHours: null,
        rate: null,
        ratingCount: 0,
        commentCount: 0,
      },
    ]);

    // A changed rating moves every branch its author wrote about.
    await callerFor(t.deps, c).business.rate({ id: shop.id, rate: 1 });
    const after = await callerFor(t.deps, null).business.byId({ id: shop.id });
    expect(after.branches.map((br) => br.rate)).toEqual([(5 + 2 + 1) / 3, 1, null]);
  });
});

describe('an admin editing the branch list', () => {
  it('keeps sent branches and their links, renames linked comments, unlinks a removed branch and keeps its text (tRPC)', async () => {
    const shop = await newBusiness();
    const u = callerFor(t.deps, users[3]).comments;
    const atKungens = await u.create({ businessId: shop.id, text: 'Om Kungens', branchId: shop.branch['Kungens kurva'] });
    const atMalmo = await u.create({ businessId: shop.id, text: 'Om Malmö', branchId: shop.branch['Malmö'] });
    const atCafe = await u.create({ businessId: shop.id, text: 'Om caféet', branchId: shop.branch['Café Ängel'] });
    const atHaninge = await u.create({ businessId: shop.id, text: 'Om Haninge', businessLocation: 'haninge' });
    expect(atHaninge.branchId).toBeNull();

    const edited = await callerFor(t.deps, admin).business.update({
      id: shop.id,
      description: 'Möbler.',
      branches: [
        // Renamed, kept by its id.
        { id: shop.branch['Kungens kurva'], location: 'Kungens Kurva Huddinge' },
        // Kept by its location (no id, as a REST client sends it).
        { location: 'MALMÖ', address: 'Stadiongatan 1' },
        // New: the unlinked comment that names it is linked.
        { location: 'Haninge' },
        // Café Ängel is left out: deleted.
      ],
    });
    const ids = edited.branches.map((b) => b.id);
    expect(ids[0]).toBe(shop.branch['Kungens kurva']);
    expect(ids[1]).toBe(shop.branch['Malmö']);
    expect(edited.branches.map((b) => b.location)).toEqual(['Kungens Kurva Huddinge', 'MALMÖ', 'Haninge']);
    expect(stored(atKungens._id)).toEqual({ branchId: shop.branch['Kungens kurva'], location: 'Kungens Kurva Huddinge' });
    expect(stored(atMalmo._id)).toEqual({ branchId: shop.branch['Malmö'], location: 'MALMÖ' });
    expect(stored(atCafe._id)).toEqual({ branchId: null, location: 'Café Ängel' });
    expect(stored(atHaninge._id)).toEqual({ branchId: ids[2], location: 'Haninge' });
    // The unlinked comment is still listed (and found by its text), just under no branch.
    const list = await callerFor(t.deps, null).comments.byBusiness({ businessId: shop.id });
    expect(list.items.find((c) => c._id === atCafe._id)).toMatchObject({ branchId: null, businessLocation: 'Café Ängel' });
  });

  it('REST: branches[i][_id] keeps a branch through a rename; a branch left out is deleted and its comments unlinked', async () => {
    const shop = await newBusiness();
    const posted = await callerFor(t.deps, users[4]).comments.create({ businessId: shop.id, text: 'Om Malmö', branchId: shop.branch['Malmö'] });
    const gone = await callerFor(t.deps, users[4]).comments.create({ businessId: shop.id, text: 'Om Kungens', branchId: shop.branch['Kungens kurva'] });
    const form = await pngForm({
      description: 'Möbler.',
      'branches[0][_id]': shop.branch['Malmö'],
      'branches[0][location]': 'Malmö Svågertorp',
      'branches[1][location]': 'Café Ängel',
    });
    const res = await t.app.inject({ method: 'PUT', url: `/api/business/${shop.id}`, ...form, headers: { ...form.headers, ...bearer(admin) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().branches.map((b: { _id: string }) => b._id)).toEqual([shop.branch['Malmö'], shop.branch['Café Ängel']]);
    expect(stored(posted._id)).toEqual({ branchId: shop.branch['Malmö'], location: 'Malmö Svågertorp' });
    expect(stored(gone._id)).toEqual({ branchId: null, location: 'Kungens kurva' });
  });
});

describe('the OpenAPI document', () => {
  it("documents ?branch=, branchId on comments and the branches' ratings", async () => {
    const doc = (await t.app.inject('/api/docs')).json();
    // GET /api/comment/{businessId} shares its path item with DELETE /api/comment/{id} (server/rest/openapi.ts).
    const list = doc.paths['/api/comment/{id}'].get;
    expect(list.parameters.some((p: { name: string; in: string }) => p.name === 'branch' && p.in === 'query')).toBe(true);
    const schema = list.responses['200'].content['application/json'].schema;
    const comment = schema.items.$ref ? doc.components.schemas[schema.items.$ref.split('/').pop()] : schema.items;
    expect(comment.properties.branchId).toBeDefined();
    const business = doc.paths['/api/business/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(business.properties.branches.items.properties)).toEqual(expect.arrayContaining(['rate', 'ratingCount']));
  });
});
