import { sql, type SQL } from 'drizzle-orm';
import { comments } from '../../db/schema';

/** More words than this add nothing a reader would type and only slow the match down. */
const MAX_TERMS = 8;

/**
 * Turns what a user typed into an FTS5 query: every word quoted (so no character the user types
 * can be FTS syntax) and given a prefix `*`, words joined by AND. Null when nothing searchable
 * remains (empty text clears the search). The result is always bound as a parameter.
 */
export function ftsQueryOf(text: string): string | null {
  const terms = text
    .normalize('NFC')
    .split(/[\s"]+/u)
    // A term with no letter or digit would tokenise to nothing, which FTS5 rejects.
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .slice(0, MAX_TERMS)
    .map((term) => `"${term}"*`);
  return terms.length > 0 ? terms.join(' ') : null;
}

/**
 * Limits comments to those whose branch location, text or author name match `query` (from
 * ftsQueryOf, or a placeholder for it). SQLite-only SQL stays in this module (ARCHITECTURE.md).
 * comments_fts shares the comments' rowid; its business_id column narrows the match before the
 * rowids are handed to the per-business index walk.
 */
export function matchesSearch(query: SQL | string, businessId: SQL | string): SQL {
  return sql`${comments}.rowid in (select rowid from comments_fts where comments_fts match ${query} and business_id = ${businessId})`;
}

/** SQLite reports a malformed FTS query as an ordinary error; it is the user's input, not ours. */
export function isFtsQueryError(err: unknown): boolean {
  return err instanceof Error && /fts5|unterminated string|syntax error|no such column/i.test(err.message);
}
