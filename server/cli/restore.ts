/**
 * `npm run restore -- <folder>`: puts a backup made by `npm run backup` (or the server's own
 * schedule) back into DATA_DIR. Refuses while a server uses DATA_DIR and checks the backup
 * first; what it replaces is kept in DATA_DIR/replaced-<time>/. The next start serves exactly
 * the backup. In Docker, with the container stopped:
 * `docker run --rm -v recensera-data:/data recensera npm run restore -- /data/backups/<name>`.
 */
import path from 'node:path';
import { loadEnvOrExit } from '../env';
import { existingDataDir } from './support/cli';
import { printable } from '../lib/printable';
import { BackupError, restoreBackup } from '../services/ops/backup';

const src = process.argv[2]?.trim();
if (!src || process.argv.length > 3) {
  console.error('Usage: npm run restore -- <backup folder>');
  process.exit(2);
}
const env = loadEnvOrExit();
try {
  const { manifest, replacedDir } = await restoreBackup(existingDataDir(env.DATA_DIR), path.resolve(src));
  // Everything the backup wrote (its manifest, names from its database) is printed with its
  // control characters escaped: escape codes could otherwise rewrite the operator's terminal.
  const rows = (manifest.rows ?? {}) as Record<string, string | number | undefined>;
  console.log(
    printable(
      `Restored the backup of ${String(manifest.createdAt)} (schema ${String(manifest.schemaVersion)}, ${String(rows.users ?? 0)} users, ${String(rows.comments ?? 0)} comments).`,
    ),
  );
  if (replacedDir) console.log(printable(`What it replaced is kept in ${replacedDir}.`));
} catch (err) {
  // One line for the operator, never a stack trace (a missing DATA_DIR, a damaged backup).
  const message = err instanceof BackupError ? err.message : err instanceof Error ? err.message : String(err);
  console.error(printable(`Not restored: ${message}`));
  process.exit(1);
}
