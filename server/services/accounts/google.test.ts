import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailTokens, oauthAccounts, users } from '../../../db/schema';
import { bearer, createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { createSession } from './sessions';

const CLIENT_ID = 'recensera-test-client';
let provider: OAuth2Server;
let t: TestContext;
/** Claims the mock provider puts into the tokens it issues next. */
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  provider.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, claims));
  t = await createTestApp({
    env: {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_ISSUER: provider.issuer.url as string,
      ADMIN_EMAILS: 'chef@example.se,chefin@example.se',
    },
  });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});
beforeEach(() => t.deps.limits.reset());

const cookieValue = (setCookie: string[], name: string) => {
  const line = setCookie.find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]) : undefined;
};
const setCookiesOf = (res: { headers: Record<string, unknown> }) => {
  const raw = res.headers['set-cookie'];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
};

/**
 * The browser's part of the redirect flow: start at our server, follow the redirect to the
 * provider (which "signs in" and redirects back with a code), then the /google-logIn page hands
 * code and state to users.googleCallback with the flow cookies.
 */
async function redirectFlow(options: { tamperState?: boolean; dropCookies?: boolean } = {}) {
  const start = await t.app.inject({ method: 'GET', url: '/api/users/google' });
  expect(start.statusCode).toBe(302);
  const setCookie = setCookiesOf(start);
  const state = cookieValue(setCookie, 'google_oauth_state') as string;
  const verifier = cookieValue(setCookie, 'google_code_verifier') as string;

  const atProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location') as string);
  expect(back.origin + back.pathname).toBe('http://localhost:8000/google-logIn');

  const cookie = options.dropCookies ? '' : `google_oauth_state=${state}; google_code_verifier=${verifier}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/trpc/users.googleCallback',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: { code: back.searchParams.get('code'), state: options.tamperState ? 'forged-state' : back.searchParams.get('state'), language: 'en' },
  });
  return { start, res };
}

const EVE_PASSWORD = 'Eves-own-pass-1';

const logIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email, password }, remoteAddress: '10.9.9.9' });

/** Eve registers someone else's address (REST, with an avatar-less form) and never confirms it. */
async function preRegister(email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { firstName: 'Eve', lastName: 'Angripare', email, password: EVE_PASSWORD, confirmPassword: EVE_PASSWORD },
  });
  expect(res.statusCode).toBe(201);
  const id = res.json().user._id as string;
  // A session Eve might hold (e.g. opened before the address was hers to lose) must end.
  const { token } = createSession(t.db, id);
  return { id, email, sessionToken: token };
}

/** Eve's password no longer works, her session is gone and her confirmation link does nothing. */
async function expectEveLockedOut(eve: { id: string; email: string; sessionToken: string }) {
  expect((await logIn(eve.email, EVE_PASSWORD)).statusCode).toBe(401);
  expect((await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers: { authorization: `Bearer ${eve.sessionToken}` } })).statusCode).toBe(401);
  expect(t.db.select().from(emailTokens).where(eq(emailTokens.userId, eve.id)).all()).toEqual([]);
  expect(t.db.select().from(users).where(eq(users.id, eve.id)).get()?.passwordHash).toBeNull();
}

describe('Google sign-in, redirect flow (authorization code + PKCE)', () => {
  it('starts with a 302 to the provider carrying S256 PKCE, state and our callback, and short-lived httpOnly cookies', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/users/google' });
    const location = new URL(start.headers.location as string);
    expect(location.origin).toBe(new URL(provider.issuer.url as string).origin);
    expect(location.pathname).toBe('/authorize');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'http://localhost:8000/google-logIn',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const setCookie = setCookiesOf(start);
    for (const name of ['google_oauth_state', 'google_code_verifier']) {
      const line = setCookie.find((c) => c.startsWith(`${name}=`)) as string;
      expect(line).toMatch(/Max-Age=600/);
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
    }
    expect(cookieValue(setCookie, 'google_oauth_state')).toBe(location.searchParams.get('state'));
  });

  it('creates a new, confirmed account from the ID token and signs it in', async () => {
    claims = { sub: 'google-sub-new', email: 'Nora.Ny@Example.se', email_verified: true, given_name: 'Nora', family_name: 'Ny' };
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(200);
    const user = res.json().result.data.user;
    expect(user).toMatchObject({ email: 'nora.ny@example.se', firstName: 'Nora', lastName: 'Ny', emailConfirmed: true, isGoogleLogin: true, language: 'en' });
    const setCookie = setCookiesOf(res);
    const session = cookieValue(setCookie, 'session') as string;
    expect(session).toBeTruthy();
    expect(setCookie.find((c) => c.startsWith('google_oauth_state='))).toMatch(/Expires=Thu, 01 Jan 1970/);

    const check = await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers: { cookie: `session=${session}` } });
    expect(check.json().user._id).toBe(user._id);
    expect(t.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, user._id)).all()).toEqual([
      expect.objectContaining({ issuer: provider.issuer.url, subject: 'google-sub-new' }),
    ]);

    // The same Google identity signs in to the same account next time.
    const again = await redirectFlow();
    expect(again.res.json().result.data.user._id).toBe(user._id);
  });

  it('links a verified e-mail to a confirmed account, keeping its password and names', async () => {
    const existing = await createTestUser(t.db, { email: 'linda@example.se', firstName: 'Linda' });
    claims = { sub: 'google-sub-linda', email: 'linda@example.se', email_verified: true, given_name: 'Someone', family_name: 'Else' };
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.user).toMatchObject({ _id: existing.id, firstName: 'Linda', emailConfirmed: true, isGoogleLogin: false });
    expect(t.db.select().from(oauthAccounts).where(eq(oauthAccounts.subject, 'google-sub-linda')).get()?.userId).toBe(existing.id);
    expect((await logIn('linda@example.se', existing.password)).statusCode).toBe(200);
  });

  it('takes an address someone pre-registered away from them: their password, names and sessions go (redirect flow)', async () => {
    const eve = await preRegister('offer@example.se');
    claims = { sub: 'google-sub-offer', email: 'offer@example.se', email_verified: true, given_name: 'Olga', family_name: 'Ägare' };
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.user).toMatchObject({
      _id: eve.id,
      firstName: 'Olga',
      lastName: 'Ägare',
      image: null,
      emailConfirmed: true,
      isGoogleLogin: true,
    });
    await expectEveLockedOut(eve);
  });

  it('does the same through POST /api/users/googleLogIn, and an ADMIN_EMAILS address becomes admin only for the Google owner', async () => {
    const eve = await preRegister('chefin@example.se');
    const idToken = await provider.issuer.buildToken({
      scopesOrTransform: (_header, p) =>
        Object.assign(p, { aud: CLIENT_ID, sub: 'google-sub-chef-rest', email: 'chefin@example.se', email_verified: true, name: 'Riktig Chef' }),
    });
    claims = {};
    const res = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: { id_token: idToken } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ _id: eve.id, firstName: 'Riktig', lastName: 'Chef', isAdmin: true, isGoogleLogin: true });
    await expectEveLockedOut(eve);
  });

  it('makes an ADMIN_EMAILS address admin when Google creates it', async () => {
    claims = { sub: 'google-sub-chef', email: 'chef@example.se', email_verified: true, name: 'Chef Chefsson' };
    const { res } = await redirectFlow();
    expect(res.json().result.data.user).toMatchObject({ isAdmin: true, firstName: 'Chef', lastName: 'Chefsson' });
  });

  it("never links an unverified e-mail to an existing account ('Log in failed due to missing user data or token')", async () => {
    const existing = await createTestUser(t.db, { email: 'victim@example.se' });
    claims = { sub: 'google-sub-attacker', email: 'victim@example.se', email_verified: false };
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Log in failed due to missing user data or token');
    expect(t.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, existing.id)).all()).toEqual([]);
  });

  it("refuses a forged state or missing flow cookies ('Log in failed')", async () => {
    claims = { sub: 'google-sub-x', email: 'x@example.se', email_verified: true };
    for (const options of [{ tamperState: true }, { dropCookies: true }]) {
      const { res } = await redirectFlow(options);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ message: 'Log in failed', data: { key: 'googleFailed' } });
    }
    expect(t.db.select().from(users).where(eq(users.email, 'x@example.se')).get()).toBeUndefined();
  });

  it('refuses a banned account (403 with the reason) but opens a restricted session: export and delete only', async () => {
    const banned = await createTestUser(t.db, { email: 'sparrad@example.se', isBanned: true });
    t.db.update(users).set({ banReason: 'Reklam i varje inlägg' }).where(eq(users.id, banned.id)).run();
    claims = { sub: 'google-sub-banned', email: banned.email, email_verified: true };
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('Your account has been banned.');
    expect(res.json().error.data).toMatchObject({ key: 'banned', banReason: 'Reklam i varje inlägg' });
    // No link is added to a banned account.
    expect(t.db.select().from(oauthAccounts).where(eq(oauthAccounts.subject, 'google-sub-banned')).get()).toBeUndefined();
    const session = cookieValue(setCookiesOf(res), 'session');
    expect(session).toBeTruthy();
    const cookie = `session=${session}`;
    const exported = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: { cookie } });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().profile.email).toBe('sparrad@example.se');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.updateProfile',
      headers: { cookie, origin: 'http://localhost:8000', 'content-type': 'application/json' },
      payload: { firstName: 'X', lastName: 'Y' },
    });
    expect(refused.statusCode).toBe(403);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.delete',
      headers: { cookie, origin: 'http://localhost:8000', 'content-type': 'application/json' },
      payload: { userId: banned.id },
    });
    expect(deleted.statusCode).toBe(200);
    expect(t.db.select().from(users).where(eq(users.id, banned.id)).get()).toBeUndefined();
  });

  it('a banned account linked to Google gets the same restricted session', async () => {
    claims = { sub: 'google-sub-later-banned', email: 'senare@example.se', email_verified: true, given_name: 'Sen', family_name: 'Are' };
    const first = await redirectFlow();
    expect(first.res.statusCode).toBe(200);
    const id = t.db.select().from(users).where(eq(users.email, 'senare@example.se')).get()!.id;
    t.db.update(users).set({ isBanned: true, banReason: null }).where(eq(users.id, id)).run();
    const { res } = await redirectFlow();
    expect(res.statusCode).toBe(403);
    expect(res.json().error.data).toMatchObject({ key: 'banned', banReason: null });
    expect(cookieValue(setCookiesOf(res), 'session')).toBeTruthy();
  });
});

describe('POST /api/users/googleLogIn', () => {
  const mint = (payload: Record<string, unknown>, expiresIn = 600) =>
    provider.issuer.buildToken({ expiresIn, scopesOrTransform: (_header, p) => Object.assign(p, payload) });

  it('answers a banned account 403 with the reason and a restricted session cookie, no bearer token', async () => {
    claims = {};
    const banned = await createTestUser(t.db, { email: 'rest-sparrad@example.se', isBanned: true });
    t.db.update(users).set({ banReason: 'Hot mot andra' }).where(eq(users.id, banned.id)).run();
    const idToken = await mint({ aud: CLIENT_ID, sub: 'google-sub-rest-banned', email: banned.email, email_verified: true });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: { id_token: idToken } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: 'Your account has been banned.', banReason: 'Hot mot andra' });
    expect(res.json().token).toBeUndefined();
    const session = cookieValue(setCookiesOf(res), 'session');
    const exported = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: { cookie: `session=${session}` } });
    expect(exported.statusCode).toBe(200);
  });

  it('signs in with a valid ID token and returns { user, token }', async () => {
    claims = {};
    const idToken = await mint({
      aud: CLIENT_ID,
      sub: 'google-sub-rest',
      email: 'rest@example.se',
      email_verified: true,
      given_name: 'Rest',
      family_name: 'Klient',
    });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: { id_token: idToken } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'rest@example.se', firstName: 'Rest', emailConfirmed: true });
    const check = await t.app.inject({ method: 'GET', url: '/api/users/auth/check', headers: bearer(body) });
    expect(check.json().user._id).toBe(body.user._id);
  });

  it('refuses a wrong audience, an expired token, a token from another issuer and garbage', async () => {
    const other = new OAuth2Server();
    await other.issuer.keys.generate('RS256');
    await other.start(0, '127.0.0.1');
    try {
      const base = { sub: 'google-sub-bad', email: 'bad@example.se', email_verified: true };
      const tokens = {
        audience: await mint({ ...base, aud: 'someone-else' }),
        expired: await mint({ ...base, aud: CLIENT_ID }, -120),
        issuer: await other.issuer.buildToken({ scopesOrTransform: (_h, p) => Object.assign(p, base, { aud: CLIENT_ID }) }),
        forgedIssuerClaim: await other.issuer.buildToken({
          scopesOrTransform: (_h, p) => Object.assign(p, base, { aud: CLIENT_ID, iss: provider.issuer.url }),
        }),
        garbage: 'not.a.jwt',
      };
      for (const [why, idToken] of Object.entries(tokens)) {
        const res = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: { id_token: idToken } });
        expect([why, res.statusCode, res.json().message]).toEqual([why, 400, 'Log in failed']);
      }
      expect(t.db.select().from(users).where(eq(users.email, 'bad@example.se')).get()).toBeUndefined();
    } finally {
      await other.stop();
    }
  });

  it('answers 400 for a missing id_token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/googleLogIn', payload: {} });
    expect(res.statusCode).toBe(400);
  });
});

describe('users.config', () => {
  it('tells the client Google is enabled', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/trpc/users.config' });
    expect(res.json().result.data).toEqual({ googleEnabled: true });
  });
});
