import { mkdirSync } from 'node:fs';
import { migrateDb, openDb, type Db } from '../../db/client';

/** Error codes that mean the data directory cannot be written: file system and SQLite. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_PERM']);

/**
 * The one line to print when `err` says DATA_DIR cannot be written, naming the setting and the
 * user the server runs as (the one who needs write access); null for any other error.
 */
export function dataDirProblem(err: unknown, dataDir: string): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNWRITABLE.has(code)) return null;
  const message = err instanceof Error ? err.message.replace(/\s+/g, ' ') : '';
  const detail = message.startsWith(code) ? message : `${code}: ${message}`;
  return (
    `DATA_DIR ${dataDir} is not writable by uid ${process.getuid?.() ?? 'unknown'} (${detail}). ` +
    'Give that user write access to it, or set DATA_DIR to a directory it can write to.'
  );
}

/**
 * Creates the upload folder and opens and migrates the database in DATA_DIR. A directory the
 * server cannot write to ends the process with one line instead of a stack trace.
 */
export function openDataDir(uploads: string, dbFile: string, dataDir: string): Db {
  try {
    mkdirSync(uploads, { recursive: true });
    const db = openDb(dbFile);
    migrateDb(db);
    return db;
  } catch (err) {
    const problem = dataDirProblem(err, dataDir);
    if (!problem) throw err;
    console.error(problem);
    process.exit(1);
  }
}
