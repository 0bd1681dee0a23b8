import type { Statement } from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { comments } from '../../../db/schema';
import { searchIndexWrite } from '../../lib/data-stamp';

/**
 * Words up to this many characters are indexed with every prefix as its own token, so a search for
 * the start of a word is an exact-token lookup; longer words are also indexed whole.
 */
export const SEARCH_PREFIX_CHARS = 12;

/**
 * The tokens of a comment as comment search indexes them (migration 0004), each prefixed with
 * its business's key, so a search reads only that business's lists. Every word is indexed with
 * each of its first SEARCH_PREFIX_CHARS prefixes ('kaffe' → k, ka, kaf, kaff, kaffe), which makes
 * "words starting with …" an exact token: FTS5 then walks the list lazily, newest first, and stops
 * at the page, instead of merging the lists of every matching word. Words are split where the
 * search splits them; the FTS tokenizer then folds case and diacritics.
 */
export function searchWordsOf(businessId: string, ...texts: (string | null)[]): string {
  const key = searchKeyOf(businessId);
  const tokens = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of splitSearchWords(text)) {
      const chars = [...word];
      let prefix = '';
      for (let i = 0; i < Math.min(chars.length, SEARCH_PREFIX_CHARS); i++) tokens.add(key + (prefix += chars[i]));
      if (chars.length > SEARCH_PREFIX_CHARS) tokens.add(key + word);
    }
  }
  return [...tokens].join(' ');
}

/** A business's search key: its id in lower-case hex and an `x`, which no hex digit can be, so keys never run into words. */
export const searchKeyOf = (businessId: string) => `${Buffer.from(businessId, 'utf8').toString('hex')}x`;

/** Words as search sees them: letters, digits and marks between anything else; at least one letter or digit. */
export function splitSearchWords(text: string): string[] {
  return text
    .normalize('NFC')
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
}

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
    // A short word is indexed with each of its prefixes; a longer one only whole (searchWordsOf).
    .map((term) => ([...term].length <= SEARCH_PREFIX_CHARS ? `"${key}${term}"` : `"${key}${term}"*`));
  return terms.length === 0 ? null : terms.join(' AND ');
}

/**
 * Comments among the newest `limit` matching `query` (from ftsQueryOf, or a placeholder),
 * optionally only those posted before the comment with rowid `before` (the page cursor). The
 * index is keyed by comments.search_rowid (migration 0011), given in posting order, so FTS5 walks
 * its lists newest first and stops at the limit. Each key is turned into the comment's rowid
 * through comments_search_rowid_idx (a covering lookup), so the caller's `order by rowid desc`
 * still walks the matched rowids in order, with no sort. SQLite-only SQL stays in this module
 * (ARCHITECTURE.md).
 */
export function searchedRowids(query: SQL, limit: SQL, before?: SQL): SQL {
  const after = before
    ? sql` and comments_fts.rowid < (select cursor_row.search_rowid from ${comments} as cursor_row where cursor_row.rowid = ${before})`
    : sql``;
  // `(… + 0)`: a bare LIMIT parameter would make SQLite compile the statement on every run (keptLimit).
  return sql`${comments}.rowid in (select keyed.rowid from ${comments} as keyed where keyed.search_rowid in (select rowid from comments_fts where comments_fts match ${query}${after} order by rowid desc limit (${limit} + 0)))`;
}

/**
 * The condition "this comment matches `query`" (from ftsQueryOf, or a placeholder) for a query
 * that walks comments in its own order (an index on the business and a sort key) and tests each
 * row it reads: the row's search_rowid against every key the index matches. Never `rowid in (select rowid from comments_fts …)`: the
 * index is keyed by search_rowid (migration 0011), which differs from the rowid once a comment
 * was deleted before a newer one was indexed, or after a table rebuild. The `+` keeps SQLite from
 * walking comments_search_rowid_idx instead of the caller's index.
 */
export function matchesSearch(query: SQL | string): SQL {
  return sql`+${comments.searchRowid} in (select rowid from comments_fts where comments_fts match ${query})`;
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

type Indexer = {
  queued: Statement;
  lastKey: Statement;
  keyless: Statement;
  setKey: Statement;
  batch: Statement;
  unindex: Statement;
  index: Statement;
  clear: Statement;
  timer: NodeJS.Timeout | null;
};
type QueuedRow = { rowid: number; searchRowid: number; businessId: string; text: string; location: string; author: string | null };
const indexers = new WeakMap<Db, Indexer>();
/** Queued comments read per statement: better-sqlite3 cannot write while a read is still open. */
const BATCH = 500;

function indexerOf(db: Db): Indexer {
  let found = indexers.get(db);
  if (!found) {
    const sqlite = db.$client;
    found = {
      queued: sqlite.prepare('SELECT 1 FROM comments_fts_queue LIMIT 1').pluck(),
      lastKey: sqlite.prepare('SELECT coalesce(max(search_rowid), 0) FROM comments').pluck(),
      keyless: sqlite.prepare('SELECT rowid FROM comments WHERE search_rowid IS NULL ORDER BY rowid').pluck(),
      setKey: sqlite.prepare('UPDATE comments SET search_rowid = ? WHERE rowid = ?'),
      // The author as others see the name (services/accounts/names.ts): a last name shown only as its
      // initial is not searchable, or a search would tie it to the posts.
      // CROSS JOIN keeps the queue as the outer loop: the planner has no statistics for a table
      // that is empty most of the time and would otherwise scan all comments.
      batch: sqlite.prepare(
        `SELECT q.comment_rowid AS rowid, c.search_rowid AS searchRowid, c.business_id AS businessId, c.text, c.business_location AS location,
           u.first_name || CASE WHEN u.name_display = 'initial' THEN '' ELSE ' ' || u.last_name END AS author
         FROM comments_fts_queue q CROSS JOIN comments c ON c.rowid = q.comment_rowid
         LEFT JOIN users u ON u.id = c.user_id
         WHERE q.comment_rowid > ? ORDER BY q.comment_rowid LIMIT ${BATCH}`,
      ),
      unindex: sqlite.prepare('DELETE FROM comments_fts WHERE rowid = ?'),
      index: sqlite.prepare('INSERT INTO comments_fts (rowid, words) VALUES (?, ?)'),
      clear: sqlite.prepare('DELETE FROM comments_fts_queue'),
      timer: null,
    };
    indexers.set(db, found);
  }
  return found;
}

/**
 * Indexes every queued comment (migrations 0005 and 0011) in one transaction and empties the
 * queue; returns how many it indexed. The triggers only queue: a new comment, an edit of a public
 * comment's text, branch or business, and an author's rename; the words are computed here
 * (searchWordsOf), so the schema calls no application function and any SQLite client may write.
 * Comments get their search key first, in posting order, if they have none yet. A comment
 * deleted while queued has left the queue (delete trigger); one edited while queued is indexed
 * as it reads now; one indexed before is replaced.
 */
export function indexQueuedComments(db: Db): number {
  const indexer = indexerOf(db);
  if (!indexer.queued.get()) return 0;
  // Only searches show the index, and they are kept under `all` (data-stamp.ts).
  return searchIndexWrite(
    db,
    db.$client.transaction(() => {
      // Keys above this one were given just now, so no index row can hold them yet.
      const givenBefore = indexer.lastKey.get() as number;
      let next = givenBefore;
      for (const rowid of indexer.keyless.all() as number[]) indexer.setKey.run(++next, rowid);
      let indexed = 0;
      let after = 0;
      for (;;) {
        const rows = indexer.batch.all(after) as QueuedRow[];
        for (const r of rows) {
          if (r.searchRowid <= givenBefore) indexer.unindex.run(r.searchRowid);
          indexer.index.run(r.searchRowid, searchWordsOf(r.businessId, r.text, r.location, r.author));
        }
        indexed += rows.length;
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1].rowid;
      }
      indexer.clear.run();
      return indexed;
    }),
  );
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
 * caller's transaction. The triggers queue no hidden or removed comment, so later edits and
 * author renames leave it out; queueForSearch puts it back.
 */
export function dropFromSearch(db: Writer, commentId: string): void {
  db.run(sql`delete from comments_fts_queue where comment_rowid = (select rowid from ${comments} where ${comments.id} = ${commentId})`);
  db.run(sql`delete from comments_fts where rowid = (select ${comments.searchRowid} from ${comments} where ${comments.id} = ${commentId})`);
}

/** Queues a comment to be indexed again (reports dismissed); indexed before the next search reads the index. */
export function queueForSearch(db: Writer, commentId: string): void {
  db.run(sql`insert or ignore into comments_fts_queue (comment_rowid) select rowid from ${comments} where ${comments.id} = ${commentId}`);
}
