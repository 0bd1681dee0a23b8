import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Where drizzle-kit writes migrations; resolved from this file so the bundled server finds it too. */
export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations');

/** Opens (or creates) the SQLite file with the pragmas the whole app relies on. */
export function openDb(file: string): Db {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -16000');
  sqlite.pragma('temp_store = MEMORY');
  // After a burst of writes the WAL file is cut back to this size once it has been checkpointed.
  sqlite.pragma('journal_size_limit = 67108864');
  return drizzle(sqlite, { schema }) as Db;
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
