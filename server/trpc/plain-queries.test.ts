import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness } from '../services/business/business-admin';
import { setFavorite } from '../services/business/favorites';
import { bearer, callerFor, createCast, createTestApp, type TestContext } from '../test/helpers';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let pizzeriaId: string;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
  const add = (title: string) =>
    createBusiness(t.deps, cast.admin.actor, {
      title,
      category: 'Mat',
      description: 'Mat för hela familjen.',
      rate: 4,
      branches: [{ location: 'Umeå', address: 'Storgatan 1' }],
    });
  pizzeriaId = (await add('Pizzeria Roma')).id;
  await add('Cykelverkstan');
});
afterAll(() => t.close());

const url = (path: string, input?: unknown, batch = false) =>
  `/trpc/${path}?${batch ? 'batch=1&' : ''}${input === undefined ? '' : `input=${encodeURIComponent(JSON.stringify(input))}`}`;

describe('plain GET queries (answered without the fetch adapter)', () => {
  it('answers one query with the bytes tRPC sends on success, with a length', async () => {
    const res = await t.app.inject({ url: url('business.directory', { search: 'pizz' }) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // tRPC's own handler streams its reply (chunked); the plain path sends one string.
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const expected = await callerFor(t.deps, null).business.directory({ search: 'pizz' });
    expect(res.body).toBe(JSON.stringify({ result: { data: expected } }));
    expect(expected.map((card) => card.title)).toEqual(['Pizzeria Roma']);
  });

  it("writes the directory from its cards' kept JSON, a signed-in user's favourite included", async () => {
    await setFavorite(t.deps, cast.owner.actor, { businessId: pizzeriaId, favorite: true });
    const res = await t.app.inject({ url: url('business.directory'), headers: bearer(cast.owner) });
    expect(res.statusCode).toBe(200);
    const expected = await callerFor(t.deps, cast.owner).business.directory();
    expect(res.body).toBe(JSON.stringify({ result: { data: expected } }));
    expect(expected.map((card) => [card.title, card.isFavorite])).toEqual([
      ['Cykelverkstan', false],
      ['Pizzeria Roma', true],
    ]);
    await setFavorite(t.deps, cast.owner.actor, { businessId: pizzeriaId, favorite: false });
  });

  it('answers a batch as the client sends it, as the session user', async () => {
    const res = await t.app.inject({
      url: url('business.directory,users.me,home.suggestionBox', { 0: { search: 'cykel' } }, true),
      headers: bearer(cast.owner),
    });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const [directory, me, box] = res.json<[{ result: { data: { title: string }[] } }, { result: { data: { _id: string } } }, unknown]>();
    expect(directory.result.data.map((card) => card.title)).toEqual(['Cykelverkstan']);
    expect(me.result.data._id).toBe(cast.owner.id);
    expect(box).toEqual({ result: { data: await callerFor(t.deps, null).home.suggestionBox() } });
  });

  it('leaves every error to tRPC: its status and error shape', async () => {
    const missing = await t.app.inject({ url: url('business.byId', { id: 'nope-nope-nope' }) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { data: { code: 'NOT_FOUND', httpStatus: 404 } } });

    const notAdmin = await t.app.inject({ url: url('users.list'), headers: bearer(cast.owner) });
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json()).toMatchObject({ error: { data: { code: 'FORBIDDEN' } } });

    const badInput = await t.app.inject({ url: url('business.directory', { search: 5 }) });
    expect(badInput.statusCode).toBe(400);
    expect(badInput.json()).toMatchObject({ error: { data: { key: 'invalidInput' } } });

    const notJson = await t.app.inject({ url: '/trpc/business.directory?input=%7Bnot-json' });
    expect(notJson.statusCode).toBe(400);

    const mutation = await t.app.inject({ url: url('business.rate', { id: pizzeriaId, rate: 5 }) });
    expect(mutation.statusCode).toBe(405);

    const unknown = await t.app.inject({ url: url('business.nothing') });
    expect(unknown.statusCode).toBe(404);

    // One failing call in a batch: tRPC's multi-status answer, each call in its place.
    const mixed = await t.app.inject({ url: url('home.suggestionBox,business.byId', { 1: { id: 'nope-nope-nope' } }, true) });
    expect(mixed.statusCode).toBe(207);
    const [ok, failed] = mixed.json<[unknown, { error: { data: { code: string } } }]>();
    expect(ok).toEqual({ result: { data: await callerFor(t.deps, null).home.suggestionBox() } });
    expect(failed.error.data.code).toBe('NOT_FOUND');
  });
});
