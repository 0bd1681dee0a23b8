/**
 * `npm run backup -- <folder>`: a consistent backup of the site in DATA_DIR, taken while it
 * runs (SQLite's online backup API), with the uploads and a manifest. In Docker:
 * `docker exec <container> npm run backup -- /data/backups/before-upgrade`.
 */
import path from 'node:path';
import { closeDb, openDb } from '../../db/client';
import { loadEnvOrExit } from '../env';
import { BackupError, createBackup, DB_FILE } from '../services/backup';

const dest = process.argv[2]?.trim();
if (!dest || process.argv.length > 3) {
  console.error('Usage: npm run backup -- <folder>   (a new or empty folder)');
  process.exit(2);
}
const env = loadEnvOrExit();
const data = path.resolve(env.DATA_DIR);
const db = openDb(path.join(data, DB_FILE));
let code = 0;
try {
  const manifest = await createBackup(db, path.join(data, 'uploads'), path.resolve(dest));
  const uploads = manifest.files.length - 1;
  console.log(
    `Backup written to ${path.resolve(dest)}: schema ${manifest.schemaVersion}, ${manifest.rows.users ?? 0} users, ${manifest.rows.comments ?? 0} comments, ${uploads} uploads.`,
  );
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(err.message);
  code = 1;
} finally {
  closeDb(db);
}
process.exit(code);
