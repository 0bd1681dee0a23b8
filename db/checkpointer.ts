import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './client';

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
  return {
    async stop() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await exited;
    },
  };
}
