import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../db/client';
import { verifyBackup } from '../services/ops/backup';

const run = promisify(execFile);
/** A row of about 4 KB in a table the migrations make (given up, so no worker would send it). */
const FILL =
  'INSERT INTO mail_outbox (id, to_address, subject, text_body, next_attempt_at, created_at, failed_at) ' +
  "VALUES (lower(hex(randomblob(8))), 'x@example.se', 's', hex(randomblob(2000)), 0, 0, 0)";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-backup-writes-'));
  const db = openDb(path.join(dir, 'recensera.sqlite'));
  migrateDb(db);
  // About 24 MB (6,000 pages): a stepwise copy of 100 pages needs 60 steps, and the writer below
  // writes between any two of them.
  // The rows go into a table the migrations make: a backup with any other is refused (issue 27).
  const insert = db.$client.prepare(FILL);
  db.$client.transaction(() => {
    for (let i = 0; i < 6000; i++) insert.run();
  })();
  closeDb(db);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another process writing as fast as it can: what a busy server does to `npm run backup`. */
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
const write = db.prepare(\`${FILL.replace('2000', '100')}\`);
let writes = 0;
const tick = () => { write.run(); writes++; setTimeout(tick, 2); };
tick();
process.on('SIGTERM', () => { process.stdout.write(String(writes)); db.close(); process.exit(0); });
`;

/**
 * Issue 26 (4): SQLite's online backup restarts whenever another connection writes between two
 * steps, so `npm run backup` beside a busy server never finished. It copies every page in one
 * step now and finishes in bounded time however the writes go on.
 */
describe('npm run backup under steady writes', { timeout: 120_000 }, () => {
  it('finishes within the deadline while another process keeps writing, and the copy is sound', async () => {
    const writer = spawn(process.execPath, ['-e', WRITER, path.join(dir, 'recensera.sqlite')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let written = '';
    writer.stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const writerDone = new Promise<void>((resolve) => writer.on('exit', () => resolve()));
    try {
      const dest = path.join(dir, 'backup');
      const started = performance.now();
      // tsx's start is most of this on a busy machine; the copy itself takes well under a second.
      const { stdout } = await run(process.execPath, ['scripts/run-cli.mjs', 'backup', dest], {
        env: { ...process.env, DATA_DIR: dir, DEMO_DATA: '0' },
        timeout: 60_000,
      });
      const seconds = (performance.now() - started) / 1000;
      expect(stdout).toContain(`Backup written to ${dest}`);
      expect(seconds).toBeLessThan(60);
      expect(writer.exitCode).toBeNull();
      const manifest = await verifyBackup(dest);
      expect(manifest.rows.mail_outbox).toBeGreaterThanOrEqual(6000);
    } finally {
      writer.kill('SIGTERM');
      await writerDone;
    }
    expect(Number(written)).toBeGreaterThan(0);
  });
});
