import { eq } from 'drizzle-orm';
import { TRPCError } from '@trpc/server';
import type { ZodError } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../../db/schema';
import { callerFor, createCast, createTestApp, type TestContext } from '../../test/helpers';

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

type Who = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
const who: Who[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
const as = (w: Who) => callerFor(t.deps, w === 'visitor' ? null : cast[w]);

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof TRPCError) return e.code;
    throw e;
  }
}

/** Tries `run` as each of the five actors and returns what happened to each. */
async function matrix(run: (caller: ReturnType<typeof as>, w: Who) => Promise<unknown>, actors: Who[] = who) {
  const out: Partial<Record<Who, string>> = {};
  for (const w of actors) out[w] = await outcome(run(as(w), w));
  return out;
}

const row = (id: string) => t.db.select().from(users).where(eq(users.id, id)).get();

describe('users.me and users.config', () => {
  it('answer everyone; me is null for a visitor and yourself otherwise', async () => {
    expect(await matrix((c) => c.users.config())).toEqual({ visitor: 'ok', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' });
    expect(await as('visitor').users.config()).toEqual({ googleEnabled: false });
    expect(await as('visitor').users.me()).toBeNull();
    for (const w of ['owner', 'banned', 'admin'] as const) expect((await as(w).users.me())?._id).toBe(cast[w].id);
  });
});

describe('users.login', () => {
  it('lets each actor in with their own credentials, except the banned one', async () => {
    const out = await matrix((c, w) => c.users.login({ email: cast[w === 'visitor' ? 'owner' : w].email, password: 'Secret-pass-123' }));
    expect(out).toEqual({ visitor: 'ok', owner: 'ok', other: 'ok', banned: 'FORBIDDEN', admin: 'ok' });
  });

  it('maps the failures to their keys', async () => {
    const c = as('visitor');
    await expect(c.users.login({ email: 'nobody@example.com', password: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'invalid' });
    await expect(c.users.login({ email: cast.owner.email, password: 'nope' })).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'wrong password!' });
    t.db.update(users).set({ emailConfirmed: false }).where(eq(users.id, cast.other.id)).run();
    await expect(c.users.login({ email: cast.other.email, password: 'Secret-pass-123' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Please confirm your email before logging in',
    });
  });

  it('over HTTP sets the httpOnly session cookie and returns no token to script', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/trpc/users.login', payload: { email: cast.owner.email, password: 'Secret-pass-123' } });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^session=[^;]+;.*HttpOnly.*SameSite=Lax/i);
    const data = res.json().result.data;
    expect(data).toEqual({ user: expect.objectContaining({ _id: cast.owner.id }) });
    expect(JSON.stringify(data)).not.toMatch(/token/i);
  });
});

describe('users.logout', () => {
  it('needs a session (banned users may log out)', async () => {
    expect(await matrix((c) => c.users.logout())).toEqual({ visitor: 'UNAUTHORIZED', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' });
  });

  it('over HTTP ends the session row and clears the cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.logout',
      headers: { cookie: `session=${cast.owner.token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^session=;/);
    expect(t.db.select().from(sessions).where(eq(sessions.userId, cast.owner.id)).all()).toEqual([]);
  });
});

describe('public account procedures', () => {
  it('resendConfirmation, forgotPassword, confirmEmail and resetPassword behave the same for every actor', async () => {
    // Every call here comes from one IP; the limits are not what this test is about.
    const unlimited = <T>(run: () => Promise<T>) => {
      t.deps.limits.reset();
      return run();
    };
    expect(await matrix((c) => unlimited(() => c.users.resendConfirmation({ email: 'somebody@example.com' })))).toEqual({
      visitor: 'ok',
      owner: 'ok',
      other: 'ok',
      banned: 'ok',
      admin: 'ok',
    });
    expect(await matrix((c) => unlimited(() => c.users.forgotPassword({ email: 'nobody@example.com' })))).toEqual({
      visitor: 'ok',
      owner: 'ok',
      other: 'ok',
      banned: 'ok',
      admin: 'ok',
    });
    expect(await matrix((c) => c.users.confirmEmail({ token: 'made-up' }))).toEqual({
      visitor: 'BAD_REQUEST',
      owner: 'BAD_REQUEST',
      other: 'BAD_REQUEST',
      banned: 'BAD_REQUEST',
      admin: 'BAD_REQUEST',
    });
    const input = { token: 'made-up', password: 'Long-enough-1', confirmPassword: 'Long-enough-1' };
    expect(await matrix((c) => c.users.resetPassword(input))).toEqual({
      visitor: 'BAD_REQUEST',
      owner: 'BAD_REQUEST',
      other: 'BAD_REQUEST',
      banned: 'BAD_REQUEST',
      admin: 'BAD_REQUEST',
    });
  });

  it('googleCallback is not found while Google is not configured', async () => {
    expect(await matrix((c) => c.users.googleCallback({ code: 'c', state: 's' }))).toEqual({
      visitor: 'NOT_FOUND',
      owner: 'NOT_FOUND',
      other: 'NOT_FOUND',
      banned: 'NOT_FOUND',
      admin: 'NOT_FOUND',
    });
  });
});

describe('users.list and users.byId', () => {
  it('list is for admins only', async () => {
    expect(await matrix((c) => c.users.list())).toEqual({ visitor: 'UNAUTHORIZED', owner: 'FORBIDDEN', other: 'FORBIDDEN', banned: 'FORBIDDEN', admin: 'ok' });
  });

  it('byId shows yourself, or anyone to an admin', async () => {
    expect(await matrix((c) => c.users.byId({ id: cast.owner.id }))).toEqual({
      visitor: 'UNAUTHORIZED',
      owner: 'ok',
      other: 'FORBIDDEN',
      banned: 'FORBIDDEN',
      admin: 'ok',
    });
    await expect(as('admin').users.byId({ id: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'no such user' });
  });
});

describe('users.updateProfile', () => {
  it('changes only the caller, and only active users may', async () => {
    const out = await matrix((c, w) => c.users.updateProfile({ firstName: `Ny ${w}`, lastName: 'Efternamn', language: 'en' }));
    expect(out).toEqual({ visitor: 'UNAUTHORIZED', owner: 'ok', other: 'ok', banned: 'FORBIDDEN', admin: 'ok' });
    expect(row(cast.owner.id)).toMatchObject({ firstName: 'Ny owner', language: 'en' });
    expect(row(cast.other.id)).toMatchObject({ firstName: 'Ny other' });
    expect(row(cast.banned.id)).toMatchObject({ firstName: 'Bo' });
  });

  it('ignores a userId or isAdmin smuggled into the input', async () => {
    const smuggled = { firstName: 'Olle', lastName: 'Owner', userId: cast.other.id, isAdmin: true } as unknown as { firstName: string; lastName: string };
    const user = await as('owner').users.updateProfile(smuggled);
    expect(user).toMatchObject({ _id: cast.owner.id, isAdmin: false });
    expect(row(cast.other.id)).toMatchObject({ firstName: 'Ada', isAdmin: false });
  });

  it('validates with the profile messages', async () => {
    const error = await as('owner')
      .users.updateProfile({ firstName: '', lastName: 'x'.repeat(51) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
    // What forms and REST show: the first message per field.
    const first: Record<string, string> = {};
    for (const issue of ((error as TRPCError).cause as ZodError).issues) first[issue.path.join('.')] ??= issue.message;
    expect(first).toEqual({ firstName: 'firstNameRequired', lastName: 'nameTooLong' });
  });
});

describe('users.setFlags', () => {
  it('is for admins only', async () => {
    expect(await matrix((c) => c.users.setFlags({ userId: cast.other.id, isBanned: true }), ['visitor', 'owner', 'banned'])).toEqual({
      visitor: 'UNAUTHORIZED',
      owner: 'FORBIDDEN',
      banned: 'FORBIDDEN',
    });
    expect(row(cast.other.id)?.isBanned).toBe(false);
    expect(await as('admin').users.setFlags({ userId: cast.other.id, isBanned: true })).toMatchObject({ isBanned: true });
  });

  it("keeps docs/product.md §2's rules", async () => {
    const admin = as('admin');
    await expect(admin.users.setFlags({ userId: cast.banned.id, isAdmin: true })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Cannot change admin status of a banned user.',
    });
    await expect(admin.users.setFlags({ userId: cast.admin.id, isBanned: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await admin.users.setFlags({ userId: cast.owner.id, isAdmin: true });
    // Banning an admin drops admin and ends their sessions.
    expect(await admin.users.setFlags({ userId: cast.owner.id, isBanned: true, isAdmin: true })).toMatchObject({ isBanned: true, isAdmin: false });
    expect(t.db.select().from(sessions).where(eq(sessions.userId, cast.owner.id)).all()).toEqual([]);
  });
});

describe('users.delete', () => {
  it('deletes yourself (banned too) or, for admins, anyone', async () => {
    expect(await matrix((c) => c.users.delete({ userId: cast.owner.id }), ['visitor', 'other', 'banned'])).toEqual({
      visitor: 'UNAUTHORIZED',
      other: 'FORBIDDEN',
      banned: 'FORBIDDEN',
    });
    expect(row(cast.owner.id)).toBeDefined();
    expect(await as('owner').users.delete({ userId: cast.owner.id })).toEqual({ success: true });
    expect(await as('banned').users.delete({ userId: cast.banned.id })).toEqual({ success: true });
    expect(await as('admin').users.delete({ userId: cast.other.id })).toEqual({ success: true });
    for (const u of [cast.owner, cast.banned, cast.other]) expect(row(u.id)).toBeUndefined();
  });
});

describe('users.exportData', () => {
  it('gives each signed-in user their own data (banned too), visitors nothing', async () => {
    expect(await matrix((c) => c.users.exportData())).toEqual({ visitor: 'UNAUTHORIZED', owner: 'ok', other: 'ok', banned: 'ok', admin: 'ok' });
    expect((await as('other').users.exportData()).profile._id).toBe(cast.other.id);
  });
});
