import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCast, createTestApp, createTestUser, type TestContext } from '../test/helpers';

// Issue 29 item 13: user management searches by name or e-mail and pages, through both doors;
// GET /api/users without parameters still answers every account (the documented client).

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.db);
  for (const [firstName, lastName, email] of [
    ['Karin', 'Sökström', 'karin@example.se'],
    ['Per', 'Andersson', 'per.sok@example.se'],
    ['Lisa', 'Lund', 'lisa_100%@example.se'],
  ])
    await createTestUser(t.db, { firstName, lastName, email });
});
afterAll(() => t.close());

const ids = (list: { email: string }[]) => list.map((u) => u.email);
const rest = (query: string, who = cast.admin) => t.app.inject({ method: 'GET', url: `/api/users${query}`, headers: bearer(who) });
const trpc = (input: object, who = cast.admin) =>
  t.app.inject({ method: 'GET', url: `/trpc/users.page?input=${encodeURIComponent(JSON.stringify(input))}`, headers: bearer(who) });

describe('user management search and paging', () => {
  it('finds any part of a name or an e-mail, case-insensitively (REST and tRPC)', async () => {
    expect(ids((await rest(`?q=${encodeURIComponent('sök')}`)).json())).toEqual(['karin@example.se']);
    expect(ids((await rest('?q=sok')).json())).toEqual(['per.sok@example.se']);
    expect(ids((await rest('?q=KARIN')).json())).toEqual(['karin@example.se']);
    expect(ids((await trpc({ q: 'Per Anders' })).json().result.data.items)).toEqual(['per.sok@example.se']);
    // % and _ are letters here, not wildcards.
    expect(ids((await rest(`?q=${encodeURIComponent('_100%')}`)).json())).toEqual(['lisa_100%@example.se']);
    expect((await rest(`?q=${encodeURIComponent('%')}`)).json()).toHaveLength(1);
  });

  it('pages oldest first; without parameters the list is whole', async () => {
    const all = ids((await rest('')).json());
    expect(all).toHaveLength(7);
    const first = await rest('?limit=3');
    expect(ids(first.json())).toEqual(all.slice(0, 3));
    const second = await rest(`?limit=3&cursor=${String(first.headers['x-next-cursor'])}`);
    expect(ids(second.json())).toEqual(all.slice(3, 6));
    const third = (await trpc({ limit: 3, cursor: second.headers['x-next-cursor'] })).json().result.data;
    expect(third.nextCursor).toBeNull();
    expect(ids(third.items)).toEqual(all.slice(6));
    expect((await rest('?limit=0')).statusCode).toBe(400);
  });

  it('answers admins only', async () => {
    expect((await rest('?q=a', cast.owner)).statusCode).toBe(403);
    expect((await trpc({ q: 'a' }, cast.owner)).statusCode).toBe(403);
  });
});
