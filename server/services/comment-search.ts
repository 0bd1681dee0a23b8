import type { Statement } from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_PREFIX_CHARS, searchKeyOf, splitSearchWords, type Db } from '../../db/client';
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

/**
 * How long a new comment waits in comments_fts_queue before the timer indexes it. Searches index
 * the queue first, so this only decides how many comments share one index commit: at 1,000
 * comments a second about 50, whose batch takes some 7 ms.
 */
export const INDEX_DELAY_MS = 50;

type Indexer = { queued: Statement; index: Statement; clear: Statement; timer: NodeJS.Timeout | null };
const indexers = new WeakMap<Db, Indexer>();

function indexerOf(db: Db): Indexer {
  let found = indexers.get(db);
  if (!found) {
    const sqlite = db.$client;
    found = {
      queued: sqlite.prepare('SELECT 1 FROM comments_fts_queue LIMIT 1').pluck(),
      // CROSS JOIN keeps the queue as the outer loop: the planner has no statistics for a table
      // that is empty most of the time and would otherwise scan all comments.
      index: sqlite.prepare(
        `INSERT INTO comments_fts (rowid, words)
         SELECT c.rowid, search_words(c.business_id, c.text, c.business_location, u.first_name || ' ' || u.last_name)
         FROM comments_fts_queue q CROSS JOIN comments c ON c.rowid = q.comment_rowid
         LEFT JOIN users u ON u.id = c.user_id`,
      ),
      clear: sqlite.prepare('DELETE FROM comments_fts_queue'),
      timer: null,
    };
    indexers.set(db, found);
  }
  return found;
}

/**
 * Adds every queued comment (migration 0005) to the search index in one transaction and empties
 * the queue; returns how many it indexed. A comment deleted while queued has left the queue
 * (delete trigger); one edited while queued is indexed as it reads now.
 */
export function indexQueuedComments(db: Db): number {
  const indexer = indexerOf(db);
  if (!indexer.queued.get()) return 0;
  return db.$client.transaction(() => {
    const indexed = indexer.index.run().changes;
    indexer.clear.run();
    return indexed;
  })();
}

/** After posting: indexes the queue within INDEX_DELAY_MS, together with whatever else is posted meanwhile. */
export function scheduleQueuedIndexing(db: Db): void {
  const indexer = indexerOf(db);
  if (indexer.timer) return;
  indexer.timer = setTimeout(() => {
    indexer.timer = null;
    if (!db.$client.open) return;
    try {
      indexQueuedComments(db);
    } catch {
      // The queue stays as it is: the next search indexes it first and reports the error.
    }
  }, INDEX_DELAY_MS);
  indexer.timer.unref();
}

type Writer = Pick<Db, 'run'>;

/**
 * Takes a comment out of the search index (hidden by reports, or removed by a moderator), in the
 * caller's transaction. Later edits and author renames update no row; queueForSearch puts it back.
 */
export function dropFromSearch(db: Writer, commentId: string): void {
  db.run(sql`delete from comments_fts_queue where comment_rowid = (select rowid from ${comments} where ${comments.id} = ${commentId})`);
  db.run(sql`delete from comments_fts where rowid = (select rowid from ${comments} where ${comments.id} = ${commentId})`);
}

/** Queues a comment to be indexed again (reports dismissed); indexed before the next search reads the index. */
export function queueForSearch(db: Writer, commentId: string): void {
  db.run(sql`insert or ignore into comments_fts_queue (comment_rowid) select rowid from ${comments} where ${comments.id} = ${commentId}`);
}
