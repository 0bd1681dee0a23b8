import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../../../db/client';
import { emailTokens, favorites, images, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { uploadUrl } from '../../lib/urls';
import { parseInput } from '../../lib/validation';
import { profileInputSchema, USERS_PAGE, type NameDisplay, type ProfileInput, type UserFlags, type UsersPageInput } from '../../../shared/schemas/accounts';
import type { Page } from '../../../shared/schemas/comments';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import type { Language } from '../../../shared/schemas/common';
import { issueEmailToken } from './account-mail';
import { requireActive, requireAdmin, requireSelfOrAdmin, requireSignedIn, type Actor, type SignedIn } from '../actor';
import { releaseImage, requireImage, storeImage } from '../comments/images';
import { setEmojiRatingsCounted, setRatingsCounted } from '../comments/rating-tally';
import { recordModAction } from '../moderation/mod-log';
import { recheckReportsBy } from '../moderation/reports';
import { invalidateUserSessions } from './sessions';

/** The database or a transaction on it (better-sqlite3 runs both on one connection). */

/** A user as every door shows it: never the password hash, token hashes or confirmation data. */
export type PublicUser = {
  _id: string;
  firstName: string;
  lastName: string;
  /** How others see the name: 'initial' ("Förnamn E.") or 'full'. */
  nameDisplay: NameDisplay;
  email: string;
  image: string | null;
  isAdmin: boolean;
  /** Works the moderation queue (docs/product.md §11). */
  isModerator: boolean;
  isBanned: boolean;
  emailConfirmed: boolean;
  isGoogleLogin: boolean;
  language: 'sv' | 'en';
  favoritesCount: number;
  /** The ids of the user's favourite businesses (the description's user object; the legacy client's hearts read it). */
  favoriteBusinesses: string[];
  createdAt: number;
};

const avatar = alias(images, 'avatar');

export const publicUserColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  imageFile: avatar.fileName,
  isAdmin: users.isAdmin,
  isModerator: users.isModerator,
  isBanned: users.isBanned,
  emailConfirmed: users.emailConfirmed,
  passwordHash: users.passwordHash,
  language: users.language,
  nameDisplay: users.nameDisplay,
  favoritesCount: users.favoritesCount,
  // One JSON array per user from the favourites' primary key (user_id, business_id): no query per user.
  favoriteIds: sql<string>`(select json_group_array(${favorites.businessId}) from ${favorites} where ${favorites.userId} = ${users.id})`,
  createdAt: users.createdAt,
};

type PublicUserRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  imageFile: string | null;
  isAdmin: boolean;
  isModerator: boolean;
  isBanned: boolean;
  emailConfirmed: boolean;
  passwordHash: string | null;
  language: string;
  nameDisplay: NameDisplay;
  favoritesCount: number;
  favoriteIds: string;
  createdAt: number;
};

export function toPublicUser(row: PublicUserRow): PublicUser {
  return {
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    nameDisplay: row.nameDisplay,
    email: row.email,
    image: uploadUrl(row.imageFile),
    isAdmin: row.isAdmin,
    isModerator: row.isModerator,
    isBanned: row.isBanned,
    emailConfirmed: row.emailConfirmed,
    isGoogleLogin: row.passwordHash === null,
    language: row.language === 'en' ? 'en' : 'sv',
    favoritesCount: row.favoritesCount,
    favoriteBusinesses: JSON.parse(row.favoriteIds) as string[],
    createdAt: row.createdAt,
  };
}

/** Selects public users; `where` narrows. */
export function selectPublicUsers(db: DbOrTx) {
  return db.select(publicUserColumns).from(users).leftJoin(avatar, eq(avatar.id, users.imageId));
}

export function findPublicUser(db: DbOrTx, id: string): PublicUser | null {
  const row = selectPublicUsers(db).where(eq(users.id, id)).get();
  return row ? toPublicUser(row) : null;
}

/** The signed-in user as the nav needs them, or null for a visitor. */
export function getMe(db: Db, actor: Actor): PublicUser | null {
  return actor ? findPublicUser(db, actor.id) : null;
}

/** GET /users: every account, oldest first (admins only). */
export function listUsers(deps: Deps, actor: Actor): PublicUser[] {
  requireAdmin(actor);
  return selectPublicUsers(deps.db).orderBy(asc(users.createdAt), asc(users.id)).all().map(toPublicUser);
}

/** `%` and `_` typed into a search are themselves, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * User management at a town's scale (issue 29, item 13): oldest first, a page at a time along
 * users_created_at_idx, `q` matching any part of the name ("first last") or the e-mail,
 * case-insensitively for ASCII (SQLite's LIKE). The search filters that walk; no index can serve
 * a match inside a word, which stays cheap for a town's thousands of accounts.
 */
export function listUsersPage(deps: Deps, actor: Actor, input: UsersPageInput = {}): Page<PublicUser> {
  requireAdmin(actor);
  const limit = input.limit ?? USERS_PAGE;
  const cursor = decodeCursor(input.cursor, 'string');
  const q = input.q?.trim();
  const rows = selectPublicUsers(deps.db)
    .where(
      and(
        q
          ? or(sql`(${users.firstName} || ' ' || ${users.lastName}) like ${likePattern(q)} escape '\\'`, sql`${users.email} like ${likePattern(q)} escape '\\'`)
          : undefined,
        cursor ? sql`(${users.createdAt}, ${users.id}) > (${cursor.t}, ${cursor.k})` : undefined,
      ),
    )
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit + 1)
    .all();
  return pageOf(rows, limit, (r) => [r.createdAt, r.id], toPublicUser);
}

/** One account: your own, or anyone's for an admin. */
export function getUser(deps: Deps, actor: Actor, userId: string): PublicUser {
  requireSelfOrAdmin(actor, userId);
  const user = findPublicUser(deps.db, userId);
  if (!user) throw new AppError('NOT_FOUND', 'userNotFound');
  return user;
}

/**
 * Changes the signed-in user's names, avatar (an uploaded image id, or the bytes of the REST
 * form) and language; identity comes from the session only. The replaced avatar's file goes
 * when nothing else uses it.
 */
export async function updateProfile(deps: Deps, actor: Actor, input: ProfileInput & { image?: Buffer }): Promise<PublicUser> {
  const me = requireActive(actor);
  await deps.limits.consume('edit', me.id);
  const current = deps.db.select({ imageId: users.imageId }).from(users).where(eq(users.id, me.id)).get();
  if (!current) throw new AppError('NOT_FOUND', 'userNotFound');
  let imageId = current.imageId;
  if (input.image && input.image.length > 0) imageId = (await storeImage(deps, { bytes: input.image, kind: 'avatar', ownerId: me.id })).id;
  else if (input.imageId === null) imageId = null;
  else if (input.imageId) imageId = requireImage(deps.db, input.imageId, me.id).id;
  deps.db
    .update(users)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      imageId,
      ...(input.language ? { language: input.language } : {}),
      ...(input.nameDisplay ? { nameDisplay: input.nameDisplay } : {}),
      updatedAt: Date.now(),
    })
    .where(eq(users.id, me.id))
    .run();
  if (imageId !== current.imageId) await releaseImage(deps, current.imageId);
  return findPublicUser(deps.db, me.id) as PublicUser;
}

/** Admins that can still act: at least one must remain (docs/product.md §2). */
function otherActiveAdmins(db: DbOrTx, userId: string): number {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.isBanned, false), ne(users.id, userId)))
    .all().length;
}

/** Throws when removing `user`'s admin rights would leave the site without an admin. */
export function assertNotLastAdmin(db: DbOrTx, user: { id: string; isAdmin: boolean; isBanned: boolean }) {
  if (user.isAdmin && !user.isBanned && otherActiveAdmins(db, user.id) === 0) throw new AppError('CONFLICT', 'lastAdmin');
}

/**
 * Ban/unban, grant/revoke admin and appoint/relieve a moderator (admins only). Only flags that
 * differ from the stored ones count as a change, because the documented client sends the whole
 * user object with one flag flipped. Banning drops admin and moderator, ends every session and
 * takes the user's star ratings and reports out of every figure (unbanning gives the ratings
 * back); a banned user's roles cannot change; nobody bans themself; the last admin stays. The
 * ban's reason is stored (the owner reads it at login) and written to the moderation log.
 */
export async function setUserFlags(deps: Deps, actor: Actor, userId: string, flags: UserFlags): Promise<PublicUser> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  return deps.db.transaction((tx) => {
    const user = tx.select().from(users).where(eq(users.id, userId)).get();
    if (!user) throw new AppError('NOT_FOUND', 'userNotFound');
    const banChange = flags.isBanned !== undefined && flags.isBanned !== user.isBanned;
    const adminChange = flags.isAdmin !== undefined && flags.isAdmin !== user.isAdmin;
    const moderatorChange = flags.isModerator !== undefined && flags.isModerator !== user.isModerator;
    if (!banChange && !adminChange && !moderatorChange) return findPublicUser(tx, userId) as PublicUser;
    if ((adminChange || moderatorChange) && user.isBanned) throw new AppError('CONFLICT', 'bannedAdminChange');
    const isBanned = flags.isBanned ?? user.isBanned;
    if (isBanned && ((adminChange && flags.isAdmin) || (moderatorChange && flags.isModerator))) throw new AppError('CONFLICT', 'bannedAdminChange');
    if (banChange && isBanned && user.id === admin.id) throw new AppError('FORBIDDEN', 'cannotBanSelf');
    const isAdmin = isBanned ? false : (flags.isAdmin ?? user.isAdmin);
    const isModerator = isBanned ? false : (flags.isModerator ?? user.isModerator);
    if (user.isAdmin && !isAdmin) assertNotLastAdmin(tx, user);
    const banReason = isBanned ? (banChange ? flags.banReason || null : user.banReason) : null;
    tx.update(users).set({ isBanned, banReason, isAdmin, isModerator, updatedAt: Date.now() }).where(eq(users.id, userId)).run();
    if (isBanned !== user.isBanned) {
      if (isBanned) invalidateUserSessions(tx, userId);
      setRatingsCounted(tx, userId, !isBanned);
      setEmojiRatingsCounted(tx, userId, !isBanned);
      if (isBanned) recheckReportsBy(deps, tx, userId);
    }
    const target = { targetKind: 'user' as const, targetId: userId, excerpt: `${user.firstName} ${user.lastName}`.trim() };
    if (isBanned !== user.isBanned) recordModAction(tx, admin, { action: isBanned ? 'ban' : 'unban', ...target, reason: isBanned ? banReason : null });
    if (isAdmin !== user.isAdmin) recordModAction(tx, admin, { action: isAdmin ? 'adminOn' : 'adminOff', ...target });
    if (isModerator !== user.isModerator) recordModAction(tx, admin, { action: isModerator ? 'moderatorOn' : 'moderatorOff', ...target });
    return findPublicUser(tx, userId) as PublicUser;
  });
}

export type UserUpdate = {
  firstName?: string;
  lastName?: string;
  imageId?: string | null;
  image?: Buffer;
  language?: Language;
  nameDisplay?: NameDisplay;
  isBanned?: boolean;
  banReason?: string;
  isAdmin?: boolean;
  isModerator?: boolean;
};

/**
 * PUT /users/update/{id}, which the documented client uses both for the profile form and for
 * the admin toggles (sending the whole user object). On yourself: names, avatar and language,
 * plus the flags if you are an admin. On someone else: the flags only, and only for admins.
 * Every other field is ignored; a normal user's isAdmin changes nothing.
 */
export async function updateUser(deps: Deps, actor: Actor, userId: string, input: UserUpdate): Promise<PublicUser> {
  const signedIn = requireSignedIn(actor);
  const flags: UserFlags = { isBanned: input.isBanned, banReason: input.banReason, isAdmin: input.isAdmin, isModerator: input.isModerator };
  if (signedIn.id !== userId) return setUserFlags(deps, actor, userId, flags);

  const me: SignedIn = requireActive(actor);
  const current = findPublicUser(deps.db, me.id);
  if (!current) throw new AppError('NOT_FOUND', 'userNotFound');
  const touchesProfile = [input.firstName, input.lastName, input.imageId, input.image, input.language, input.nameDisplay].some((v) => v !== undefined);
  let user = current;
  if (touchesProfile) {
    const profile = parseInput(profileInputSchema, {
      firstName: input.firstName ?? current.firstName,
      lastName: input.lastName ?? current.lastName,
      imageId: input.imageId,
      language: input.language,
      nameDisplay: input.nameDisplay,
    });
    user = await updateProfile(deps, actor, { ...profile, image: input.image });
  }
  if (me.isAdmin && (flags.isAdmin !== undefined || flags.isBanned !== undefined || flags.isModerator !== undefined))
    user = await setUserFlags(deps, actor, me.id, flags);
  return user;
}

export type AppointResult = { result: 'promoted' | 'alreadyAdmin' | 'banned' } | { result: 'created' | 'claimed'; setPasswordToken: string };

/**
 * `npm run admin -- <email>`: makes an existing, confirmed, unbanned account admin, or creates a
 * confirmed admin without a password whose owner chooses one with a one-time password-reset
 * link (valid one hour; the command prints it). An account that was registered but never
 * confirmed is treated as new ('claimed'): whoever registered it never proved they own the
 * address, so its password, names, avatar, pending links and sessions go first.
 */
export function appointAdmin(db: Db, email: string, now = Date.now()): AppointResult {
  const address = email.trim().toLowerCase();
  return db.transaction((tx) => {
    const user = tx.select().from(users).where(eq(users.email, address)).get();
    if (user?.isBanned) return { result: 'banned' as const };
    if (user?.isAdmin) return { result: 'alreadyAdmin' as const };
    if (user?.emailConfirmed) {
      tx.update(users).set({ isAdmin: true, updatedAt: now }).where(eq(users.id, user.id)).run();
      return { result: 'promoted' as const };
    }
    // A name to show until the owner sets their own: 'ny.chef@…' becomes 'Ny Chef'.
    const words = address
      .split('@')[0]
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const shown = words
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ')
      .slice(0, 50);
    const fresh = {
      passwordHash: null,
      firstName: shown.length >= 2 ? shown : 'Admin',
      lastName: 'Admin',
      imageId: null,
      isAdmin: true,
      emailConfirmed: true,
      updatedAt: now,
    };
    if (user) {
      tx.update(users).set(fresh).where(eq(users.id, user.id)).run();
      tx.delete(emailTokens).where(eq(emailTokens.userId, user.id)).run();
      invalidateUserSessions(tx, user.id);
      return { result: 'claimed' as const, setPasswordToken: issueEmailToken(tx, user.id, 'reset', now) };
    }
    const id = newId();
    tx.insert(users)
      .values({ id, email: address, ...fresh, createdAt: now })
      .run();
    return { result: 'created' as const, setPasswordToken: issueEmailToken(tx, id, 'reset', now) };
  });
}
