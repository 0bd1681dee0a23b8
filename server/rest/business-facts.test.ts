import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branches, businessFactChanges, businessOwners, upgradeTasks } from '../../db/schema';
import { newId } from '../lib/ids';
import type { RestBusiness } from './business';
import { messageText } from '../../shared/schemas/messages';
import { requireActive } from '../services/actor';
import { createBusiness } from '../services/business/business-admin';
import { editBusinessFacts } from '../services/business/business-facts';
import { runUpgradeTasks } from '../services/ops/upgrade-tasks';
import type { OpeningHours } from '../../shared/schemas/opening-hours';
import { bearer, createCast, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let moderator: TestUser;
let businessId: string;
let hyllie: string;
let lund: string;
let otherBranch: string;

const hours: OpeningHours = {
  weekly: [1, 2, 3, 4, 5].map((day) => ({ day, opens: '10:00', closes: '21:00' })),
  exceptions: [{ date: '2026-12-25', periods: [], note: 'Juldagen' }],
};

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
  moderator = await createTestUser(t.db, { firstName: 'Mona', lastName: 'Moderator', isModerator: true });
  const business = await createBusiness(t.deps, cast.admin.actor, {
    title: 'Pizzeria Torget',
    category: 'Livsmedel',
    description: 'Pizza vid torget.',
    branches: [{ location: 'Malmö Hyllie', address: 'Hyllie Boulevard 1' }, { location: 'Lund' }],
  });
  businessId = business.id;
  [hyllie, lund] = business.branches.map((b) => b.id);
  const other = await createBusiness(t.deps, cast.admin.actor, {
    title: 'Annat Kafé',
    category: 'Livsmedel',
    description: 'Ett annat företag.',
    branches: [{ location: 'Umeå' }],
  });
  otherBranch = other.branches[0].id;
});
afterAll(() => t.close());

const trpc = (path: string, user: TestUser | null, input: object) =>
  t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { 'content-type': 'application/json', ...(user ? bearer(user) : {}) },
    payload: JSON.stringify(input),
  });
const rest = (user: TestUser | null, body: object, id = businessId) =>
  t.app.inject({ method: 'PUT', url: `/api/business/${id}/facts`, headers: user ? bearer(user) : {}, payload: body });
const getRest = async (id = businessId) => (await t.app.inject({ method: 'GET', url: `/api/business/${id}` })).json<RestBusiness>();
const logRows = () => t.db.select().from(businessFactChanges).where(eq(businessFactChanges.businessId, businessId)).all();

describe('branch towns', () => {
  it('splits a new branch location into a normalised town and an area', async () => {
    const body = await getRest();
    expect(body.branches.map((b) => [b.location, b.town, b.area])).toEqual([
      ['Malmö Hyllie', 'Malmö', 'Hyllie'],
      ['Lund', 'Lund', null],
    ]);
  });

  it('migration 0019 backfills existing branches: "Malmö Svågertorp" becomes Malmö + Svågertorp (upgrade task)', () => {
    const id = newId();
    // As the migration leaves it: the town is the whole location until the task runs.
    t.db.insert(branches).values({ id, businessId, location: 'Malmö Svågertorp', town: 'Malmö Svågertorp', position: 9 }).run();
    t.db.insert(upgradeTasks).values({ name: 'branch-towns' }).onConflictDoNothing().run();
    expect(runUpgradeTasks(t.db)).toContain('branch-towns');
    expect(t.db.select({ town: branches.town, area: branches.area }).from(branches).where(eq(branches.id, id)).get()).toEqual({
      town: 'Malmö',
      area: 'Svågertorp',
    });
    t.db.delete(branches).where(eq(branches.id, id)).run();
  });
});

describe('who may edit the facts', () => {
  const who = { visitor: null as TestUser | null, member: null as TestUser | null, banned: null as TestUser | null, moderator: null as TestUser | null };
  beforeAll(() => {
    who.member = cast.other;
    who.banned = cast.banned;
    who.moderator = moderator;
  });

  it.each([
    ['visitor', 401],
    ['member', 403],
    ['banned', 403],
    ['moderator', 403],
  ] as const)('a %s may not (REST %i, tRPC the same)', async (name, status) => {
    const user = who[name];
    expect((await rest(user, { phone: '040-12 34 56' })).statusCode).toBe(status);
    expect((await trpc('business.editFacts', user, { id: businessId, phone: '040-12 34 56' })).statusCode).toBe(status);
    expect(logRows()).toEqual([]);
    expect((await getRest()).phone).toBeNull();
  });
});

describe('an admin edits the facts', () => {
  it('through REST: website, phone and a branch, shown by GET /api/business/{id} and tRPC byId, logged with before and after', async () => {
    const res = await rest(cast.admin, {
      website: 'https://pizzeriatorget.se',
      phone: '040-12 34 56',
      branches: [{ _id: hyllie, postalCode: '21532', lat: 55.5633, lng: 12.9757, phone: '040-65 43 21', openingHours: hours }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().changed).toEqual(
      expect.arrayContaining(['website', 'phone', `branch:${hyllie}.postalCode`, `branch:${hyllie}.lat`, `branch:${hyllie}.openingHours`]),
    );
    const body = await getRest();
    expect(body).toMatchObject({ website: 'https://pizzeriatorget.se', phone: '040-12 34 56' });
    expect(body.branches[0]).toMatchObject({ _id: hyllie, postalCode: '215 32', lat: 55.5633, lng: 12.9757, phone: '040-65 43 21', openingHours: hours });
    const byId = await trpc('business.byId', null, { id: businessId });
    const viaTrpc = (await t.app.inject({ method: 'GET', url: `/trpc/business.byId?input=${encodeURIComponent(JSON.stringify({ id: businessId }))}` })).json();
    expect(byId.statusCode).toBe(405);
    expect(viaTrpc.result.data.branches[0]).toMatchObject({ town: 'Malmö', area: 'Hyllie', openingHours: hours, lat: 55.5633 });
    const [entry] = logRows();
    expect(entry.actorId).toBe(cast.admin.id);
    expect(JSON.parse(entry.changes)).toMatchObject({ website: [null, 'https://pizzeriatorget.se'], [`branch:${hyllie}.postalCode`]: [null, '215 32'] });
  });

  it('through tRPC: a town and area fixed by hand and the hours removed; the log lists both edits, newest first (REST and tRPC)', async () => {
    const res = await trpc('business.editFacts', cast.admin, {
      id: businessId,
      branches: [
        { id: lund, town: 'Lund', area: 'Mårtenstorget' },
        { id: hyllie, openingHours: null },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = await getRest();
    expect(body.branches[1]).toMatchObject({ town: 'Lund', area: 'Mårtenstorget' });
    expect(body.branches[0].openingHours).toBeNull();
    const log = await t.app.inject({ method: 'GET', url: `/api/business/${businessId}/facts/log`, headers: bearer(cast.admin) });
    expect(log.json()).toHaveLength(2);
    expect(log.json()[0].changes).toMatchObject({ [`branch:${lund}.area`]: [null, 'Mårtenstorget'] });
    expect((await t.app.inject({ method: 'GET', url: `/api/business/${businessId}/facts/log`, headers: bearer(moderator) })).statusCode).toBe(403);
    const viaTrpc = await t.app.inject({
      method: 'GET',
      url: `/trpc/business.factChanges?input=${encodeURIComponent(JSON.stringify({ id: businessId }))}`,
      headers: bearer(cast.admin),
    });
    expect(viaTrpc.json().result.data).toHaveLength(2);
  });

  it('takes back what branch locations made of town and area: area "C", a long unknown town, no town at all', async () => {
    const long = 'Gamla Stan vid Storkyrkan och Slottet i Stockholms innerstad, norra delen';
    const made = await createBusiness(t.deps, cast.admin.actor, {
      title: 'Kedjan Överallt',
      category: 'Livsmedel',
      description: 'Finns på många ställen.',
      branches: [{ location: 'Malmö C' }, { location: long.replace('Gamla Stan', 'Gamlestaden') }, { location: 'Hela Sverige' }],
    });
    const shown = await getRest(made.id);
    expect(shown.branches.map((b) => [b.town, b.area])).toEqual([
      ['Malmö', 'C'],
      [long.replace('Gamla Stan', 'Gamlestaden'), null],
      ['', null],
    ]);
    // The form sends every branch's fields back as it got them.
    const res = await rest(cast.admin, { branches: shown.branches.map((b) => ({ _id: b._id, town: b.town, area: b.area ?? '' })) }, made.id);
    expect(res.statusCode).toBe(200);
  });

  it('logs nothing when nothing changes, and "" removes a value', async () => {
    expect((await rest(cast.admin, { phone: '040-12 34 56' })).json().changed).toEqual([]);
    expect(logRows()).toHaveLength(2);
    expect((await rest(cast.admin, { phone: '' })).json().changed).toEqual(['phone']);
    expect((await getRest()).phone).toBeNull();
  });

  it.each([
    [{ website: 'ftp://example.se' }, 'website', 'websiteInvalid'],
    [{ phone: 'ring oss' }, 'phone', 'phoneInvalid'],
    [{ branches: [{ _id: 'x', lat: 55.6 }] }, 'branches.0.lat', 'coordinatesInvalid'],
    [{ branches: [{ _id: 'x', postalCode: '2153' }] }, 'branches.0.postalCode', 'postalCodeInvalid'],
    [
      { branches: [{ _id: 'x', openingHours: { weekly: [{ day: 1, opens: '9', closes: '17:00' }], exceptions: [] } }] },
      'branches.0.openingHours.weekly.0.opens',
      'hoursTimeInvalid',
    ],
  ])('refuses bad input with a 400 naming the field: %j', async (body, field, key) => {
    const res = await rest(cast.admin, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ [field]: messageText(key) });
    expect(
      (
        await trpc('business.editFacts', cast.admin, {
          id: businessId,
          ...body,
          branches: undefined,
          ...('branches' in body ? { branches: body.branches.map(({ _id, ...b }) => ({ id: _id, ...b })) } : {}),
        })
      ).statusCode,
    ).toBe(400);
  });

  it("refuses another business's branch (400) and an unknown business (404)", async () => {
    expect((await rest(cast.admin, { branches: [{ _id: otherBranch, phone: '090-11 22 33' }] })).statusCode).toBe(400);
    expect((await rest(cast.admin, { phone: '090-11 22 33' }, 'no-such-business')).statusCode).toBe(404);
  });
});

describe('the edit check can be replaced (the owners feature plugs in here)', () => {
  it('lets through whoever the passed check allows, and logs them as the editor', async () => {
    const allowMember = (actor: Parameters<typeof requireActive>[0]) => requireActive(actor);
    await editBusinessFacts(t.deps, cast.owner.actor, businessId, { website: 'https://torget.example.se' }, allowMember);
    expect((await getRest()).website).toBe('https://torget.example.se');
    expect(logRows().some((r) => r.actorId === cast.owner.id)).toBe(true);
  });
});

describe("the business's owners edit its facts (issue 31.6)", () => {
  it('an owner edits through REST and tRPC and reads the log; the owner of another business may not', async () => {
    const owner = await createTestUser(t.db, { firstName: 'Olle', lastName: 'Ägare' });
    const elsewhere = await createTestUser(t.db, { firstName: 'Eva', lastName: 'Annanstans' });
    const now = Date.now();
    t.db.insert(businessOwners).values({ businessId, userId: owner.id, createdAt: now }).run();
    const otherId = t.db.select({ businessId: branches.businessId }).from(branches).where(eq(branches.id, otherBranch)).get()!.businessId;
    t.db.insert(businessOwners).values({ businessId: otherId, userId: elsewhere.id, createdAt: now }).run();

    expect((await rest(owner, { phone: '040-11 22 33' })).statusCode).toBe(200);
    expect((await getRest()).phone).toBe('040-11 22 33');
    expect((await trpc('business.editFacts', owner, { id: businessId, branches: [{ id: lund, phone: '046-11 22 33' }] })).statusCode).toBe(200);
    expect((await getRest()).branches.find((b) => b._id === lund)?.phone).toBe('046-11 22 33');
    const log = await t.app.inject({ method: 'GET', url: `/api/business/${businessId}/facts/log`, headers: bearer(owner) });
    expect(log.statusCode).toBe(200);
    expect(logRows().some((r) => r.actorId === owner.id)).toBe(true);

    const before = logRows().length;
    expect((await rest(elsewhere, { phone: '040-12 00 00' })).statusCode).toBe(403);
    expect((await trpc('business.editFacts', elsewhere, { id: businessId, phone: '040-12 00 00' })).statusCode).toBe(403);
    expect((await rest(owner, { phone: '040-99 99 99' }, otherId)).statusCode).toBe(403);
    expect(logRows().length).toBe(before);
    expect((await getRest()).phone).toBe('040-11 22 33');
  });
});
