/**
 * What every operator command (server/cli/*) shares: it ends with one line naming the cause,
 * never a stack trace. Importing this module installs the handlers, so a command just throws
 * (CliError for its own messages) and whatever else fails is described the same way.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BackupError } from '../../services/ops/backup';
import { dataDirProblem } from '../../services/ops/data-dir';

/** A failure the command explains itself; printed as it is. */
export class CliError extends Error {}

const SQLITE_HINTS: Record<string, string> = {
  SQLITE_CANTOPEN: 'the database file cannot be opened',
  SQLITE_BUSY: 'the database is busy; try again',
  SQLITE_CORRUPT: 'the database file is damaged; restore a backup',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_FULL: 'the disk is full',
};

/** One line for any error: its message without line breaks, named by its code when it has one. */
export function describeFailure(err: unknown, dataDir?: string): string {
  if (dataDir) {
    const problem = dataDirProblem(err, dataDir);
    if (problem) return problem;
  }
  const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  if (err instanceof CliError || err instanceof BackupError) return message;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const hint = code === 'ENOSPC' ? 'the disk is full' : SQLITE_HINTS[code];
    return `Failed: ${message}${hint ? ` (${hint})` : ''} [${code}]`;
  }
  return `Failed: ${message}`;
}

let dataDir: string | undefined;

function fail(err: unknown) {
  console.error(describeFailure(err, dataDir));
  process.exit(1);
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

/**
 * DATA_DIR resolved, and checked to be an existing folder: a command never creates a site
 * somewhere else by mistake (the server's default is ./data, relative to where it runs).
 */
export function existingDataDir(setting: string): string {
  const dir = path.resolve(setting);
  if (!existsSync(dir)) {
    throw new CliError(`DATA_DIR ${dir} does not exist. Set DATA_DIR to the folder the server uses (the Docker image: /data), or create it first.`);
  }
  if (!statSync(dir).isDirectory()) throw new CliError(`DATA_DIR ${dir} is not a folder. Set DATA_DIR to the folder the server uses.`);
  dataDir = dir;
  return dir;
}
