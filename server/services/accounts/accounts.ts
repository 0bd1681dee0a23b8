import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { emailTokens, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { googleEnabled, type Env } from '../../env';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { networkOf } from '../../lib/networks';
import type { ChangePasswordInput, EmailInput, LoginInput, RegisterInput, ResetPasswordInput } from '../../../shared/schemas/accounts';
import { filledHoneypot, type Language } from '../../../shared/schemas/common';
import type { MessageKey } from '../../../shared/schemas/messages';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import {
  accountMail,
  findEmailToken,
  issueEmailToken,
  registrationLinkCount,
  type EmailTokenKind,
  type EmailTokenRow,
  type PendingCredentials,
} from './account-mail';
import { requireSignedIn, type Actor } from '../actor';
import { storeImage, releaseImage } from '../comments/images';
import { createSession, invalidateOtherSessions, invalidateSession, invalidateUserSessions } from './sessions';
import { findPublicUser, type PublicUser } from './users';
import { siteText } from '../site/site-settings';

/** Where a request comes from, for the per-IP rate limits. */
export type RequestMeta = { ip: string };

export type UserRow = typeof users.$inferSelect;

export { hashPassword } from './passwords';

export function findUserByEmail(db: Db, email: string): UserRow | null {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get() ?? null;
}

const languageOf = (value: string | null): Language => (value === 'en' ? 'en' : 'sv');

/**
 * A hash of no one's password, verified against when an e-mail is unknown (or has no password),
 * so a login costs the same argon2 time whether or not the address has an account.
 */
let dummyHash: Promise<string> | null = null;
const hashForUnknown = () => (dummyHash ??= hashPassword(`no-account-${Date.now()}`));

/** docs/product.md §3: addresses in ADMIN_EMAILS are admins once confirmed (a banned user never is). */
export const becomesAdmin = (env: Env, user: { email: string; isAdmin: boolean; isBanned: boolean }) =>
  !user.isBanned && (user.isAdmin || env.ADMIN_EMAILS.includes(user.email));

/** Queues the mail carrying a fresh link, in the transaction that issued the token. */
function queueTokenMail(deps: Deps, tx: DbOrTx, kind: EmailTokenKind, user: { email: string; firstName: string; language: Language }, token: string) {
  deps.outbox.enqueue(accountMail(deps.env, kind, user, token, siteText(deps).name), { db: tx });
}

export type SignedInResult = { user: PublicUser; token: string; expiresAt: number };
/** A login's session; for a banned account (`user.isBanned`) it is restricted and carries the ban's reason. */
export type LogInResult = SignedInResult & { banReason: string | null };

/**
 * The 403 a banned account gets at login, with the admin's reason as written (REST `banReason`,
 * tRPC `data.banReason`); the client shows it beside the translated `banned` message.
 */
export const bannedError = (reason: string | null) => new AppError('FORBIDDEN', 'banned', undefined, reason ? { banReason: reason } : {});

/** Opens a session for a user already allowed in. */
export function startSession(db: Db, userId: string): SignedInResult {
  const { token, expiresAt } = createSession(db, userId);
  return { user: findPublicUser(db, userId) as PublicUser, token, expiresAt };
}

export type RegisterResult = { status: 201; message: MessageKey; user: PublicUser } | { status: 200; message: MessageKey; user: null };

/** What a registration's reply would show of a new account, for a robot that gets none. */
function unsavedUser(input: RegisterInput, language: Language): PublicUser {
  return {
    _id: newId(),
    firstName: input.firstName,
    lastName: input.lastName,
    nameDisplay: 'initial',
    email: input.email,
    image: null,
    isAdmin: false,
    isModerator: false,
    isBanned: false,
    emailConfirmed: false,
    isGoogleLogin: false,
    language,
    favoritesCount: 0,
    favoriteBusinesses: [],
    createdAt: Date.now(),
  };
}

/**
 * Registers a new account and mails its confirmation link (201). An e-mail that is registered
 * but unconfirmed gets a link of its own instead (200) carrying this registration's
 * credentials; earlier registrations' links stay valid. The account changes only when a link is
 * opened, and then to exactly what its registration sent (see confirmEmail): neither a stranger
 * who registered the address first nor one who registers it after the owner gets it. A
 * confirmed address is a 409. `image` is the avatar sent with the form. A form whose hidden spam
 * trap (`website`) is filled gets a 201 like a new account's, and nothing is stored or mailed.
 */
export async function registerUser(deps: Deps, input: RegisterInput & { image?: Buffer }, meta: RequestMeta): Promise<RegisterResult> {
  await deps.limits.consume('register', meta.ip, input.email);
  const language = input.language ?? 'sv';
  // The spam trap was filled: the reply of a new account, and no account, mail or avatar.
  if (filledHoneypot(input)) return { status: 201, message: 'registered', user: unsavedUser(input, language) };
  const existing = findUserByEmail(deps.db, input.email);
  if (existing?.emailConfirmed) throw new AppError('CONFLICT', 'emailAlreadyRegistered');
  if (existing?.isBanned) return { status: 200, message: 'confirmationResent', user: null };
  // A repeat registration past the address's mails for the hour answers the same, unmailed.
  if (existing && !(await deps.limits.takeMailAllowance(input.email, meta.ip))) return { status: 200, message: 'confirmationResent', user: null };

  const id = existing?.id ?? newId();
  const passwordHash = await hashPassword(input.password, networkOf(meta.ip));
  const avatar = input.image && input.image.length > 0 ? await storeImage(deps, { bytes: input.image, kind: 'avatar', ownerId: id }) : null;
  const pending: PendingCredentials = { passwordHash, firstName: input.firstName, lastName: input.lastName, language, imageId: avatar?.id ?? null };
  const now = Date.now();
  const mailTo = { email: input.email, firstName: input.firstName, language };

  if (existing) {
    deps.db.transaction((tx) => {
      const token = issueEmailToken(tx, existing.id, 'confirm', now, pending);
      queueTokenMail(deps, tx, 'confirm', mailTo, token);
    });
    return { status: 200, message: 'confirmationResent', user: null };
  }

  try {
    deps.db.transaction((tx) => {
      tx.insert(users)
        .values({
          id,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          imageId: avatar?.id ?? null,
          language,
          createdAt: now,
          updatedAt: now,
        })
        .run();
      const token = issueEmailToken(tx, id, 'confirm', now, pending);
      queueTokenMail(deps, tx, 'confirm', mailTo, token);
    });
  } catch (err) {
    await releaseImage(deps, avatar?.id);
    // Two registrations of one address at once: the second loses on the unique index.
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new AppError('CONFLICT', 'emailAlreadyRegistered');
    throw err;
  }
  return { status: 201, message: 'registered', user: findPublicUser(deps.db, id) as PublicUser };
}

/** Mails a fresh confirmation link; the reply never tells whether the address is registered. */
export async function resendConfirmation(deps: Deps, input: EmailInput, meta: RequestMeta): Promise<{ message: MessageKey }> {
  await deps.limits.consume('resend', meta.ip, input.email);
  const user = findUserByEmail(deps.db, input.email);
  if (user && !user.emailConfirmed && !user.isBanned && (await deps.limits.takeMailAllowance(user.email, meta.ip))) {
    deps.db.transaction((tx) => {
      // Whoever asks cannot be told apart from the owner, so this link carries no password: it
      // confirms the address and its receiver then chooses one (see confirmEmail). It replaces
      // earlier resends' links only: the registrations' links stay valid, and the account's
      // names stay what they are (issue 27: a stranger's resend cancelled the owner's link).
      const pending: PendingCredentials = {
        passwordHash: null,
        firstName: user.firstName,
        lastName: user.lastName,
        language: languageOf(user.language),
        imageId: user.imageId,
      };
      const token = issueEmailToken(tx, user.id, 'confirm', Date.now(), pending);
      const language = input.language ?? languageOf(user.language);
      queueTokenMail(deps, tx, 'confirm', { email: user.email, firstName: user.firstName, language }, token);
    });
  }
  return { message: 'resendDone' };
}

export type ConfirmResult = { message: MessageKey; setPasswordToken?: string };
export type ConfirmInput = { token: string; password?: string; choosePassword?: boolean };

type ConfirmState = { done: true } | { done: false; row: EmailTokenRow; user: UserRow; shared: boolean };

/** The link's token and account as a confirmation finds them; throws for a link that cannot work. */
function confirmState(db: DbOrTx, token: string, now: number): ConfirmState {
  const row = findEmailToken(db, token, 'confirm');
  if (!row) throw new AppError('BAD_INPUT', 'tokenMissing');
  const user = db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) throw new AppError('BAD_INPUT', 'tokenMissing');
  if (user.emailConfirmed) return { done: true };
  if (row.usedAt !== null) throw new AppError('BAD_INPUT', 'tokenUsed');
  if (row.expiresAt <= now) throw new AppError('BAD_INPUT', 'tokenExpired');
  // A registration's link of an address registered more than once: its password may be a stranger's.
  return { done: false, row, user, shared: row.pendingPasswordHash !== null && registrationLinkCount(db, user.id) > 1 };
}

/**
 * Confirms the address behind a mailed link and activates exactly the credentials (password,
 * names, language, avatar) of the registration that issued the link; every session of the
 * account and every other link end. Logs nobody in. A link opened again after it worked is not
 * an error: the address is confirmed, which is what the user wants to know.
 *
 * Opening a link proves only that one reads the address's mail. When the address has been
 * registered more than once, its mails differ only in the token, and the owner may open a
 * stranger's; so such a link activates its registration only for the person who types that
 * registration's `password` (400 `confirmPasswordNeeded` without one, `confirmPasswordWrong`
 * for another, attempts limited). With `choosePassword` instead, or with a link from "resend"
 * (which carries no password), the address is confirmed with no password, the account keeps its
 * names, and the reply holds a one-time password-reset token so whoever opened the mail chooses
 * one. An address registered once confirms with the token alone.
 */
export async function confirmEmail(deps: Deps, input: ConfirmInput, meta: RequestMeta): Promise<ConfirmResult> {
  const { db, env } = deps;
  if (!input.token) throw new AppError('BAD_INPUT', 'tokenMissing');
  const before = confirmState(db, input.token, Date.now());
  if (before.done) return { message: 'emailAlreadyConfirmed' };
  let proven = false;
  if (before.shared && !input.choosePassword) {
    if (!input.password) throw new AppError('BAD_INPUT', 'confirmPasswordNeeded', { password: 'confirmPasswordNeeded' });
    await deps.limits.consume('confirmPassword', networkOf(meta.ip), before.row.id);
    if (!(await verifyPassword(before.row.pendingPasswordHash ?? '', input.password, networkOf(meta.ip)))) {
      throw new AppError('BAD_INPUT', 'confirmPasswordWrong', { password: 'confirmPasswordWrong' });
    }
    proven = true;
  }
  const now = Date.now();
  return db.transaction((tx) => {
    // Checked again in the write: the link may have been used, or the address registered again.
    const state = confirmState(tx, input.token, now);
    if (state.done) return { message: 'emailAlreadyConfirmed' as const };
    const { row, user, shared } = state;
    if (shared && !proven && !input.choosePassword) throw new AppError('BAD_INPUT', 'confirmPasswordNeeded', { password: 'confirmPasswordNeeded' });
    const activates = row.pendingPasswordHash !== null && (!shared || proven);
    tx.update(emailTokens).set({ usedAt: now }).where(eq(emailTokens.id, row.id)).run();
    tx.update(users)
      .set({
        ...(activates
          ? {
              passwordHash: row.pendingPasswordHash,
              firstName: row.pendingFirstName ?? user.firstName,
              lastName: row.pendingLastName ?? user.lastName,
              language: languageOf(row.pendingLanguage ?? user.language),
              imageId: row.pendingImageId,
            }
          : // Nothing of a registration that may be a stranger's: the names stay, no avatar
            // unless the address was registered once (a resend's link keeps the account's).
            { passwordHash: null, imageId: row.pendingPasswordHash === null && registrationLinkCount(tx, user.id) <= 1 ? row.pendingImageId : null }),
        emailConfirmed: true,
        // Promotion follows only this confirmation, whose password the link's receiver knows or chooses.
        isAdmin: becomesAdmin(env, user),
        updatedAt: now,
      })
      .where(eq(users.id, user.id))
      .run();
    invalidateUserSessions(tx, user.id);
    // Other links die; this one stays (used), so opening it again says "already confirmed".
    tx.delete(emailTokens)
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.kind, 'confirm'), ne(emailTokens.id, row.id)))
      .run();
    if (activates) return { message: 'emailConfirmed' as const };
    return { message: 'emailConfirmedChoosePassword' as const, setPasswordToken: issueEmailToken(tx, user.id, 'reset', now) };
  });
}

/**
 * E-mail and password sign-in. The documented client tells an unknown address ('invalid') from
 * a wrong password ('wrong password!'); both are 401. Ban and confirmation are checked only
 * after the password, so neither leaks to someone who does not know it. A banned account with
 * the right password gets a restricted session (the actor is banned, so only logout, export and
 * account deletion accept it: GDPR) and the ban's reason; the doors set the cookie and answer
 * 403 `banned` with the reason (docs/product.md §2: login refused).
 */
export async function logIn(deps: Deps, input: LoginInput, meta: RequestMeta): Promise<LogInResult> {
  await deps.limits.consumeLogin(meta.ip, input.email);
  const user = findUserByEmail(deps.db, input.email);
  // Unknown addresses and accounts without a password cost one argon2 verify too.
  const matches = await verifyPassword(user?.passwordHash ?? (await hashForUnknown()), input.password, networkOf(meta.ip));
  if (!user || user.passwordHash === null || !matches) {
    await deps.limits.countFailedLogin(input.email);
    throw new AppError('UNAUTHENTICATED', user ? 'loginWrongPassword' : 'loginInvalid');
  }
  if (user.isBanned) return { ...startSession(deps.db, user.id), banReason: user.banReason };
  if (!user.emailConfirmed) throw new AppError('FORBIDDEN', 'emailNotConfirmed');
  // A hash made with older argon2 parameters is replaced now that the password is at hand.
  if (needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(input.password, networkOf(meta.ip));
    deps.db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .run();
  }
  return { ...startSession(deps.db, user.id), banReason: null };
}

/** Ends the session the request came with (banned users may too). */
export function logOut(deps: Deps, actor: Actor, sessionId: string | null): { message: MessageKey } {
  requireSignedIn(actor);
  if (sessionId) invalidateSession(deps.db, sessionId);
  return { message: 'loggedOut' };
}

/** GET /auth/check: the signed-in user, 401 for a visitor. */
export function checkAuth(deps: Deps, actor: Actor): { user: PublicUser } {
  const signedIn = requireSignedIn(actor);
  const user = findPublicUser(deps.db, signedIn.id);
  if (!user) throw new AppError('UNAUTHENTICATED', 'unauthenticated');
  return { user };
}

export function accountConfig(deps: Deps): { googleEnabled: boolean } {
  return { googleEnabled: googleEnabled(deps.env) };
}

/** Mails a link to choose a new password; the reply is the same whether or not the address exists. */
export async function forgotPassword(deps: Deps, input: EmailInput, meta: RequestMeta): Promise<{ message: MessageKey }> {
  await deps.limits.consume('forgotPassword', meta.ip, input.email);
  const user = findUserByEmail(deps.db, input.email);
  if (user && !user.isBanned && (await deps.limits.takeMailAllowance(user.email, meta.ip, 'reset'))) {
    // Only queued here: a slow or failing mail server neither delays nor fails the reply.
    deps.db.transaction((tx) => {
      const token = issueEmailToken(tx, user.id, 'reset');
      const language = input.language ?? languageOf(user.language);
      queueTokenMail(deps, tx, 'reset', { email: user.email, firstName: user.firstName, language }, token);
    });
  }
  return { message: 'resetSent' };
}

function usableResetToken(db: DbOrTx, token: string, now: number) {
  const row = findEmailToken(db, token, 'reset');
  if (!row) throw new AppError('BAD_INPUT', 'tokenMissing');
  if (row.usedAt !== null) throw new AppError('BAD_INPUT', 'tokenUsed');
  if (row.expiresAt <= now) throw new AppError('BAD_INPUT', 'tokenExpired');
  return row;
}

/**
 * Sets a new password from a reset link and ends every session of the account. Opening the
 * mailed link proves the address as well as a confirmation link would, so it confirms it too.
 */
export async function resetPassword(deps: Deps, input: ResetPasswordInput): Promise<{ message: MessageKey }> {
  const { db, env } = deps;
  // Checked before hashing so a bad link costs no argon2 work, and again inside the write.
  const link = usableResetToken(db, input.token, Date.now());
  const passwordHash = await hashPassword(input.password, `user:${link.userId}`);
  const now = Date.now();
  db.transaction((tx) => {
    const row = usableResetToken(tx, input.token, now);
    const used = tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.id, row.id), isNull(emailTokens.usedAt)))
      .run();
    if (used.changes !== 1) throw new AppError('BAD_INPUT', 'tokenUsed');
    const user = tx.select().from(users).where(eq(users.id, row.userId)).get();
    if (!user) throw new AppError('BAD_INPUT', 'tokenMissing');
    tx.update(users)
      .set({ passwordHash, emailConfirmed: true, isAdmin: becomesAdmin(env, user), updatedAt: now })
      .where(eq(users.id, user.id))
      .run();
    invalidateUserSessions(tx, user.id);
  });
  return { message: 'passwordChanged' };
}

/**
 * The profile's password change: the current password proves it is the owner and not someone at
 * an unlocked screen; every other session of the account ends, this one stays. Attempts are
 * limited per user, so a borrowed session cannot guess the current password. An account without
 * a password (Google only) chooses one through the mailed reset link, which proves the address.
 */
export async function changePassword(deps: Deps, actor: Actor, sessionId: string | null, input: ChangePasswordInput): Promise<{ message: MessageKey }> {
  const signedIn = requireSignedIn(actor);
  await deps.limits.consume('passwordChange', signedIn.id);
  const user = deps.db.select().from(users).where(eq(users.id, signedIn.id)).get();
  if (!user) throw new AppError('UNAUTHENTICATED', 'unauthenticated');
  if (user.passwordHash === null) throw new AppError('BAD_INPUT', 'noPasswordYet');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword, `user:${user.id}`))) {
    throw new AppError('BAD_INPUT', 'currentPasswordWrong', { currentPassword: 'currentPasswordWrong' });
  }
  const passwordHash = await hashPassword(input.password, `user:${user.id}`);
  deps.db.transaction((tx) => {
    tx.update(users).set({ passwordHash, updatedAt: Date.now() }).where(eq(users.id, user.id)).run();
    invalidateOtherSessions(tx, user.id, sessionId);
  });
  return { message: 'passwordUpdated' };
}
