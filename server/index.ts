import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAfterFinalCheckpoint, startCheckpointer } from '../db/checkpointer';
import { seedDemoData } from './seed';
import { buildApp } from './app';
import { dataPaths, type Deps } from './services/deps';
import { loadEnvOrExit } from './env';
import { openDataDir } from './services/ops/data-dir';
import { startBackupSchedule } from './services/ops/backup';
import { indexQueuedComments } from './services/comments/comment-search';
import { fillTitleSortKeys } from './services/business/directory';
import { fillBusinessSearch } from './services/business/business-search';
import { createMailer } from './services/ops/mail';
import { createOutbox } from './services/ops/mail-outbox';
import { lockPublishedDemoPasswords } from './services/ops/demo-lock';
import { createRateLimits } from './services/rate-limits';
import { startMaintenance } from './services/ops/maintenance';
import { drainAllNotificationEvents } from './services/notifications/notifications';
import { runUpgradeTasks } from './services/ops/upgrade-tasks';
import { startupLog } from './lib/startup-log';

const startedAt = performance.now();
/** Milliseconds of each step of the start, in the "is up" line: what a slow start spent its time on. */
const phases: Record<string, number> = {};
let phaseMark = startedAt;
const phase = (name: string) => {
  const t = performance.now();
  phases[name] = Math.round(t - phaseMark);
  phaseMark = t;
};
const env = loadEnvOrExit();

const here = path.dirname(fileURLToPath(import.meta.url));
// Bundled (<build>/server/index.js) the client sits beside it; from source it is built into dist/.
const bundled = path.basename(fileURLToPath(import.meta.url)) === 'index.js';
const clientDir = path.resolve(here, bundled ? '../client' : '../dist/client');
const paths = dataPaths(env, clientDir);

// Written at once: the lines of a long migration show while it runs (lib/startup-log.ts).
const log = startupLog(env.LOG_LEVEL);
const dbFile = path.join(paths.data, 'recensera.sqlite');
const { db, releaseLock } = await openDataDir(paths, dbFile, log);
phase('openAndMigrate');
const checkpointer = startCheckpointer(db, dbFile, { onError: (message) => log.error({ message }, 'WAL checkpoint failed') });
// Mails queued by an earlier run (or while the mail server was down) go out from here on.
const outbox = createOutbox(db, createMailer(env, paths.outbox, log), log);
const deps: Deps = { db, env, outbox, limits: createRateLimits({ enabled: env.RATE_LIMITS }), paths };
void outbox.deliverDue();

if (env.DEMO_DATA) {
  const seeded = await seedDemoData(deps);
  if (seeded) {
    // Printed this once; the file keeps it (mode 600) for whoever runs the site.
    log.info('Demo data created. Demo accounts (password for all: %s, kept in %s):', seeded.password, seeded.file);
    for (const account of seeded.accounts) log.info('  %s%s', account.email, account.isAdmin ? ' (admin)' : '');
  }
}

// A 0.1.0 site's demo accounts still answer to the password its README published.
const lockedDemo = await lockPublishedDemoPasswords(db);
if (lockedDemo.length > 0) {
  log.warn(
    { accounts: lockedDemo },
    `Locked ${lockedDemo.length} demo account(s) that still had the password 0.1.0's README published (password removed, signed out; they cannot sign in). ` +
      'Make your own admin with `npm run admin -- you@example.se`, then ban or delete the demo accounts in User management (/user-mng).',
  );
}

// Businesses written before migration 0013 (or by a script) get their A–Ö key.
fillTitleSortKeys(db);
phase('demoAndSortKeys');
// Data upgrades the migrations queued (e.g. linking comments to branches, splitting branch towns):
// once, in a transaction each.
const upgraded = runUpgradeTasks(db);
if (upgraded.length > 0) log.info({ tasks: upgraded }, 'Data upgraded');
phase('upgradeTasks');
// Businesses without a directory search row (all of them after migration 0020, or a script's) get
// one, after the upgrades so that it holds the split towns.
fillBusinessSearch(db);
phase('businessSearch');
// Comments queued for the search index when the last run stopped, or written by a script.
indexQueuedComments(db);
phase('commentSearch');
const app = await buildApp(deps);
phase('buildApp');
const stopMaintenance = startMaintenance(deps, app.log);
const stopBackups = startBackupSchedule(deps, app.log);
const address = await app.listen({ port: env.PORT, host: env.HOST });
phase('listen');
// processMs also counts loading the modules, before startedAt.
app.log.info(
  { startupMs: Math.round(performance.now() - startedAt), processMs: Math.round(process.uptime() * 1000), phases, publicUrl: env.PUBLIC_URL },
  `Recensera is up on ${address}`,
);

/**
 * A stop must finish before the container runtime's SIGKILL (Docker and Podman wait 10 s):
 * requests in flight get REQUEST_GRACE_MS, then their connections are cut (a client trickling
 * an upload would otherwise hold app.close() open forever); a mail being sent gets a second
 * more (cut off, it stays queued); the database is then checkpointed and closed, and the
 * process exits 0. Should anything still hang, the watchdog exits at HARD_STOP_MS.
 */
const REQUEST_GRACE_MS = 5_000;
const MAIL_GRACE_MS = 1_000;
const HARD_STOP_MS = 7_500;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing open requests');
  // Not unref()ed: this timer also keeps the event loop alive until the shutdown has run to its
  // end, so Node cannot exit on its own while a step awaits something that does not hold it.
  setTimeout(() => {
    app.log.error({ afterMs: HARD_STOP_MS }, 'shutdown did not finish in time; exiting');
    process.exit(1);
  }, HARD_STOP_MS);
  const cut = setTimeout(() => {
    app.log.warn({ afterMs: REQUEST_GRACE_MS }, 'shutdown: cutting connections of requests still open');
    app.server.closeAllConnections();
  }, REQUEST_GRACE_MS);
  stopMaintenance();
  stopBackups();
  outbox.stop();
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
    await Promise.race([outbox.deliverDue(), new Promise((resolve) => setTimeout(resolve, MAIL_GRACE_MS).unref())]);
    await checkpointer.stop();
    indexQueuedComments(db);
    // Reaction notices wait in memory for their batch (docs/decisions/020): written before the close.
    try {
      drainAllNotificationEvents(db);
    } catch (err) {
      app.log.error({ err }, 'shutdown: notification fan-out failed');
    }
    const closed = closeAfterFinalCheckpoint(db);
    releaseLock();
    app.log.info(closed, 'stopped: database closed');
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
