/**
 * `npm run backup -- <folder>`: a consistent backup of the site in DATA_DIR, taken while it
 * runs (SQLite's online backup API, every page in one step), with the uploads and a manifest. In Docker:
 * `docker exec <container> npm run backup -- /data/backups/before-upgrade`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { closeDb, openDb } from '../../db/client';
import { loadEnvOrExit } from '../env';
import { CliError, existingDataDir } from './support/cli';
import { createBackup, DB_FILE } from '../services/ops/backup';

const dest = process.argv[2]?.trim();
if (!dest || process.argv.length > 3) {
  console.error('Usage: npm run backup -- <folder>   (a new or empty folder)');
  process.exit(2);
}
const env = loadEnvOrExit();
const data = existingDataDir(env.DATA_DIR);
if (!existsSync(path.join(data, DB_FILE))) throw new CliError(`${path.join(data, DB_FILE)} does not exist: DATA_DIR is not a Recensera data folder.`);
const db = openDb(path.join(data, DB_FILE));
try {
  // One step: the server writes through its own connection, which would restart a stepwise copy.
  const manifest = await createBackup(db, path.join(data, 'uploads'), path.resolve(dest), { oneStep: true });
  const uploads = manifest.files.length - 1;
  console.log(
    `Backup written to ${path.resolve(dest)}: schema ${manifest.schemaVersion}, ${manifest.rows.users ?? 0} users, ${manifest.rows.comments ?? 0} comments, ${uploads} uploads.`,
  );
} finally {
  closeDb(db);
}
process.exit(0);
