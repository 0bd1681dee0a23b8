import { sql, type SQL } from 'drizzle-orm';
import { comments } from '../../db/schema';

/** More words than this add nothing a reader would type and only slow the match down. */
const MAX_TERMS = 8;

/**
 * Turns what a user typed into an FTS5 query for one business: every word quoted (so no
 * character the user types can be FTS syntax; punctuation separates words, as in the index) and given a prefix `*`, words joined by AND and
 * looked for in the branch location, text and author name, ANDed with the business's key token
 * (hex of its id, see migration 0003) so FTS5 intersects the two lists instead of matching a
 * common word site-wide. Null when nothing searchable remains (empty text clears the search).
 * The result is always bound as a parameter.
 */
export function ftsQueryOf(businessId: string, text: string): string | null {
  const terms = text
    .normalize('NFC')
    // Split where the unicode61 tokenizer splits, so every term is one token (the index keeps no
    // positions, so a multi-token phrase could not be matched).
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .slice(0, MAX_TERMS)
    .map((term) => `"${term}"*`);
  if (terms.length === 0) return null;
  return `business_key : "${businessKeyOf(businessId)}" AND {text location author} : (${terms.join(' ')})`;
}

/** The FTS token of a business: its id in hex, as the triggers write it with SQLite's hex(). */
export const businessKeyOf = (businessId: string) => Buffer.from(businessId, 'utf8').toString('hex').toUpperCase();

/**
 * Rowids of the newest `limit` comments matching `query` (from ftsQueryOf, or a placeholder),
 * optionally only those posted before the comment with rowid `before`. comments_fts shares the
 * comments' rowids, which grow in posting order, so FTS5 walks its lists newest first and stops
 * at the limit. SQLite-only SQL stays in this module (ARCHITECTURE.md).
 */
export function searchedRowids(query: SQL, limit: SQL, before?: SQL): SQL {
  const after = before ? sql` and rowid < ${before}` : sql``;
  return sql`${comments}.rowid in (select rowid from comments_fts where comments_fts match ${query}${after} order by rowid desc limit ${limit})`;
}

/** SQLite reports a malformed FTS query as an ordinary error; it is the user's input, not ours. */
export function isFtsQueryError(err: unknown): boolean {
  return err instanceof Error && /fts5|unterminated string|syntax error|no such column/i.test(err.message);
}
