import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { imageFilesSettled } from '../services/comments/images';
import { bearer, createCast, createTestApp, createTestUser, type TestContext, type TestUser, pngForm } from '../test/helpers';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  t.deps.limits.reset();
  // Earlier tests ban, demote and delete; every test starts with its own five actors.
  cast = await createCast(t.db);
});

type Who = 'visitor' | 'owner' | 'other' | 'banned' | 'admin';
const who: Who[] = ['visitor', 'owner', 'other', 'banned', 'admin'];
const auth = (w: Who) => (w === 'visitor' ? {} : bearer(cast[w]));

function call(w: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: auth(w), ...(payload ? { payload } : {}) });
}

async function statuses(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: (w: Who) => string, payload?: (w: Who) => object) {
  const out: Partial<Record<Who, number>> = {};
  for (const w of who) out[w] = (await call(w, method, url(w), payload?.(w))).statusCode;
  return out;
}

const row = (id: string) => t.db.select().from(users).where(eq(users.id, id)).get();
const sessionCount = (id: string) => t.db.select().from(sessions).where(eq(sessions.userId, id)).all().length;

const png = (color: string) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
    .png()
    .toBuffer();

const SECRET = /password|hash|token|confirmation/i;

describe('POST /api/users/logIn as each actor', () => {
  it('lets everyone in with their own credentials except the banned user', async () => {
    const out: Partial<Record<Who, number>> = {};
    for (const w of ['owner', 'other', 'banned', 'admin'] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: cast[w].email, password: cast[w].password } });
      out[w] = res.statusCode;
      if (res.statusCode === 200) {
        expect(res.json().userData._id).toBe(cast[w].id);
        expect(Object.keys(res.json().userData).some((k) => SECRET.test(k))).toBe(false);
      }
    }
    expect(out).toEqual({ owner: 200, other: 200, banned: 403, admin: 200 });
  });
});

describe('GET /api/users/auth/check', () => {
  it('answers the signed-in user (banned too, so the client can show it) and 401 for a visitor', async () => {
    expect(await statuses('GET', () => '/api/users/auth/check')).toEqual({ visitor: 401, owner: 200, other: 200, banned: 200, admin: 200 });
    const res = await call('banned', 'GET', '/api/users/auth/check');
    expect(res.json().user).toMatchObject({ _id: cast.banned.id, isBanned: true });
  });
});

describe('GET /api/users', () => {
  it('lists users for admins only, without secrets', async () => {
    expect(await statuses('GET', () => '/api/users')).toEqual({ visitor: 401, owner: 403, other: 403, banned: 403, admin: 200 });
    const list = (await call('admin', 'GET', '/api/users')).json<Array<Record<string, unknown>>>();
    expect(list.map((u) => u._id)).toEqual(expect.arrayContaining([cast.owner.id, cast.admin.id, cast.banned.id]));
    for (const u of list) expect(Object.keys(u).filter((k) => SECRET.test(k))).toEqual([]);
    expect(list.find((u) => u._id === cast.banned.id)).toMatchObject({ isBanned: true, isAdmin: false });
  });
});

describe('GET /api/users/{id}', () => {
  it('shows a user to themself and to admins', async () => {
    expect(await statuses('GET', () => `/api/users/${cast.owner.id}`)).toEqual({ visitor: 401, owner: 200, other: 403, banned: 403, admin: 200 });
    const res = await call('owner', 'GET', `/api/users/${cast.owner.id}`);
    expect(res.json()).toMatchObject({ _id: cast.owner.id, firstName: 'Olle', lastName: 'Owner', email: cast.owner.email, image: null });
    expect((await call('banned', 'GET', `/api/users/${cast.banned.id}`)).statusCode).toBe(200);
  });

  it("answers 404 'no such user' for an unknown id", async () => {
    const res = await call('admin', 'GET', '/api/users/nobody-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('no such user');
  });
});

describe('PUT /api/users/update/{id}', () => {
  it('lets only the user change their names; admins change flags, not names', async () => {
    const payload = { firstName: 'Nytt', lastName: 'Namn' };
    const out = await statuses(
      'PUT',
      () => `/api/users/update/${cast.owner.id}`,
      () => payload,
    );
    expect(out).toEqual({ visitor: 401, owner: 200, other: 403, banned: 403, admin: 200 });
    expect(row(cast.owner.id)).toMatchObject({ firstName: 'Nytt', lastName: 'Namn' });

    const adminTry = await call('admin', 'PUT', `/api/users/update/${cast.owner.id}`, { firstName: 'Admin', lastName: 'Was Here' });
    expect(adminTry.json()).toMatchObject({ firstName: 'Nytt', lastName: 'Namn' });
  });

  it('ignores isAdmin, isBanned and any other user id sent by a normal user', async () => {
    const res = await call('owner', 'PUT', `/api/users/update/${cast.owner.id}`, {
      firstName: 'Olle',
      lastName: 'Owner',
      isAdmin: true,
      isBanned: false,
      userId: cast.other.id,
      _id: cast.other.id,
      email: 'stolen@example.com',
      emailConfirmed: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: cast.owner.id, isAdmin: false, email: cast.owner.email, emailConfirmed: true });
    expect(row(cast.owner.id)).toMatchObject({ isAdmin: false, email: cast.owner.email });
    expect(row(cast.other.id)).toMatchObject({ firstName: 'Ada', isAdmin: false });
  });

  it('refuses a banned user editing themself (403), even with a valid form', async () => {
    const res = await call('banned', 'PUT', `/api/users/update/${cast.banned.id}`, { firstName: 'Fri', lastName: 'Igen', isBanned: false });
    expect(res.statusCode).toBe(403);
    expect(row(cast.banned.id)).toMatchObject({ firstName: 'Bo', isBanned: true });
  });

  it('validates names with the profile messages', async () => {
    const res = await call('owner', 'PUT', `/api/users/update/${cast.owner.id}`, { firstName: '', lastName: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ firstName: 'Please Enter your first name', lastName: 'Name Too Short!' });
  });

  it('takes the profile form as multipart with an avatar, and removes the replaced avatar file', async () => {
    const first = await pngForm({ firstName: 'Olle', lastName: 'Bild', language: 'en' }, { image: await png('#ff0000') });
    const res1 = await t.app.inject({
      method: 'PUT',
      url: `/api/users/update/${cast.owner.id}`,
      headers: { ...bearer(cast.owner), ...first.headers },
      payload: first.payload,
    });
    expect(res1.statusCode).toBe(200);
    expect(res1.json()).toMatchObject({ lastName: 'Bild', language: 'en' });
    const firstFile = path.join(t.deps.paths.uploads, path.basename(res1.json().image));
    expect(existsSync(firstFile)).toBe(true);

    const second = await pngForm({ firstName: 'Olle', lastName: 'Bild' }, { image: await png('#0000ff') });
    const res2 = await t.app.inject({
      method: 'PUT',
      url: `/api/users/update/${cast.owner.id}`,
      headers: { ...bearer(cast.owner), ...second.headers },
      payload: second.payload,
    });
    expect(res2.json().image).not.toBe(res1.json().image);
    await imageFilesSettled(t.deps);
    expect(existsSync(firstFile)).toBe(false);
  });

  it("takes an imageId from POST /api/images, but not someone else's", async () => {
    const upload = async (u: TestUser) => {
      const form = await pngForm({ kind: 'avatar' }, { image: await png(u === cast.owner ? '#00ff00' : '#ffff00') });
      return (await t.app.inject({ method: 'POST', url: '/api/images', headers: { ...bearer(u), ...form.headers }, payload: form.payload })).json()
        .id as string;
    };
    const mine = await upload(cast.owner);
    const theirs = await upload(cast.other);
    const ok = await call('owner', 'PUT', `/api/users/update/${cast.owner.id}`, { firstName: 'Olle', lastName: 'Owner', imageId: mine });
    expect(ok.json().image).toMatch(/^\/uploads\//);
    const stolen = await call('owner', 'PUT', `/api/users/update/${cast.owner.id}`, { firstName: 'Olle', lastName: 'Owner', imageId: theirs });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toBe('Unknown image.');

    // imageId null removes the avatar, and its file with it.
    const file = path.join(t.deps.paths.uploads, path.basename(ok.json().image));
    const removed = await call('owner', 'PUT', `/api/users/update/${cast.owner.id}`, { imageId: null });
    expect(removed.json()).toMatchObject({ firstName: 'Olle', image: null });
    await imageFilesSettled(t.deps);
    expect(existsSync(file)).toBe(false);
  });

  describe('admin flags (the whole user object is sent, one flag flipped)', () => {
    it('bans an admin: admin status goes, every session ends, they cannot log in', async () => {
      const second = await createTestUser(t.db, { isAdmin: true, firstName: 'Andra' });
      const whole = (await call('admin', 'GET', `/api/users/${second.id}`)).json();
      const res = await call('admin', 'PUT', `/api/users/update/${second.id}`, { ...whole, isBanned: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ isBanned: true, isAdmin: false });
      expect(sessionCount(second.id)).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers: bearer(second) })).statusCode).toBe(401);
      const login = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: second.email, password: second.password } });
      expect(login.statusCode).toBe(403);
    });

    it("refuses to make a banned user admin with 'Cannot change admin status of a banned user.'", async () => {
      const whole = (await call('admin', 'GET', `/api/users/${cast.banned.id}`)).json();
      const res = await call('admin', 'PUT', `/api/users/update/${cast.banned.id}`, { ...whole, isAdmin: true });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Cannot change admin status of a banned user.');
      expect(row(cast.banned.id)).toMatchObject({ isAdmin: false, isBanned: true });
    });

    it('unbans, grants and revokes admin', async () => {
      const unban = await call('admin', 'PUT', `/api/users/update/${cast.banned.id}`, { isBanned: false });
      expect(unban.json()).toMatchObject({ isBanned: false, isAdmin: false });
      const grant = await call('admin', 'PUT', `/api/users/update/${cast.other.id}`, { isAdmin: true });
      expect(grant.json()).toMatchObject({ isAdmin: true });
      const revoke = await call('admin', 'PUT', `/api/users/update/${cast.other.id}`, { isAdmin: false });
      expect(revoke.json()).toMatchObject({ isAdmin: false });
    });

    it('accepts the flags as multipart text too', async () => {
      const form = await pngForm({ isBanned: 'true' });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/users/update/${cast.other.id}`,
        headers: { ...bearer(cast.admin), ...form.headers },
        payload: form.payload,
      });
      expect(res.json()).toMatchObject({ isBanned: true });
    });

    it('does not let an admin ban themself or remove the last admin', async () => {
      const onlyAdmins = t.db.select().from(users).where(eq(users.isAdmin, true)).all();
      for (const a of onlyAdmins) if (a.id !== cast.admin.id) t.db.update(users).set({ isAdmin: false }).where(eq(users.id, a.id)).run();

      const ban = await call('admin', 'PUT', `/api/users/update/${cast.admin.id}`, { isBanned: true });
      expect(ban.statusCode).toBe(403);
      expect(ban.json().message).toBe('You cannot ban yourself.');
      const demote = await call('admin', 'PUT', `/api/users/update/${cast.admin.id}`, { isAdmin: false });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().message).toBe('The last administrator cannot be deleted, demoted or banned.');
      const del = await call('admin', 'DELETE', `/api/users/deleteUser/${cast.admin.id}`);
      expect(del.statusCode).toBe(409);
      expect(row(cast.admin.id)).toMatchObject({ isAdmin: true, isBanned: false });

      // With a second admin, stepping down is fine.
      await call('admin', 'PUT', `/api/users/update/${cast.other.id}`, { isAdmin: true });
      expect((await call('admin', 'PUT', `/api/users/update/${cast.admin.id}`, { isAdmin: false })).json()).toMatchObject({ isAdmin: false });
    });

    it("answers 404 for an unknown user and 403 for a normal user's flags on someone else", async () => {
      expect((await call('admin', 'PUT', '/api/users/update/nobody-here', { isBanned: true })).statusCode).toBe(404);
      expect((await call('owner', 'PUT', `/api/users/update/${cast.other.id}`, { isBanned: true })).statusCode).toBe(403);
      expect(row(cast.other.id)?.isBanned).toBe(false);
    });
  });
});

describe('DELETE /api/users/deleteUser/{id}', () => {
  it("refuses visitors, other users and banned users on someone else's account", async () => {
    const out: Partial<Record<Who, number>> = {};
    for (const w of ['visitor', 'other', 'banned'] as const) out[w] = (await call(w, 'DELETE', `/api/users/deleteUser/${cast.owner.id}`)).statusCode;
    expect(out).toEqual({ visitor: 401, other: 403, banned: 403 });
    expect(row(cast.owner.id)).toBeDefined();
  });

  it('lets a user delete their own account, banned ones included', async () => {
    for (const u of [cast.owner, cast.banned]) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/users/deleteUser/${u.id}`, headers: bearer(u) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect(row(u.id)).toBeUndefined();
      expect((await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: u.email, password: u.password } })).json().message).toBe(
        'invalid',
      );
    }
  });

  it('lets an admin delete someone else; 404 for an unknown id', async () => {
    expect((await call('admin', 'DELETE', `/api/users/deleteUser/${cast.other.id}`)).statusCode).toBe(200);
    expect(row(cast.other.id)).toBeUndefined();
    expect((await call('admin', 'DELETE', `/api/users/deleteUser/${cast.other.id}`)).statusCode).toBe(404);
  });
});

describe('POST /api/users/logOut', () => {
  it('ends only the calling session, for every signed-in actor including banned', async () => {
    expect(await statuses('POST', () => '/api/users/logOut')).toEqual({ visitor: 401, owner: 200, other: 200, banned: 200, admin: 200 });
    for (const w of ['owner', 'banned'] as const) expect(sessionCount(cast[w].id)).toBe(0);
  });
});

describe('GET /api/users/me/export', () => {
  it('downloads the signed-in user’s own data as a JSON file, banned users too', async () => {
    expect(await statuses('GET', () => '/api/users/me/export')).toEqual({ visitor: 401, owner: 200, other: 200, banned: 200, admin: 200 });
    const res = await call('owner', 'GET', '/api/users/me/export');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="recensera-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = res.json();
    expect(data.profile).toMatchObject({ _id: cast.owner.id, email: cast.owner.email });
    expect(data).toMatchObject({ favorites: [], businessRatings: [], comments: [], replies: [], commentRatings: [], replyRatings: [] });
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|secret|tokenHash|\$argon2/);
  });
});

describe('Google routes without Google configured', () => {
  it('answers 404 for the start and for googleLogIn', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/users/google' });
    expect(start.statusCode).toBe(404);
    expect(start.json().message).toBe('Google sign-in is not configured.');
    const login = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: { id_token: 'x.y.z' } });
    expect(login.statusCode).toBe(404);
  });
});

describe('cookie-authenticated writes from another site', () => {
  it('are refused (403) so a cross-site form cannot act for a user', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/deleteUser/${cast.owner.id}`,
      headers: { cookie: `session=${cast.owner.token}`, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    expect(row(cast.owner.id)).toBeDefined();
  });
});
