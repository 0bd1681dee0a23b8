import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { copyFile, link, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { closeDb, migrateDb, migrationsFolder, openDb, type Db } from '../../db/client';
import { isUploadFileName } from '../lib/urls';
import type { Deps } from '../deps';
import { knownMigrations, schemaVersionOf } from './schema-version';
import { findRunningServer } from '../lib/server-lock';

/**
 * Backups of a site: a consistent copy of the database made with SQLite's online backup API
 * while the site runs, the uploads beside it and a manifest (time, schema version, row counts,
 * a SHA-256 of every file). `npm run backup`, the server's schedule (BACKUP_EVERY) and the
 * backup taken before a migration all make the same folder; `npm run restore` puts one back.
 */
export const DB_FILE = 'recensera.sqlite';
export const MANIFEST = 'manifest.json';
const FORMAT = 1;

export type BackupManifest = {
  format: number;
  app: 'recensera';
  createdAt: string;
  /** The last migration applied to the copied database, e.g. '0006_pending_credentials_mail_outbox'. */
  schemaVersion: string;
  rows: Record<string, number>;
  files: { path: string; bytes: number; sha256: string }[];
};

export class BackupError extends Error {}

/** An upload in a backup: the content hash names the file (images.ts). */
const UPLOAD_PATH = /^uploads\/[0-9a-f]{64}\.[a-z0-9]{2,5}$/;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Row counts of every table of ours (not SQLite's own, nor the search index and its shadow tables). */
function rowCounts(sqlite: Database.Database): Record<string, number> {
  const all = sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
    name: string;
    sql: string;
  }[];
  const virtual = all.filter((t) => /^CREATE VIRTUAL/i.test(t.sql)).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => name === v || ['data', 'idx', 'content', 'docsize', 'config'].some((part) => name === `${v}_${part}`));
  const tables = all.map((t) => t.name).filter((name) => !shadow(name));
  return Object.fromEntries(
    tables.map((name) => [
      name,
      sqlite
        .prepare(`SELECT count(*) FROM "${name.replace(/"/g, '""')}"`)
        .pluck()
        .get() as number,
    ]),
  );
}

/** Upload files are immutable and named by their content, so a hard link is a safe, free copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
    await copyFile(from, to);
  }
}

async function uploadNames(uploads: string): Promise<string[]> {
  if (!existsSync(uploads)) return [];
  const entries = await readdir(uploads, { withFileTypes: true });
  // Files still being written (.tmp-*) are not uploads yet.
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

/**
 * Writes a backup of the running site into `dest` (a new or empty folder): the database first
 * (online backup: a consistent snapshot while writes go on), then every upload, then the
 * manifest last, so a folder with a manifest is a finished backup.
 */
export async function createBackup(db: Db, uploads: string, dest: string, now = new Date()): Promise<BackupManifest> {
  await mkdir(dest, { recursive: true });
  if ((await readdir(dest)).length > 0) throw new BackupError(`${dest} is not empty; choose a new folder for the backup.`);
  const dbCopy = path.join(dest, DB_FILE);
  await db.$client.backup(dbCopy);

  const copy = new Database(dbCopy, { readonly: true });
  let schemaVersion: string;
  let rows: Record<string, number>;
  try {
    schemaVersion = schemaVersionOf(copy);
    rows = rowCounts(copy);
  } finally {
    copy.close();
  }

  await mkdir(path.join(dest, 'uploads'));
  const names = await uploadNames(uploads);
  for (const name of names) await linkOrCopy(path.join(uploads, name), path.join(dest, 'uploads', name));

  const files: BackupManifest['files'] = [];
  for (const rel of [DB_FILE, ...names.map((n) => `uploads/${n}`)]) {
    const file = path.join(dest, rel);
    files.push({ path: rel, bytes: (await stat(file)).size, sha256: await sha256Of(file) });
  }
  const manifest: BackupManifest = { format: FORMAT, app: 'recensera', createdAt: now.toISOString(), schemaVersion, rows, files };
  await writeFile(path.join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Checks a backup folder before anything is replaced: a manifest this release understands,
 * every listed file present with its size and SHA-256, no upload that is not listed, SQLite's
 * integrity check, and a schema this release knows (not one a newer release migrated).
 */
export async function verifyBackup(src: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(src, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${src} has no readable ${MANIFEST}; it is not a finished Recensera backup.`);
  }
  if (manifest.app !== 'recensera' || manifest.format !== FORMAT || !Array.isArray(manifest.files)) {
    throw new BackupError(`${src}/${MANIFEST} is not a Recensera backup manifest of format ${FORMAT}.`);
  }
  // Only the database and content-named uploads, each a regular file in the folder itself: a
  // symlink or another name could make a restore read (and the site serve) a file from elsewhere.
  const paths = manifest.files.map((f) => (f as { path?: unknown }).path);
  if (
    !paths.every((p) => typeof p === 'string' && (p === DB_FILE || UPLOAD_PATH.test(p))) ||
    !paths.includes(DB_FILE) ||
    new Set(paths).size !== paths.length
  ) {
    throw new BackupError(`${src}/${MANIFEST} lists files a backup does not have.`);
  }
  for (const entry of manifest.files) {
    const file = path.join(src, entry.path);
    const info = await lstat(file).catch(() => null);
    if (!info) throw new BackupError(`${entry.path} is missing from the backup.`);
    if (!info.isFile()) throw new BackupError(`${entry.path} in the backup is not a regular file.`);
    if (info.size !== entry.bytes || (await sha256Of(file)) !== entry.sha256) {
      throw new BackupError(`${entry.path} in the backup does not match its checksum; the backup is damaged.`);
    }
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const name of await uploadNames(path.join(src, 'uploads'))) {
    if (!listed.has(`uploads/${name}`)) throw new BackupError(`uploads/${name} is in the backup folder but not in its manifest.`);
  }
  const copy = new Database(path.join(src, DB_FILE), { readonly: true });
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`The backup's database fails SQLite's integrity check: ${String(result)}`);
    const version = schemaVersionOf(copy);
    if (version !== manifest.schemaVersion) throw new BackupError('The backup database does not match its manifest.');
    if (version !== 'empty' && !knownMigrations().some((m) => m.tag === version)) {
      throw new BackupError(`The backup was made by a newer release (schema ${version}); restore it with that release.`);
    }
    // Nothing but what this release's migrations make: a trigger, view or table more runs (or
    // waits) in the restored site with the app's rights, e.g. making an account admin (issue 27).
    const differences = schemaDifferences(schemaOf(copy), expectedSchema(version));
    if (differences.length > 0) {
      throw new BackupError(
        `The backup's database has a schema this release's migrations do not make (${differences.slice(0, 3).join('; ')}); it is not restored.`,
      );
    }
    const names = version === 'empty' ? [] : copy.prepare('SELECT file_name FROM images').pluck().all();
    const bad = names.find((name) => !isUploadFileName(name));
    if (bad !== undefined) throw new BackupError(`The backup's database names an upload ${JSON.stringify(bad)}, which is not a content-hash file name.`);
  } finally {
    copy.close();
  }
  return manifest;
}

const stampOf = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');

export type RestoreResult = { manifest: BackupManifest; replacedDir: string | null };

type SchemaEntry = { type: string; name: string; tbl_name: string; sql: string | null };

/** A database's schema as SQLite keeps it; the statistics ANALYZE writes are data, not schema. */
function schemaOf(sqlite: Database.Database): SchemaEntry[] {
  return sqlite.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name").all() as SchemaEntry[];
}

const expectedSchemas = new Map<string, SchemaEntry[]>();

/**
 * The schema this release's migrations make up to `version` (the backup's; the start migrates
 * the rest), from a fresh database in memory migrated with a journal cut at that version.
 */
function expectedSchema(version: string): SchemaEntry[] {
  if (version === 'empty') return [];
  const known = expectedSchemas.get(version);
  if (known) return known;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-schema-'));
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === version) + 1);
    mkdirSync(path.join(dir, 'meta'));
    writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
    for (const { tag } of journal.entries) copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(dir, `${tag}.sql`));
    const fresh = openDb(':memory:');
    try {
      migrateDb(fresh, dir);
      const schema = schemaOf(fresh.$client);
      expectedSchemas.set(version, schema);
      return schema;
    } finally {
      closeDb(fresh);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What one schema has that the other lacks or defines otherwise, named for the operator. */
function schemaDifferences(actual: SchemaEntry[], expected: SchemaEntry[]): string[] {
  const key = (e: SchemaEntry) => `${e.type} ${e.name}`;
  const wanted = new Map(expected.map((e) => [key(e), e]));
  const found = new Map(actual.map((e) => [key(e), e]));
  const out: string[] = [];
  for (const [k, e] of found) {
    const w = wanted.get(k);
    if (!w) out.push(`an extra ${k}`);
    else if (w.sql !== e.sql || w.tbl_name !== e.tbl_name) out.push(`a changed ${k}`);
  }
  for (const k of wanted.keys()) if (!found.has(k)) out.push(`no ${k}`);
  return out;
}

/**
 * Puts a verified backup in place of DATA_DIR's database and uploads, only while no server uses
 * the folder. What it replaces is moved aside (DATA_DIR/replaced-<time>/), and the old -wal and
 * -shm files go with it: SQLite would otherwise replay a stale WAL over the restored database.
 */
export async function restoreBackup(dataDir: string, src: string, now = new Date()): Promise<RestoreResult> {
  const folder = await stat(dataDir).catch(() => null);
  if (!folder?.isDirectory()) throw new BackupError(`DATA_DIR (${dataDir}) is not a folder; create it or set DATA_DIR, then restore.`);
  const running = findRunningServer(dataDir);
  if (running) throw new BackupError(`A Recensera server (pid ${running.pid}) is using ${dataDir}. Stop it first, then restore.`);
  const manifest = await verifyBackup(src);

  const dbFile = path.join(dataDir, DB_FILE);
  const uploads = path.join(dataDir, 'uploads');
  const moving = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, 'uploads'].filter((name) => existsSync(path.join(dataDir, name)));
  let replacedDir: string | null = null;
  if (moving.length > 0) {
    replacedDir = path.join(dataDir, `replaced-${stampOf(now)}`);
    await mkdir(replacedDir, { recursive: true });
    for (const name of moving) await rename(path.join(dataDir, name), path.join(replacedDir, name));
  }

  const temp = `${dbFile}.restoring`;
  await copyFile(path.join(src, DB_FILE), temp);
  await mkdir(uploads, { recursive: true });
  for (const entry of manifest.files) {
    if (entry.path.startsWith('uploads/')) await linkOrCopy(path.join(src, entry.path), path.join(uploads, path.basename(entry.path)));
  }
  await rm(`${dbFile}-wal`, { force: true });
  await rm(`${dbFile}-shm`, { force: true });
  await rename(temp, dbFile);
  return { manifest, replacedDir };
}

export const BACKUP_PREFIX = 'recensera-';

/** A folder name for a backup made now: recensera-20261124-091500Z(-reason). */
export const backupFolderName = (now: Date, reason?: string) => `${BACKUP_PREFIX}${stampOf(now)}${reason ? `-${reason}` : ''}`;

/** Deletes the oldest finished scheduled backups beyond `keep` (named backups are left alone). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const scheduled = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && /^recensera-\d{8}-\d{6}Z$/.test(e.name) && existsSync(path.join(dir, e.name, MANIFEST)))
    .map((e) => e.name)
    .sort();
  const removed = scheduled.slice(0, Math.max(0, scheduled.length - keep));
  for (const name of removed) await rm(path.join(dir, name), { recursive: true, force: true });
  return removed;
}

/** When the newest finished scheduled backup in `dir` was made, or null. */
export async function newestBackupAt(dir: string): Promise<number | null> {
  if (!existsSync(dir)) return null;
  const names = (await readdir(dir)).filter((n) => /^recensera-\d{8}-\d{6}Z$/.test(n) && existsSync(path.join(dir, n, MANIFEST))).sort();
  const newest = names.at(-1);
  if (!newest) return null;
  const m = /^recensera-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z$/.exec(newest);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : null;
}

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The server's own backups (BACKUP_EVERY, BACKUP_KEEP, BACKUP_DIR): one every BACKUP_EVERY
 * counted from the newest one there (the first within an hour of a start without any), the
 * oldest beyond BACKUP_KEEP deleted. Returns a function that stops the schedule.
 */
export function startBackupSchedule(deps: Deps, log: Log): () => void {
  const every = deps.env.BACKUP_EVERY;
  if (every <= 0) return () => undefined;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const run = async () => {
    const dest = path.join(deps.paths.backups, backupFolderName(new Date()));
    try {
      const manifest = await createBackup(deps.db, deps.paths.uploads, dest);
      const removed = await pruneBackups(deps.paths.backups, deps.env.BACKUP_KEEP);
      log.info({ backup: dest, files: manifest.files.length, removed }, 'backup made');
    } catch (err) {
      log.error({ backup: dest, error: err instanceof Error ? err.message : String(err) }, 'backup failed');
    } finally {
      schedule(every);
    }
  };
  void newestBackupAt(deps.paths.backups).then((newest) =>
    schedule(newest === null ? Math.min(every, 60 * 60_000) : Math.max(60_000, newest + every - Date.now())),
  );
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
