import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDb, type Db } from '../../../db/client';
import { BackupError, backupFolderName, createBackup } from './backup';
import { NewerSchemaError, upgradeDatabase } from './schema-version';
import { takeServerLock } from '../../lib/server-lock';

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

type Log = { info(obj: object, msg: string): void };

/**
 * Creates the upload folder, opens the database in DATA_DIR, marks the folder as in use
 * (server.lock, for `npm run restore`) and brings the schema up to date, backing up a database
 * with data first. A directory the server cannot write to, or a database from a newer release,
 * ends the process with one line instead of a stack trace.
 */
export async function openDataDir(
  paths: { data: string; uploads: string; backups: string },
  dbFile: string,
  log: Log,
): Promise<{ db: Db; releaseLock: () => void }> {
  let releaseLock: (() => void) | null = null;
  try {
    mkdirSync(paths.uploads, { recursive: true });
    const db = openDb(dbFile);
    releaseLock = takeServerLock(paths.data);
    await upgradeDatabase(db, {
      log,
      backup: async (firstPending) => {
        const dest = path.join(paths.backups, backupFolderName(new Date(), `before-${firstPending}`));
        await createBackup(db, paths.uploads, dest);
        return dest;
      },
    });
    return { db, releaseLock };
  } catch (err) {
    releaseLock?.();
    const problem =
      err instanceof NewerSchemaError
        ? err.message
        : err instanceof BackupError
          ? `Not started, the database was not migrated: the backup before migrating failed. ${err.message}`
          : dataDirProblem(err, paths.data);
    if (!problem) throw err;
    console.error(problem);
    process.exit(1);
  }
}
