/**
 * `npm run restore -- <folder>`: puts a backup made by `npm run backup` (or the server's own
 * schedule) back into DATA_DIR. Refuses while a server uses DATA_DIR and checks the backup
 * first; what it replaces is kept in DATA_DIR/replaced-<time>/. The next start serves exactly
 * the backup. In Docker, with the container stopped:
 * `docker run --rm -v recensera-data:/data recensera npm run restore -- /data/backups/<name>`.
 */
import path from 'node:path';
import { loadEnvOrExit } from '../env';
import { existingDataDir } from '../lib/cli';
import { BackupError, restoreBackup } from '../services/backup';

const src = process.argv[2]?.trim();
if (!src || process.argv.length > 3) {
  console.error('Usage: npm run restore -- <backup folder>');
  process.exit(2);
}
const env = loadEnvOrExit();
try {
  const { manifest, replacedDir } = await restoreBackup(existingDataDir(env.DATA_DIR), path.resolve(src));
  console.log(
    `Restored the backup of ${manifest.createdAt} (schema ${manifest.schemaVersion}, ${manifest.rows.users ?? 0} users, ${manifest.rows.comments ?? 0} comments).`,
  );
  if (replacedDir) console.log(`What it replaced is kept in ${replacedDir}.`);
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(`Not restored: ${err.message}`);
  process.exit(1);
}
