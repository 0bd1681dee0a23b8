import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_PREFIX_CHARS, searchKeyOf, splitSearchWords } from '../../db/client';
import { comments } from '../../db/schema';

/** More words than this add nothing a reader would type and only slow the match down. */
const MAX_TERMS = 8;

/**
 * Turns what a user typed into an FTS5 query for one business: every word quoted (so no
 * character the user types can be FTS syntax; punctuation separates words, as in the index),
 * prefixed with the business's key as the index stores it (migration 0004); words are ANDed. A
 * word matches the business's comments whose text, branch location or author name has a word
 * starting with it: an exact token for a word of up to SEARCH_PREFIX_CHARS characters (each
 * prefix is indexed), a prefix query over whole long words beyond that.
 * Null when nothing searchable remains (empty text clears the search). Always bound as a parameter.
 */
export function ftsQueryOf(businessId: string, text: string): string | null {
  const key = searchKeyOf(businessId);
  const terms = splitSearchWords(text)
    .slice(0, MAX_TERMS)
    // A short word is indexed with each of its prefixes; a longer one only whole (db/client.ts).
    .map((term) => ([...term].length <= SEARCH_PREFIX_CHARS ? `"${key}${term}"` : `"${key}${term}"*`));
  return terms.length === 0 ? null : terms.join(' AND ');
}

/**
 * Rowids of the newest `limit` comments matching `query` (from ftsQueryOf, or a placeholder),
 * optionally only those posted before the comment with rowid `before`. comments_fts shares the
 * comments' rowids, which grow in posting order, so FTS5 walks its lists newest first and stops
 * at the limit. SQLite-only SQL stays in this module (ARCHITECTURE.md).
 */
export function searchedRowids(query: SQL, limit: SQL, before?: SQL): SQL {
  const after = before ? sql` and rowid < ${before}` : sql``;
  // `(… + 0)`: a bare LIMIT parameter would make SQLite compile the statement on every run (keptLimit).
  return sql`${comments}.rowid in (select rowid from comments_fts where comments_fts match ${query}${after} order by rowid desc limit (${limit} + 0))`;
}

/** SQLite reports a malformed FTS query as an ordinary error; it is the user's input, not ours. */
export function isFtsQueryError(err: unknown): boolean {
  return err instanceof Error && /fts5|unterminated string|syntax error|no such column/i.test(err.message);
}
