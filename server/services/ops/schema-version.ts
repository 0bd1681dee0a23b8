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

/** A migration statement that takes at least this long is logged when it ends (SLOW_STEP_MS). */
export const SLOW_STEP_MS = 1_000;

/**
 * Brings a database to this release's schema. A database that a newer release has migrated is
 * refused (naming both versions) rather than run by code that does not know its tables. A
 * database that already holds data is backed up first (`backup`, given the migrations about to
 * run). All pending migrations run in one transaction. The log names each migration as it
 * starts, each statement that took `slowStepMs` or more as it ends (n of m, its time and its
 * first words) and each migration's time, so that an upgrade that rewrites a big table is seen
 * to move; the site does not listen until it is done.
 */
export async function upgradeDatabase(
  db: Db,
  options: { log: Log; backup?: (firstPending: string) => Promise<string>; slowStepMs?: number },
): Promise<MigrationInfo[]> {
  const slowStepMs = options.slowStepMs ?? SLOW_STEP_MS;
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
    const t = performance.now();
    // A big database takes a while to copy (about a minute a few GB); the log says what is going on.
    options.log.info({ migrations: pending.length, from: schemaVersionOf(db.$client) }, 'backing up before migrating');
    const folder = await options.backup(pending[0].tag);
    options.log.info({ backup: folder, from: schemaVersionOf(db.$client), ms: Math.round(performance.now() - t) }, 'backup taken before migrating');
  }
  const started = performance.now();
  const tagOf = (when: number) => migrations.find((m) => m.when === when)?.tag ?? String(when);
  let n = 0;
  migrateDb(db, migrationsFolder, (p) => {
    if (p.kind === 'migration') {
      n++;
      const m = { migration: tagOf(p.when), written: new Date(p.when).toISOString(), step: `${n}/${pending.length}`, statements: p.statements };
      options.log.info(m, 'applying migration');
    } else if (p.kind === 'statement' && p.ms >= slowStepMs) {
      const statement = p.sql
        .replace(/--[^\n]*/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 120);
      options.log.info(
        { migration: tagOf(p.when), statement: `${p.index + 1}/${p.statements}`, ms: Math.round(p.ms), sql: statement },
        'migration statement done',
      );
    } else if (p.kind === 'migrated' && p.ms >= slowStepMs) {
      options.log.info({ migration: tagOf(p.when), ms: Math.round(p.ms) }, 'migration applied');
    }
  });
  options.log.info({ migrations: pending.length, ms: Math.round(performance.now() - started), schema: newest.tag }, 'database migrated');
  return pending;
}
