import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** What a `db.transaction((tx) => …)` callback is handed. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database or an open transaction: for work that joins the caller's transaction when there is one. */
export type DbOrTx = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>;

/** Where drizzle-kit writes migrations; resolved from this file so the bundled server finds it too. */
export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations');

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

/**
 * SQL functions our schema's triggers call; every connection that writes comments or user names
 * must have them (openDb does this; a raw better-sqlite3 connection calls it itself).
 */
export function registerSqlFunctions(sqlite: Database.Database): void {
  sqlite.function('search_words', { deterministic: true, varargs: true }, (businessId: unknown, ...texts: unknown[]) =>
    searchWordsOf(String(businessId), ...texts.map((t) => (typeof t === 'string' ? t : null))),
  );
}

/** Opens (or creates) the SQLite file with the pragmas the whole app relies on. */
export function openDb(file: string): Db {
  const sqlite = new Database(file);
  registerSqlFunctions(sqlite);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -16000');
  sqlite.pragma('temp_store = MEMORY');
  // After a burst of writes the WAL file is cut back to this size once it has been checkpointed.
  sqlite.pragma('journal_size_limit = 67108864');
  dropStat4Samples(sqlite);
  return drizzle(sqlite, { schema });
}

/**
 * SQLite as better-sqlite3 builds it has STAT4: ANALYZE (and PRAGMA optimize, which runs it)
 * also stores sample rows of each index in sqlite_stat4. A statement whose plan looked at those
 * samples for a bound value is compiled again every time a value is bound, and that hits joins
 * on an indexed equality: the session lookup (sessions join users by id) took 25 µs instead of
 * 7, and business ratings went up 18% without the samples. Our queries are index lookups that
 * the per-index averages in sqlite_stat1 plan just as well, so samples are removed on open.
 * They come from a full ANALYZE (the sqlite3 shell, the bench data set); PRAGMA optimize, which
 * closeDb runs, analyses with a row limit and writes none.
 */
export function dropStat4Samples(sqlite: Database.Database): void {
  const hasTable = sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat4'").get();
  if (!hasTable || !sqlite.prepare('SELECT 1 FROM sqlite_stat4 LIMIT 1').get()) return;
  sqlite.exec('DELETE FROM sqlite_stat4');
  // Makes the planner read the statistics again, now without samples.
  sqlite.exec('ANALYZE sqlite_schema');
}

export function migrateDb(db: Db, folder = migrationsFolder): void {
  migrate(db, { migrationsFolder: folder });
}

export function closeDb(db: Db): void {
  const sqlite = db.$client;
  if (!sqlite.open) return;
  sqlite.pragma('optimize');
  sqlite.close();
}
