import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { images, users } from '../../db/schema';
import { uploadUrl } from '../lib/urls';
import type { Actor } from './actor';

/** A user as every door shows it: never the password hash, token hashes or confirmation data. */
export type PublicUser = {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  isAdmin: boolean;
  isBanned: boolean;
  emailConfirmed: boolean;
  isGoogleLogin: boolean;
  language: 'sv' | 'en';
  favoritesCount: number;
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
  isBanned: users.isBanned,
  emailConfirmed: users.emailConfirmed,
  passwordHash: users.passwordHash,
  language: users.language,
  favoritesCount: users.favoritesCount,
  createdAt: users.createdAt,
};

type PublicUserRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  imageFile: string | null;
  isAdmin: boolean;
  isBanned: boolean;
  emailConfirmed: boolean;
  passwordHash: string | null;
  language: string;
  favoritesCount: number;
  createdAt: number;
};

export function toPublicUser(row: PublicUserRow): PublicUser {
  return {
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    image: uploadUrl(row.imageFile),
    isAdmin: row.isAdmin,
    isBanned: row.isBanned,
    emailConfirmed: row.emailConfirmed,
    isGoogleLogin: row.passwordHash === null,
    language: row.language === 'en' ? 'en' : 'sv',
    favoritesCount: row.favoritesCount,
    createdAt: row.createdAt,
  };
}

/** Selects public users; `where` narrows. */
export function selectPublicUsers(db: Db) {
  return db.select(publicUserColumns).from(users).leftJoin(avatar, eq(avatar.id, users.imageId));
}

export function findPublicUser(db: Db, id: string): PublicUser | null {
  const row = selectPublicUsers(db).where(eq(users.id, id)).get();
  return row ? toPublicUser(row) : null;
}

/** The signed-in user as the nav needs them, or null for a visitor. */
export function getMe(db: Db, actor: Actor): PublicUser | null {
  return actor ? findPublicUser(db, actor.id) : null;
}
