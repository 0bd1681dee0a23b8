import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'recensera-data-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts the real server with DATA_DIR set, optionally as another user; it should exit at once. */
function start(dataDir: string, asNobody = false) {
  const node = [process.execPath, '--import', 'tsx', 'server/index.ts'];
  const command = asNobody ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...node] : node;
  const result = spawnSync(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: '0', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr.trim() };
}

/** One line naming DATA_DIR and the user, no stack trace. */
function expectOneLine(stderr: string, dataDir: string, uid: number, code: string) {
  expect(stderr.split('\n'), stderr).toHaveLength(1);
  expect(stderr).toMatch(new RegExp(`^DATA_DIR ${dataDir} is not writable by uid ${uid} \\(${code}\\b`));
  expect(stderr).not.toMatch(/\n\s+at /);
}

// Root writes anywhere, so a path under a regular file (ENOTDIR) is the case that fails for all.
// The permission cases drop to uid 65534 with setpriv, where the test runs as root with it.
const canDropToNobody = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

describe('an unusable DATA_DIR', () => {
  it('under a regular file ends the server with one line', { timeout: 40_000 }, () => {
    const file = path.join(scratch, 'a-file');
    writeFileSync(file, 'not a directory');
    const dataDir = path.join(file, 'data');
    const { status, stderr } = start(dataDir);
    expect(status).toBe(1);
    expectOneLine(stderr, dataDir, process.getuid?.() ?? 0, 'ENOTDIR');
  });

  it.runIf(canDropToNobody)('the server user may not write names that user', { timeout: 40_000 }, () => {
    chmodSync(scratch, 0o755);
    const dataDir = path.join(scratch, 'root-owned');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const denied = start(dataDir, true);
    expect(denied.status).toBe(1);
    expectOneLine(denied.stderr, dataDir, 65534, 'EACCES');
    // The upload folder may be writable while the database cannot be created beside it.
    mkdirSync(path.join(dataDir, 'uploads'));
    chmodSync(path.join(dataDir, 'uploads'), 0o777);
    const noDb = start(dataDir, true);
    expect(noDb.status).toBe(1);
    expectOneLine(noDb.stderr, dataDir, 65534, 'SQLITE_CANTOPEN');
  });
});
