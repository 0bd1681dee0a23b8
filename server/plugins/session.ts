import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Db } from '../../db/client';
import { secureCookies, type Env } from '../env';
import type { Actor } from '../services/actor';
import { SESSION_COOKIE, validateSessionToken } from '../services/sessions';

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

/**
 * Whether a Cookie header carries a session cookie, valid or not (only the session lookup can
 * tell): such a request may belong to a signed-in user, so it gets no shared, anonymous answer.
 */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((c) => c.trimStart().startsWith(`${SESSION_COOKIE}=`));
}

function tokenOf(request: FastifyRequest): { token: string; via: 'cookie' | 'bearer' } | null {
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), via: 'bearer' };
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
}
