import { timingSafeEqual } from 'node:crypto';
import type { createRemoteJWKSet } from 'jose';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { emailTokens, oauthAccounts, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { googleEnabled, type Env } from '../../env';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Language } from '../../../shared/schemas/common';
import { networkOf } from '../../lib/networks';
import { becomesAdmin, startSession, type LogInResult, type RequestMeta } from './accounts';
import { invalidateUserSessions } from './sessions';

/** Short-lived cookies that carry the flow's state and PKCE verifier back to the callback. */
export const GOOGLE_STATE_COOKIE = 'google_oauth_state';
export const GOOGLE_VERIFIER_COOKIE = 'google_code_verifier';
export const GOOGLE_FLOW_MAX_AGE_S = 10 * 60;

const SCOPES = ['openid', 'email', 'profile'];
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

const discoverySchema = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
});
type Discovery = z.infer<typeof discoverySchema>;

const discoveries = new Map<string, { at: number; value: Promise<Discovery> }>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const failed = (key: 'googleFailed' | 'googleMissingData' = 'googleFailed') => new AppError('BAD_INPUT', key);

function requireGoogle(env: Env): { clientId: string; clientSecret: string } {
  if (!googleEnabled(env)) throw new AppError('NOT_FOUND', 'googleDisabled');
  return { clientId: env.GOOGLE_CLIENT_ID as string, clientSecret: env.GOOGLE_CLIENT_SECRET as string };
}

async function fetchDiscovery(issuer: string): Promise<Discovery> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`OpenID discovery answered ${res.status}`);
  return discoverySchema.parse(await res.json());
}

/** The provider's OpenID configuration, fetched once an hour; a failed fetch is not cached. */
function discover(issuer: string): Promise<Discovery> {
  const cached = discoveries.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
  const value: Promise<Discovery> = fetchDiscovery(issuer).catch(() => {
    if (discoveries.get(issuer)?.value === value) discoveries.delete(issuer);
    throw failed();
  });
  discoveries.set(issuer, { at: Date.now(), value });
  return value;
}

// arctic and jose load with the first Google sign-in: most sites never use it, and the server
// starts faster and smaller without them.
const arctic = () => import('arctic');
const jose = () => import('jose');

/** jose's key set refetches by itself when the provider rotates its keys. */
async function keySet(jwksUri: string) {
  let set = keySets.get(jwksUri);
  if (!set) {
    const { createRemoteJWKSet } = await jose();
    set = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, set);
  }
  return set;
}

const oauthClient = async (env: Env) => {
  const { clientId, clientSecret } = requireGoogle(env);
  const { OAuth2Client } = await arctic();
  return new OAuth2Client(clientId, clientSecret, `${env.PUBLIC_URL}/google-logIn`);
};

/** Where to send the browser, and the state and verifier to keep in cookies until it returns. */
export async function startGoogleSignIn(deps: Deps): Promise<{ url: string; state: string; codeVerifier: string }> {
  const client = await oauthClient(deps.env);
  const { authorization_endpoint } = await discover(deps.env.GOOGLE_ISSUER);
  const { CodeChallengeMethod, generateCodeVerifier, generateState } = await arctic();
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = client.createAuthorizationURLWithPKCE(authorization_endpoint, state, CodeChallengeMethod.S256, codeVerifier, SCOPES);
  return { url: url.toString(), state, codeVerifier };
}

const claimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().email().max(254).optional(),
  // Some Google tokens carry the flag as the string "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
});
export type GoogleClaims = z.infer<typeof claimsSchema> & { issuer: string };

/**
 * Verifies an ID token against the provider's published keys: signature, issuer, audience (our
 * client id) and expiry. Google signs with either spelling of its issuer.
 */
export async function verifyIdToken(deps: Deps, idToken: string): Promise<GoogleClaims> {
  const { clientId } = requireGoogle(deps.env);
  const discovery = await discover(deps.env.GOOGLE_ISSUER);
  const issuers = [discovery.issuer];
  if (discovery.issuer === 'https://accounts.google.com') issuers.push('accounts.google.com');
  let payload: unknown;
  try {
    const { jwtVerify } = await jose();
    ({ payload } = await jwtVerify(idToken, await keySet(discovery.jwks_uri), { issuer: issuers, audience: clientId, requiredClaims: ['exp', 'sub'] }));
  } catch {
    throw failed();
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw failed('googleMissingData');
  return { ...claims.data, issuer: discovery.issuer };
}

const clip = (s: string) => s.trim().slice(0, 50);

function namesOf(claims: GoogleClaims, email: string) {
  const [first = '', ...rest] = (claims.name ?? '').trim().split(/\s+/);
  return {
    firstName: clip(claims.given_name || first || email.split('@')[0]),
    lastName: clip(claims.family_name || rest.join(' ')),
  };
}

/**
 * Signs in by a verified Google identity: the account linked to issuer + subject; else the
 * account with the same, Google-verified e-mail (linked now; an unconfirmed one is confirmed
 * and loses its password and sessions); else a new, confirmed account. An unverified e-mail
 * never reaches an existing account. A banned account gets a restricted session and the ban's
 * reason, as a password login does (services/accounts/accounts.ts logIn): the doors set the cookie and
 * answer 403 `banned`, and the person can still download their data or delete the account.
 */
export function signInWithGoogle(deps: Deps, claims: GoogleClaims, language: Language = 'sv'): LogInResult {
  const { db, env } = deps;
  const signIn = db.transaction((tx): { userId: string; banReason: string | null } => {
    const now = Date.now();
    const linked = tx
      .select({ user: users })
      .from(oauthAccounts)
      .innerJoin(users, eq(users.id, oauthAccounts.userId))
      .where(and(eq(oauthAccounts.issuer, claims.issuer), eq(oauthAccounts.subject, claims.sub)))
      .get()?.user;
    if (linked) return { userId: linked.id, banReason: linked.isBanned ? linked.banReason : null };
    if (!claims.email || claims.email_verified !== true) throw failed('googleMissingData');
    const email = claims.email.toLowerCase();
    const existing = tx.select().from(users).where(eq(users.email, email)).get();
    // The address is Google-verified, so its owner is the banned account's owner: a restricted
    // session, and no link (a ban is no time to add a way in).
    if (existing?.isBanned) return { userId: existing.id, banReason: existing.banReason };
    let id: string;
    if (existing?.emailConfirmed) {
      id = existing.id;
      tx.update(users)
        .set({ isAdmin: becomesAdmin(env, existing), updatedAt: now })
        .where(eq(users.id, id))
        .run();
    } else if (existing) {
      // Whoever registered this address first never proved they own it: their password,
      // names, avatar, pending links and sessions go; the account is Google's owner's now.
      id = existing.id;
      tx.update(users)
        .set({ passwordHash: null, ...namesOf(claims, email), imageId: null, emailConfirmed: true, isAdmin: becomesAdmin(env, existing), updatedAt: now })
        .where(eq(users.id, id))
        .run();
      tx.delete(emailTokens).where(eq(emailTokens.userId, id)).run();
      invalidateUserSessions(tx, id);
    } else {
      id = newId();
      tx.insert(users)
        .values({
          id,
          email,
          passwordHash: null,
          ...namesOf(claims, email),
          emailConfirmed: true,
          isAdmin: becomesAdmin(env, { email, isAdmin: false, isBanned: false }),
          language,
          createdAt: now,
          updatedAt: now,
        })
        .run();
    }
    tx.insert(oauthAccounts).values({ issuer: claims.issuer, subject: claims.sub, userId: id, createdAt: now }).run();
    return { userId: id, banReason: null };
  });
  return { ...startSession(db, signIn.userId), banReason: signIn.banReason };
}

const sameString = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The redirect flow's last step: the state must match the cookie's, then the code is
 * exchanged (with the PKCE verifier) for tokens whose ID token is verified like any other.
 */
export async function completeGoogleSignIn(
  deps: Deps,
  input: { code: string; state: string; language?: Language },
  stored: { state?: string; codeVerifier?: string },
  meta: RequestMeta,
): Promise<LogInResult> {
  const client = await oauthClient(deps.env);
  await deps.limits.consume('loginIp', networkOf(meta.ip));
  if (!stored.state || !stored.codeVerifier || !sameString(stored.state, input.state)) throw failed();
  const { token_endpoint } = await discover(deps.env.GOOGLE_ISSUER);
  let idToken: string;
  try {
    const tokens = await client.validateAuthorizationCode(token_endpoint, input.code, stored.codeVerifier);
    idToken = tokens.idToken();
  } catch {
    throw failed();
  }
  return signInWithGoogle(deps, await verifyIdToken(deps, idToken), input.language);
}

/** POST /googleLogIn: an ID token the client got from Google itself. */
export async function googleLogInWithIdToken(deps: Deps, input: { id_token: string; language?: Language }, meta: RequestMeta): Promise<LogInResult> {
  requireGoogle(deps.env);
  await deps.limits.consume('loginIp', networkOf(meta.ip));
  return signInWithGoogle(deps, await verifyIdToken(deps, input.id_token), input.language);
}
