import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { unshownWrite } from '../../lib/data-stamp';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { sessions, users } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { keptParam, preparedStatements } from '../../lib/prepared';
import type { SignedIn } from '../actor';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Creates a session; the token `id.secret` goes to the client, only the secret's hash is stored. */
export function createSession(db: Db, userId: string, now = Date.now()): { token: string; expiresAt: number } {
  const id = newId();
  const secret = randomBytes(24).toString('base64url');
  const expiresAt = now + SESSION_TTL_MS;
  db.insert(sessions)
    .values({ id, userId, secretHash: hashSecret(secret), createdAt: now, expiresAt })
    .run();
  return { token: `${id}.${secret}`, expiresAt };
}

// Every request with a token looks its session up; the statement is compiled once, and with the
// id as keptParam it stays compiled (a join: SQLite would compile it again on every run).
/** Exported for the query-plan test. */
export const sessionQueries = (db: Db) => ({
  byId: db
    .select({
      secretHash: sessions.secretHash,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isAdmin: users.isAdmin,
      isModerator: users.isModerator,
      isBanned: users.isBanned,
      language: users.language,
      joinedAt: users.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(sql`${sessions.id} = ${keptParam(sql.placeholder('id'))}`),
});
const prepared = preparedStatements(sessionQueries);

export type ValidatedSession = { actor: SignedIn; sessionId: string; expiresAt: number; renewed: boolean };

/**
 * Looks a token up; returns the actor, or null for unknown, forged or expired tokens. A session
 * used in the last half of its life is extended by another 30 days (sliding expiry).
 */
export function validateSessionToken(db: Db, token: string, now = Date.now()): ValidatedSession | null {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 200) return null;
  const id = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  const row = prepared(db).byId.get({ id });
  if (!row) return null;
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(row.secretHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  // Session rows are never shown: their writes leave the public cache alone (unshownWrite).
  if (row.expiresAt <= now) {
    unshownWrite(db, () => db.delete(sessions).where(eq(sessions.id, id)).run());
    return null;
  }
  let expiresAt = row.expiresAt;
  let renewed = false;
  if (expiresAt - now < SESSION_TTL_MS / 2) {
    expiresAt = now + SESSION_TTL_MS;
    renewed = true;
    unshownWrite(db, () => db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id)).run());
  }
  return {
    sessionId: id,
    expiresAt,
    renewed,
    actor: {
      id: row.userId,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      isAdmin: row.isAdmin,
      isModerator: row.isModerator,
      isBanned: row.isBanned,
      language: row.language === 'en' ? 'en' : 'sv',
      joinedAt: row.joinedAt,
    },
  };
}

export function invalidateSession(db: Db, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/** Ends every session of a user (ban, password reset); runs inside the caller's transaction too. */
export function invalidateUserSessions(db: DbOrTx, userId: string): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run();
}

/** Ends every session of a user but the one given (a password change from that session). */
export function invalidateOtherSessions(db: DbOrTx, userId: string, keepSessionId: string | null): void {
  db.delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId))
    .run();
}

export function deleteExpiredSessions(db: Db, now = Date.now()): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, now)).run().changes;
}
