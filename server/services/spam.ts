import { and, count, eq, gt } from 'drizzle-orm';
import { comments, replies, users } from '../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';

/** An account this young is new (PRODUCT.md 11): few posts, no links. */
export const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;
export const NEW_ACCOUNT_POSTS = 5;
/** Links any post may carry. */
export const MAX_LINKS = 2;
/** How far back the same text by the same user counts as a repeat. */
export const REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;

// A URL with a scheme, a www. address, or a bare domain on a common top-level domain
// ("billigaklockor.se/rea"): what a spammer types so that a reader can follow it.
const LINK =
  /\b(?:https?:\/\/|www\.)[^\s]+|\b[\p{L}\p{N}][\p{L}\p{N}-]*(?:\.[\p{L}\p{N}-]+)*\.(?:com|se|nu|net|org|io|info|biz|shop|store|xyz|online|site|top|ru|cn|co|uk|de|eu|app|dev)\b(?:\/[^\s]*)?/giu;

export const linksIn = (text: string): number => text.match(LINK)?.length ?? 0;

function isNewAccount(deps: Deps, userId: string, now: number): boolean {
  const user = deps.db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId)).get();
  return user !== undefined && now - user.createdAt < NEW_ACCOUNT_MS;
}

function checkLinks(text: string, newAccount: boolean): void {
  const links = linksIn(text);
  if (newAccount && links > 0) throw new AppError('BAD_INPUT', 'spamNewAccountLinks', { text: 'spamNewAccountLinks' });
  if (links > MAX_LINKS) throw new AppError('BAD_INPUT', 'spamTooManyLinks', { text: 'spamTooManyLinks' });
}

/**
 * The spam rules for a new comment or reply (PRODUCT.md 11): more than MAX_LINKS links, any link
 * from an account younger than 24 h, a sixth post of such an account, or text the author already
 * posted in the last 24 h is refused with a message saying which. SPAM_RULES=0 turns them off.
 */
export function checkNewPost(deps: Deps, userId: string, text: string, now = Date.now()): void {
  if (!deps.env.SPAM_RULES) return;
  const newAccount = isNewAccount(deps, userId, now);
  checkLinks(text, newAccount);
  const { db } = deps;
  if (newAccount) {
    // Everything a new account wrote is from its first day: its user indexes count it.
    const posts =
      (db.select({ n: count() }).from(comments).where(eq(comments.userId, userId)).get()?.n ?? 0) +
      (db.select({ n: count() }).from(replies).where(eq(replies.userId, userId)).get()?.n ?? 0);
    if (posts >= NEW_ACCOUNT_POSTS) throw new AppError('FORBIDDEN', 'spamNewAccountPosts');
  }
  const since = now - REPEAT_WINDOW_MS;
  const repeated =
    db.select({ id: comments.id }).from(comments).where(and(eq(comments.userId, userId), eq(comments.text, text), gt(comments.createdAt, since))).get() ??
    db.select({ id: replies.id }).from(replies).where(and(eq(replies.userId, userId), eq(replies.text, text), gt(replies.createdAt, since))).get();
  if (repeated) throw new AppError('BAD_INPUT', 'spamRepeated', { text: 'spamRepeated' });
}

/** An edit may not add what a new post could not: too many links, or any from a new account. */
export function checkEditedPost(deps: Deps, userId: string, text: string, now = Date.now()): void {
  if (!deps.env.SPAM_RULES) return;
  checkLinks(text, isNewAccount(deps, userId, now));
}
