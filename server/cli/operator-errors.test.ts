import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../db/client';

const exec = promisify(execFile);
const runCli = path.resolve('scripts/run-cli.mjs');
let root: string;
let data: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-cli-errors-'));
  data = path.join(root, 'data');
  mkdirSync(data);
  const db = openDb(path.join(data, 'recensera.sqlite'));
  migrateDb(db);
  closeDb(db);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A command run from `cwd` with only the given settings (none of the test runner's own). */
async function cli(args: string[], settings: Record<string, string>, cwd = root): Promise<{ code: number; out: string }> {
  const { PATH, HOME } = process.env;
  try {
    const { stdout, stderr } = await exec(process.execPath, [runCli, ...args], { cwd, env: { PATH, HOME, ...settings } });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

const oneLine = (out: string) => {
  expect(out.trimEnd().split('\n')).toHaveLength(1);
  expect(out).not.toMatch(/^\s+at /m);
};

/** Issue 26 (6) and 29 (14): every operator command fails with one line naming the cause. */
describe('operator commands', { timeout: 90_000 }, () => {
  it('say in one line that DATA_DIR does not exist (admin with no DATA_DIR, backup, restore)', async () => {
    // Run where there is no ./data, the default DATA_DIR.
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const admin = await cli(['admin', 'ny@example.se'], {}, elsewhere);
    expect(admin.code).toBe(1);
    oneLine(admin.out);
    expect(admin.out).toContain(`DATA_DIR ${path.join(elsewhere, 'data')} does not exist`);
    expect(admin.out).toContain('does not exist');

    const missing = path.join(root, 'nowhere');
    for (const args of [
      ['backup', path.join(root, 'b1')],
      ['restore', path.join(root, 'b1')],
    ]) {
      const result = await cli(args, { DATA_DIR: missing });
      expect(result.code).toBe(1);
      oneLine(result.out);
      expect(result.out).toContain(`DATA_DIR ${missing} does not exist`);
    }
  });

  it('backup: a folder that cannot be made is one line with the cause', async () => {
    const file = path.join(root, 'a-file');
    writeFileSync(file, 'x');
    const result = await cli(['backup', path.join(file, 'backup')], { DATA_DIR: data });
    expect(result.code).toBe(1);
    oneLine(result.out);
    expect(result.out).toContain('ENOTDIR');
  });

  it("admin without PUBLIC_URL prints a one-time link on the server's PORT", async () => {
    const result = await cli(['admin', 'ny.chef@example.se'], { DATA_DIR: data, PORT: '8123' });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^http:\/\/localhost:8123\/reset-password\?token=\S+$/m);
  });
});
