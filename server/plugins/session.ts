import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Db } from '../../db/client';
import { secureCookies, type Env } from '../env';
import type { Actor } from '../services/actor';
import { SESSION_COOKIE, validateSessionToken } from '../services/accounts/sessions';
import { addVary } from './vary';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
    sessionId: string | null;
  }
}

export function setSessionCookie(reply: FastifyReply, env: Env, token: string, expiresAt: number) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(env),
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, env: Env) {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: secureCookies(env), path: '/' });
}

type CookieParser = (header: string) => Record<string, string | undefined>;

/**
 * Whether a request may belong to a signed-in user before its session is looked up: any
 * Authorization header, or a session cookie (valid or not) as @fastify/cookie reads the Cookie
 * header, so `session =…` or `session=…` after any other cookie counts exactly when the session
 * hook would try it. `parseCookie` is that plugin's parser (fastify.parseCookie). Cookie names
 * are not decoded by it, so a header without the text "session" is skipped unparsed.
 */
export function mayBeSignedIn(headers: IncomingHttpHeaders, parseCookie: CookieParser): boolean {
  if (headers.authorization !== undefined) return true;
  const cookies = headers.cookie;
  return cookies !== undefined && cookies.includes(SESSION_COOKIE) && parseCookie(cookies)[SESSION_COOKIE] !== undefined;
}

/**
 * A request whose reply may be shared with every visitor: no signed-in actor, and nothing that
 * could make one (see mayBeSignedIn). Runs after the session hook has resolved `actor`.
 */
export function isAnonymousRequest(request: FastifyRequest): boolean {
  return request.actor === null && request.sessionId === null && !mayBeSignedIn(request.headers, () => request.cookies);
}

/** The token of an `Authorization: Bearer …` header; the scheme is case-insensitive (RFC 9110). */
export function bearerTokenOf(header: string | undefined): string | null {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

function tokenOf(request: FastifyRequest): { token: string; via: 'cookie' | 'bearer' } | null {
  const fromBearer = bearerTokenOf(request.headers.authorization);
  if (fromBearer) return { token: fromBearer, via: 'bearer' };
  const fromCookie = request.cookies[SESSION_COOKIE];
  return fromCookie ? { token: fromCookie, via: 'cookie' } : null;
}

/** Reads the session (cookie, or bearer for REST clients) into request.actor on every request. */
export async function registerSession(app: FastifyInstance, db: Db, env: Env) {
  await app.register(cookie);
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/assets/') || request.url.startsWith('/uploads/')) return;
    const found = tokenOf(request);
    if (!found) return;
    const session = validateSessionToken(db, found.token);
    if (!session) {
      if (found.via === 'cookie') clearSessionCookie(reply, env);
      return;
    }
    request.actor = session.actor;
    request.sessionId = session.sessionId;
    if (session.renewed && found.via === 'cookie') setSessionCookie(reply, env, found.token, session.expiresAt);
  });
  // A reply built for a signed-in user (their rates, favourites, e-mail) or one that sets a
  // cookie is kept by no cache, the browser's own included. Content-addressed files (immutable)
  // carry nobody's data and keep their caching. This runs after @fastify/cookie's onSend hook,
  // so a Set-Cookie written by the route is already a header here.
  // Who asks decides what most replies say (their rates, their e-mail, the page's language), so
  // every reply but content-addressed files says it varies by Cookie and Authorization: a shared
  // cache that ignores Cache-Control (a proxy "microcache") still keeps one copy per caller.
  app.addHook('onSend', async (request, reply, payload) => {
    const current = reply.getHeader('cache-control');
    const immutable = typeof current === 'string' && current.includes('immutable');
    if (!immutable) addVary(reply, 'Cookie', 'Authorization');
    if (request.actor === null && !reply.hasHeader('set-cookie')) return payload;
    if (!immutable) reply.header('cache-control', 'private, no-store');
    return payload;
  });
}
