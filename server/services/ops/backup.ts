import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { copyFile, link, lstat, mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { closeDb, migrateDb, migrationsFolder, openDb, type Db } from '../../../db/client';
import { isUploadFileName } from '../../lib/urls';
import type { Deps } from '../deps';
import { knownMigrations, schemaVersionOf } from './schema-version';
import { findRunningServer } from '../../lib/server-lock';

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

/** Bytes free for an unprivileged user on the file system holding `dir` (or its nearest existing parent). */
async function freeBytes(dir: string): Promise<number> {
  let at = dir;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const fs = await statfs(at);
  return fs.bavail * fs.bsize;
}

const size = async (file: string) => (await stat(file).catch(() => null))?.size ?? 0;
const mb = (bytes: number) => `${Math.ceil(bytes / 1_000_000)} MB`;

/**
 * What a backup into `dest` will take: the database (its WAL too: the copy holds every page it
 * has) and the uploads that cannot be hard links (another file system than the backup's).
 */
async function bytesNeeded(dbFile: string, uploads: string, names: string[], dest: string): Promise<number> {
  const dbBytes = (await size(dbFile)) + (await size(`${dbFile}-wal`));
  const sameDevice = (await stat(uploads).catch(() => null))?.dev === (await stat(dest)).dev;
  let uploadBytes = 0;
  if (!sameDevice) for (const name of names) uploadBytes += await size(path.join(uploads, name));
  return dbBytes + uploadBytes;
}

export type BackupOptions = {
  now?: Date;
  /**
   * Copy every page in one step. Another process's connection must (`npm run backup` beside a
   * running server): SQLite restarts an online backup whenever another connection writes
   * between two steps, so a stepwise copy never finishes while writes keep coming. One step
   * holds a read transaction for the copy (WAL lets writers go on) and blocks this thread
   * meanwhile, so the server itself copies stepwise: its own writes update the copy in place.
   */
  oneStep?: boolean;
  /** Free bytes on the backup's file system; tests pretend a full disk. */
  freeBytes?: (dir: string) => Promise<number>;
};

/**
 * Writes a backup of the running site into `dest` (a new or empty folder): the database first
 * (online backup: a consistent snapshot while writes go on), then every upload, then the
 * manifest last, so a folder with a manifest is a finished backup. It first checks that the
 * disk has room, and a backup that fails half-way (a full disk while copying uploads) is removed.
 */
export async function createBackup(db: Db, uploads: string, dest: string, options: BackupOptions = {}): Promise<BackupManifest> {
  await mkdir(dest, { recursive: true }).catch((err: unknown) => {
    const code = (err as { code?: string }).code ?? '';
    throw new BackupError(`Cannot make the backup folder ${dest} (${code}${code === 'ENOTDIR' ? ': part of the path is a file' : ''}).`);
  });
  if ((await readdir(dest)).length > 0) throw new BackupError(`${dest} is not empty; choose a new folder for the backup.`);
  try {
    const names = await uploadNames(uploads);
    const needed = await bytesNeeded(db.$client.name, uploads, names, dest);
    const free = await (options.freeBytes ?? freeBytes)(dest);
    // A margin for the manifest, the file system's own blocks and writes made while copying.
    if (free < needed * 1.1 + 1_000_000) {
      throw new BackupError(
        `Not enough free space for a backup in ${path.dirname(dest)}: it needs about ${mb(needed * 1.1 + 1_000_000)}, ${mb(free)} is free. ` +
          'Free some space there, or set BACKUP_DIR to a disk with room.',
      );
    }
    return await writeBackup(db, uploads, dest, options);
  } catch (err) {
    // Nothing half-written stays behind to look like a backup (the folder was new or empty).
    await rm(dest, { recursive: true, force: true }).catch(() => undefined);
    if (err instanceof BackupError) throw err;
    const code = (err as { code?: string }).code;
    const reason = err instanceof Error ? err.message.replace(/\s+/g, ' ') : String(err);
    throw new BackupError(`The backup into ${dest} failed and was removed (${code === 'ENOSPC' ? 'the disk is full' : reason}).`);
  }
}

async function writeBackup(db: Db, uploads: string, dest: string, options: BackupOptions): Promise<BackupManifest> {
  const dbCopy = path.join(dest, DB_FILE);
  // The progress callback answers how many pages the next step copies (100 by default).
  await db.$client.backup(dbCopy, { progress: () => (options.oneStep ? 0x7fffffff : 100) });

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
  // Listed after the copy: an upload's file is written before the row that uses it, so every
  // upload the copied database refers to is here.
  const names = await uploadNames(uploads);
  for (const name of names) await linkOrCopy(path.join(uploads, name), path.join(dest, 'uploads', name));

  const files: BackupManifest['files'] = [];
  for (const rel of [DB_FILE, ...names.map((n) => `uploads/${n}`)]) {
    const file = path.join(dest, rel);
    files.push({ path: rel, bytes: (await stat(file)).size, sha256: await sha256Of(file) });
  }
  const manifest: BackupManifest = {
    format: FORMAT,
    app: 'recensera',
    createdAt: (options.now ?? new Date()).toISOString(),
    schemaVersion,
    rows,
    files,
  };
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

/** A backup folder still without a manifest this long after its name's time was left by a crash. */
export const UNFINISHED_AFTER_MS = 24 * 60 * 60_000;

const timeOfName = (name: string): number | null => {
  const m = /^recensera-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z/.exec(name);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : null;
};

/**
 * Deletes the oldest finished scheduled backups beyond `keep` (named backups are left alone),
 * and any backup folder (scheduled or before a migration) that has no manifest a day after it
 * was begun: a backup that failed removes itself, so such a folder is what a crash left behind.
 */
export async function pruneBackups(dir: string, keep: number, now = Date.now()): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const folders = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const finished = (name: string) => existsSync(path.join(dir, name, MANIFEST));
  const scheduled = folders.filter((name) => /^recensera-\d{8}-\d{6}Z$/.test(name) && finished(name)).sort();
  const unfinished = folders.filter((name) => {
    const at = timeOfName(name);
    return at !== null && !finished(name) && now - at > UNFINISHED_AFTER_MS;
  });
  const removed = [...scheduled.slice(0, Math.max(0, scheduled.length - keep)), ...unfinished.sort()];
  for (const name of removed) await rm(path.join(dir, name), { recursive: true, force: true });
  return removed;
}

/** When the newest finished scheduled backup in `dir` was made, or null. */
export async function newestBackupAt(dir: string): Promise<number | null> {
  if (!existsSync(dir)) return null;
  const names = (await readdir(dir)).filter((n) => /^recensera-\d{8}-\d{6}Z$/.test(n) && existsSync(path.join(dir, n, MANIFEST))).sort();
  const newest = names.at(-1);
  return newest ? timeOfName(newest) : null;
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
      // Also after a failure (a full disk): what a crash left unfinished goes; finished ones stay.
      await pruneBackups(deps.paths.backups, deps.env.BACKUP_KEEP).catch(() => undefined);
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
