import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { comments, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { preparedStatements } from '../../lib/prepared';

/** An account this young is new (docs/product.md §11): few posts, no links. */
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

const p = { userId: sql.placeholder('userId'), text: sql.placeholder('text'), since: sql.placeholder('since') };

// Every new post runs these, so they are compiled once (posting is a benchmarked write).
const prepared = preparedStatements((db: Db) => ({
  createdAt: db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, p.userId)),
  commentCount: db.select({ n: count() }).from(comments).where(eq(comments.userId, p.userId)),
  replyCount: db.select({ n: count() }).from(replies).where(eq(replies.userId, p.userId)),
  repeatedComment: db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.userId, p.userId), eq(comments.text, p.text), gt(comments.createdAt, p.since))),
  repeatedReply: db
    .select({ id: replies.id })
    .from(replies)
    .where(and(eq(replies.userId, p.userId), eq(replies.text, p.text), gt(replies.createdAt, p.since))),
}));

function isNewAccount(deps: Deps, userId: string, now: number): boolean {
  const user = prepared(deps.db).createdAt.get({ userId });
  return user !== undefined && now - user.createdAt < NEW_ACCOUNT_MS;
}

function checkLinks(text: string, newAccount: boolean): void {
  const links = linksIn(text);
  if (newAccount && links > 0) throw new AppError('BAD_INPUT', 'spamNewAccountLinks', { text: 'spamNewAccountLinks' });
  if (links > MAX_LINKS) throw new AppError('BAD_INPUT', 'spamTooManyLinks', { text: 'spamTooManyLinks' });
}

/**
 * The spam rules for a new comment or reply (docs/product.md §11): more than MAX_LINKS links, any link
 * from an account younger than 24 h, a sixth post of such an account, or text the author already
 * posted in the last 24 h is refused with a message saying which. SPAM_RULES=0 turns them off.
 */
export function checkNewPost(deps: Deps, userId: string, text: string, now = Date.now()): void {
  if (!deps.env.SPAM_RULES) return;
  const newAccount = isNewAccount(deps, userId, now);
  checkLinks(text, newAccount);
  const q = prepared(deps.db);
  if (newAccount) {
    // Everything a new account wrote is from its first day: its user indexes count it.
    const posts = (q.commentCount.get({ userId })?.n ?? 0) + (q.replyCount.get({ userId })?.n ?? 0);
    if (posts >= NEW_ACCOUNT_POSTS) throw new AppError('FORBIDDEN', 'spamNewAccountPosts');
  }
  const since = now - REPEAT_WINDOW_MS;
  const repeated = q.repeatedComment.get({ userId, text, since }) ?? q.repeatedReply.get({ userId, text, since });
  if (repeated) throw new AppError('BAD_INPUT', 'spamRepeated', { text: 'spamRepeated' });
}

/** An edit may not add what a new post could not: too many links, or any from a new account. */
export function checkEditedPost(deps: Deps, userId: string, text: string, now = Date.now()): void {
  if (!deps.env.SPAM_RULES) return;
  checkLinks(text, isNewAccount(deps, userId, now));
}
