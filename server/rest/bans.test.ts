import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modLog, users } from '../../db/schema';
import { bearer, createCast, createTestApp, type TestContext } from '../test/helpers';

// Issue 29 item 10: a ban has a reason, the log keeps it, and the banned person reads it at
// login and keeps the GDPR rights (export, deletion) through a restricted session. Both doors.

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  t.deps.limits.reset();
  cast = await createCast(t.db);
});

const row = (id: string) => t.db.select().from(users).where(eq(users.id, id)).get();
const logReason = (id: string) =>
  t.db
    .select({ reason: modLog.reason })
    .from(modLog)
    .where(and(eq(modLog.targetId, id), eq(modLog.action, 'ban')))
    .get()?.reason;
const sessionCookie = (setCookie: string | string[] | undefined) => {
  const first = [setCookie ?? []].flat().find((c) => c.startsWith('session='));
  return first?.split(';')[0];
};
const trpc = (path: string, headers: Record<string, string>, input: object) =>
  t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(input) });

describe('banning with a reason', () => {
  it('stores the reason and logs it (tRPC users.setFlags); unbanning clears it', async () => {
    const ban = await trpc('users.setFlags', bearer(cast.admin), { userId: cast.owner.id, isBanned: true, banReason: 'Hot mot andra användare' });
    expect(ban.statusCode).toBe(200);
    expect(row(cast.owner.id)).toMatchObject({ isBanned: true, banReason: 'Hot mot andra användare' });
    expect(logReason(cast.owner.id)).toBe('Hot mot andra användare');
    expect((await trpc('users.setFlags', bearer(cast.admin), { userId: cast.owner.id, isBanned: false })).statusCode).toBe(200);
    expect(row(cast.owner.id)).toMatchObject({ isBanned: false, banReason: null });
  });

  it('stores the reason sent with the REST toggle, and refuses one over 500 characters (400)', async () => {
    const long = await t.app.inject({
      method: 'PUT',
      url: `/api/users/update/${cast.other.id}`,
      headers: bearer(cast.admin),
      payload: { isBanned: true, banReason: 'x'.repeat(501) },
    });
    expect(long.statusCode).toBe(400);
    expect(row(cast.other.id)?.isBanned).toBe(false);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/update/${cast.other.id}`,
      headers: bearer(cast.admin),
      payload: { isBanned: true, banReason: 'Spam' },
    });
    expect(res.statusCode).toBe(200);
    expect(row(cast.other.id)).toMatchObject({ isBanned: true, banReason: 'Spam' });
    expect(logReason(cast.other.id)).toBe('Spam');
  });
});

describe('a banned person at login', () => {
  beforeEach(async () => {
    await trpc('users.setFlags', bearer(cast.admin), { userId: cast.owner.id, isBanned: true, banReason: 'Falska recensioner' });
  });

  it('REST: 403 with the reason and a restricted session that may export and delete, nothing else', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: cast.owner.email, password: cast.owner.password } });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ message: 'Your account has been banned.', banReason: 'Falska recensioner' });
    expect(login.json().token).toBeUndefined();
    const cookie = sessionCookie(login.headers['set-cookie']);
    expect(cookie).toBeDefined();
    const headers = { cookie: cookie!, 'sec-fetch-site': 'same-origin' };
    expect((await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers })).json().user).toMatchObject({ isBanned: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers })).statusCode).toBe(200);
    const edit = await t.app.inject({ method: 'PUT', url: `/api/users/update/${cast.owner.id}`, headers, payload: { firstName: 'Ny', lastName: 'Namn' } });
    expect(edit.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/deleteUser/${cast.owner.id}`, headers })).statusCode).toBe(200);
    expect(row(cast.owner.id)).toBeUndefined();
  });

  it('tRPC: FORBIDDEN `banned` with the reason in data.banReason, and the restricted cookie', async () => {
    const login = await trpc('users.login', {}, { email: cast.owner.email, password: cast.owner.password });
    expect(login.statusCode).toBe(403);
    expect(login.json().error.data).toMatchObject({ key: 'banned', banReason: 'Falska recensioner' });
    const cookie = sessionCookie(login.headers['set-cookie']);
    expect(cookie).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: '/trpc/users.me', headers: { cookie: cookie! } })).json().result.data).toMatchObject({
      _id: cast.owner.id,
      isBanned: true,
    });
  });

  it('a wrong password says nothing of the ban and opens no session', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: cast.owner.email, password: 'fel-lösenord-1' } });
    expect(login.statusCode).toBe(401);
    expect(JSON.stringify(login.json())).not.toContain('Falska');
    expect(sessionCookie(login.headers['set-cookie'])).toBeUndefined();
  });
});
