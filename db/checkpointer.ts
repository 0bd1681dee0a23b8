import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { closeDb, type Db } from './client';

/** WAL pages after which the request thread still checkpoints itself, should the worker stall. */
const BACKSTOP_PAGES = 10_000;

/** What one PASSIVE checkpoint reported: WAL frames in the log, and how many are now in the file. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number };

// The worker's code: its own connection to the same file, copying committed WAL frames into the
// database file on a timer. It is plain CommonJS so it runs as is from source and from the bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('cache_size = -512');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    parentPort.postMessage({ result: checkpoint.get() });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export type Checkpointer = { stop(): Promise<void> };

/**
 * Checkpoints the WAL from a worker thread, so the request thread never pays for copying pages
 * into the database file and syncing it (SQLite's automatic checkpoint runs inside whichever
 * COMMIT crosses the threshold: a write now and then took ten times as long). `db`'s own
 * automatic checkpoint stays on as a backstop at BACKSTOP_PAGES.
 */
export function startCheckpointer(
  db: Db,
  file: string,
  options: { everyMs?: number; onResult?: (result: CheckpointResult) => void; onError?: (message: string) => void } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, everyMs: options.everyMs ?? 200 },
    // It holds one connection and a timer: a small heap keeps the whole server small.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
  });
  worker.unref();
  db.$client.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  worker.on('message', (message: { result?: CheckpointResult; error?: string }) => {
    if (message.result) options.onResult?.(message.result);
    if (message.error) options.onError?.(message.error);
  });
  worker.on('error', (err: Error) => options.onError?.(err.message));
  // A worker that died (an error above) has exited already: stop() must not wait for it.
  const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let exited: Promise<void> | null = null;
  return {
    stop() {
      // While it runs, the worker must not keep the process alive (unref above). While it stops,
      // it must: a shutdown awaits this once the HTTP server is closed, and with nothing else
      // holding the event loop Node would exit right here, before the database is closed and the
      // lock removed (issue 26: 14 of 16 SIGTERMs ended that way).
      if (!exited) {
        worker.ref();
        worker.postMessage('stop');
        exited = gone;
      }
      return exited;
    },
  };
}

/** What the server's last step did: its "stopped: database closed" line logs it. */
export type FinalClose = { optimized: true; checkpoint: CheckpointResult };

/**
 * The server's last step with the database, once the checkpointer is stopped and no request
 * runs: PRAGMA optimize (statistics for the next start), a TRUNCATE checkpoint (every WAL frame
 * copied into the file and the WAL emptied), then close. Only the server does this: a CLI
 * command beside a running server would wait on its readers for the TRUNCATE.
 */
export function closeAfterFinalCheckpoint(db: Db): FinalClose {
  const sqlite = db.$client;
  sqlite.pragma('optimize');
  // On success a TRUNCATE checkpoint reports busy 0 and log = checkpointed = 0 (the WAL is empty).
  const [checkpoint] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as CheckpointResult[];
  closeDb(db);
  return { optimized: true, checkpoint: checkpoint ?? { busy: -1, log: -1, checkpointed: -1 } };
}
