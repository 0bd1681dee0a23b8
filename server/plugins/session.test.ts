import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCast, createTestApp, type TestContext } from '../test/helpers';
import { insertBusiness } from '../test/comment-fixtures';
import { bearerTokenOf } from './session';
import { SHARED_PUBLIC } from './shared-cache';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-session-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html lang="sv"><div id="root"></div></html>');
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ env: { RATE_LIMITS: '0' }, clientDir });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Sessionsbutiken');
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('the session of a request', () => {
  it('reads a bearer token whatever the case of the scheme', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const me = await t.app.inject({ url: '/trpc/users.me', headers: { authorization: `${scheme} ${cast.owner.token}` } });
      expect(me.json().result.data?._id, scheme).toBe(cast.owner.id);
      const check = await t.app.inject({ url: '/api/users/auth/check', headers: { authorization: `${scheme} ${cast.owner.token}` } });
      expect(check.statusCode, scheme).toBe(200);
    }
    // A bearer token is never sent by a browser on its own, whatever its case: no same-origin check.
    const fromElsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { authorization: `bearer ${cast.owner.token}`, origin: 'https://other.example' },
    });
    expect(fromElsewhere.statusCode).toBe(404);
    const withCookie = await t.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { authorization: `bearer ${cast.owner.token}`, cookie: `session =${cast.owner.token}`, origin: 'https://other.example' },
    });
    expect(withCookie.statusCode).toBe(403);
    expect(bearerTokenOf('bEaReR \tabc.def ')).toBe('abc.def');
    expect(bearerTokenOf('Basic abc')).toBeNull();
    expect(bearerTokenOf('Bearerabc')).toBeNull();
  });

  it('marks replies built for a signed-in user private, no-store, and leaves visitors and files alone', async () => {
    const cookie = `session=${cast.owner.token}`;
    const rest = await t.app.inject({ url: `/api/comment/${shop}`, headers: { cookie } });
    expect(rest.headers['cache-control']).toBe('private, no-store');
    expect(String(rest.headers.vary).toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['cookie', 'authorization']));
    const byBearer = await t.app.inject({ url: '/api/users/auth/check', headers: bearer(cast.owner) });
    expect(byBearer.headers['cache-control']).toBe('private, no-store');
    // A plain tRPC query (answered in a preHandler) and one through tRPC's own handler.
    const plain = await t.app.inject({ url: '/trpc/users.me', headers: { cookie } });
    expect(plain.headers['cache-control']).toBe('private, no-store');
    const streamed = await t.app.inject({ url: '/trpc/users.me', headers: { cookie, 'trpc-accept': 'application/jsonl' } });
    expect(streamed.headers['cache-control']).toBe('private, no-store');
    const page = await t.app.inject({ url: '/about', headers: { cookie } });
    expect(page.headers['cache-control']).toBe('private, no-store');
    const mutation = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.logout',
      headers: { cookie: `session=${cast.admin.token}`, origin: 'http://localhost:8000', 'content-type': 'application/json' },
    });
    expect(mutation.statusCode).toBe(200);
    expect(mutation.headers['cache-control']).toBe('private, no-store');

    // Signing in builds a reply for a user too: it sets the session cookie.
    const login = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.login',
      headers: { origin: 'http://localhost:8000', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: cast.other.email, password: cast.other.password }),
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['set-cookie']).toBeTruthy();
    expect(login.headers['cache-control']).toBe('private, no-store');

    // A visitor's reply is everyone's: shared caches may keep it seconds, one copy per Cookie,
    // Authorization and encoding (the signed-in replies above vary by the same headers).
    const visitor = await t.app.inject(`/api/comment/${shop}`);
    expect(visitor.headers['cache-control']).toBe(SHARED_PUBLIC);
    expect(String(visitor.headers.vary).toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['cookie', 'authorization', 'accept-encoding']));
    const visitorPage = await t.app.inject('/about');
    expect(visitorPage.headers['cache-control']).toBe(SHARED_PUBLIC);
    const missing = await t.app.inject('/api/comment/no-such-business');
    expect(missing.headers['cache-control']).not.toContain('public');
    const asset = await t.app.inject({ url: '/assets/app-abc123.js', headers: { cookie } });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
