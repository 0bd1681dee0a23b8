import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { migrateDb, migrationsFolder, type Db } from '../../../db/client';

/** A migration this release ships (db/migrations/meta/_journal.json): its name and its stamp. */
export type MigrationInfo = { tag: string; when: number };

let known: MigrationInfo[] | null = null;

export function knownMigrations(): MigrationInfo[] {
  known ??= (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: MigrationInfo[] }).entries.map(
    ({ tag, when }) => ({ tag, when }),
  );
  return known;
}

/** The stamp of the last migration applied to a database (drizzle's own table), or null. */
function lastApplied(sqlite: Database.Database): number | null {
  const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!table) return null;
  const row = sqlite.prepare('SELECT max(created_at) AS last FROM __drizzle_migrations').get() as { last: number | null };
  return row.last === null ? null : Number(row.last);
}

/** The name of a database's schema: its last migration, 'empty', or 'unknown-<stamp>' (newer release). */
export function schemaVersionOf(sqlite: Database.Database): string {
  const last = lastApplied(sqlite);
  if (last === null) return 'empty';
  return knownMigrations().find((m) => m.when === last)?.tag ?? `unknown-${last}`;
}

export class NewerSchemaError extends Error {}

type Log = { info(obj: object, msg: string): void };

/**
 * Brings a database to this release's schema. A database that a newer release has migrated is
 * refused (naming both versions) rather than run by code that does not know its tables. A
 * database that already holds data is backed up first (`backup`, given the migrations about to
 * run). All pending migrations run in one transaction, each named in the log.
 */
export async function upgradeDatabase(db: Db, options: { log: Log; backup?: (firstPending: string) => Promise<string> }): Promise<MigrationInfo[]> {
  const migrations = knownMigrations();
  const newest = migrations[migrations.length - 1];
  const last = lastApplied(db.$client);
  if (last !== null && last > newest.when) {
    throw new NewerSchemaError(
      `The database was migrated by a newer release of Recensera (schema ${schemaVersionOf(db.$client)}); this release knows schemas up to ${newest.tag}. ` +
        'Run that newer release, or restore a backup made with this one (npm run restore).',
    );
  }
  const pending = migrations.filter((m) => last === null || m.when > last);
  if (pending.length === 0) return [];
  if (last !== null && options.backup) {
    const folder = await options.backup(pending[0].tag);
    options.log.info({ backup: folder, from: schemaVersionOf(db.$client) }, 'backup taken before migrating');
  }
  for (const m of pending) options.log.info({ migration: m.tag, written: new Date(m.when).toISOString() }, 'applying migration');
  const started = performance.now();
  migrateDb(db);
  options.log.info({ migrations: pending.length, ms: Math.round(performance.now() - started), schema: newest.tag }, 'database migrated');
  return pending;
}
