import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { readMigrationFiles } from 'drizzle-orm/migrator';
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

/** Opens (or creates) the SQLite file with the pragmas the whole app relies on. */
export function openDb(file: string): Db {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // SQLite's page cache: 8 MB. The file's pages stay in the operating system's cache anyway; 16 MB
  // made no difference to the write rows at scale 1 and was 8 MB more of the peak RSS at scale 10
  // (docs/operations/scaling.md, "Fourteenth session").
  sqlite.pragma('cache_size = -8000');
  sqlite.pragma('temp_store = MEMORY');
  // After a burst of writes the WAL file is cut back to this size once it has been checkpointed.
  sqlite.pragma('journal_size_limit = 67108864');
  // sv_fold(text): lib/sv-fold.ts in SQL (SQLite's lower() folds neither Å, Ä, Ö nor accents),
  // for searches that filter a bounded walk (comment moderation).
  sqlite.function('sv_fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.normalize('NFC').toLocaleLowerCase('sv-SE') : text));
  dropStat4Samples(sqlite);
  return drizzle(sqlite, { schema });
}

/**
 * SQLite as better-sqlite3 builds it has STAT4: ANALYZE (and PRAGMA optimize, which runs it)
 * also stores sample rows of each index in sqlite_stat4. A statement whose plan looked at those
 * samples for a bound value is compiled again every time a value is bound, and that hits joins
 * on an indexed equality, the session lookup among them (docs/decisions/004 has the numbers).
 * Our queries are index lookups that
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

/**
 * What migrateDb reports as it goes (`when` is the migration's stamp in the journal): a migration
 * about to run, each of its statements as it ends (a statement that rewrites a big table can take
 * minutes), and the end of the migration.
 */
export type MigrationProgress =
  | { kind: 'migration'; when: number; statements: number }
  | { kind: 'statement'; when: number; index: number; statements: number; sql: string; ms: number }
  | { kind: 'migrated'; when: number; ms: number };

/**
 * Applies the pending migrations of `folder`, as drizzle's migrator does (its table
 * __drizzle_migrations, its hashes, every pending migration in one transaction that a failure
 * rolls back), but statement by statement with `onProgress`, so a long upgrade is seen to move
 * (docs/decisions/019).
 */
export function migrateDb(db: Db, folder = migrationsFolder, onProgress: (progress: MigrationProgress) => void = () => {}): void {
  const sqlite = db.$client;
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  // drizzle's own text, tabs and all: sqlite_master keeps it as written.
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (\n\t\t\t\tid SERIAL PRIMARY KEY,\n\t\t\t\thash text NOT NULL,\n\t\t\t\tcreated_at numeric\n\t\t\t)',
  );
  const last = sqlite.prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1').pluck().get() as number | string | undefined;
  const pending = migrations.filter((m) => last === undefined || Number(last) < m.folderMillis);
  const record = sqlite.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)');
  sqlite.transaction(() => {
    for (const m of pending) {
      const started = performance.now();
      onProgress({ kind: 'migration', when: m.folderMillis, statements: m.sql.length });
      m.sql.forEach((statement, index) => {
        const t = performance.now();
        sqlite.exec(statement);
        onProgress({ kind: 'statement', when: m.folderMillis, index, statements: m.sql.length, sql: statement, ms: performance.now() - t });
      });
      record.run(m.hash, m.folderMillis);
      onProgress({ kind: 'migrated', when: m.folderMillis, ms: performance.now() - started });
    }
  })();
}

export function closeDb(db: Db): void {
  const sqlite = db.$client;
  if (!sqlite.open) return;
  sqlite.pragma('optimize');
  sqlite.close();
}
