/**
 * Issue 27 (9): backups crafted to attack the operator's site through `npm run restore` — a
 * trigger that makes an account admin, an image row whose name leads out of uploads/, escape
 * codes in the manifest — and the image sweep against such a row.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../../db/client';
import { images } from '../../../db/schema';
import { createTestApp, createTestUser } from '../../test/helpers';
import { createBackup } from './backup';
import { sweepUnreferencedImages } from '../comments/images';

const exec = promisify(execFile);
let root: string;
let good: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-crafted-'));
  const source = path.join(root, 'source');
  mkdirSync(path.join(source, 'uploads'), { recursive: true });
  const db = openDb(path.join(source, 'recensera.sqlite'));
  migrateDb(db);
  await createTestUser(db, { email: 'agare@example.se' });
  good = path.join(root, 'good');
  await createBackup(db, path.join(source, 'uploads'), good);
  closeDb(db);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the good backup with its database changed by `sql` and its manifest made to match. */
function crafted(name: string, sql: string, manifestChanges: Record<string, unknown> = {}): string {
  const dir = path.join(root, name);
  cpSync(good, dir, { recursive: true });
  const file = path.join(dir, 'recensera.sqlite');
  const sqlite = new Database(file);
  sqlite.exec(sql);
  sqlite.pragma('journal_mode = DELETE');
  sqlite.close();
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; bytes: number; sha256: string }[] };
  for (const entry of manifest.files.filter((f) => f.path === 'recensera.sqlite')) {
    entry.bytes = statSync(file).size;
    entry.sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, ...manifestChanges }));
  return dir;
}

async function restore(backup: string, dataDir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['scripts/run-cli.mjs', 'restore', backup], {
      env: { ...process.env, DATA_DIR: dataDir, DEMO_DATA: '0', LOG_LEVEL: 'silent' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

const freshDataDir = (name: string) => {
  const dir = path.join(root, `data-${name}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

describe('npm run restore with a crafted backup', { timeout: 120_000 }, () => {
  it('refuses a database with a trigger, a view or a table the migrations do not make, restoring nothing', async () => {
    const cases = {
      trigger: 'CREATE TRIGGER promote AFTER INSERT ON sessions BEGIN UPDATE users SET is_admin = 1 WHERE id = NEW.user_id; END;',
      view: 'CREATE VIEW everyone AS SELECT * FROM users;',
      table: 'CREATE TABLE notes (x TEXT);',
      index: 'CREATE INDEX users_first_name_idx ON users (first_name);',
      changed: 'DROP INDEX IF EXISTS email_tokens_user_kind_idx; CREATE INDEX email_tokens_user_kind_idx ON email_tokens (user_id);',
    };
    for (const [name, sql] of Object.entries(cases)) {
      const data = freshDataDir(name);
      const res = await restore(crafted(`evil-${name}`, sql), data);
      expect(res.code, res.out).toBe(1);
      expect(res.out).toMatch(/^Not restored: The backup's database has a schema this release's migrations do not make \(/);
      expect(res.out.trim().split('\n')).toHaveLength(1);
      expect(existsSync(path.join(data, 'recensera.sqlite'))).toBe(false);
    }
  });

  it('refuses a database that names an upload outside uploads/', async () => {
    const outside = path.join(root, 'precious.txt');
    writeFileSync(outside, 'keep me');
    const data = freshDataDir('traversal');
    const sql = `INSERT INTO images (id, file_name, kind, mime, width, height, bytes, owner_id, created_at)
      VALUES ('img1', '../../precious.txt', 'avatar', 'image/webp', 1, 1, 7, NULL, 0);`;
    const res = await restore(crafted('evil-name', sql), data);
    expect(res.code, res.out).toBe(1);
    expect(res.out).toContain('names an upload "../../precious.txt", which is not a content-hash file name');
    expect(existsSync(path.join(data, 'recensera.sqlite'))).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
  });

  it('prints text from the backup with its control characters escaped', async () => {
    const data = freshDataDir('escapes');
    const fake = '2026-01-01\u001b[2K\r\u001b[32mverified OK\u001b[0m\n';
    const res = await restore(crafted('evil-escapes', 'SELECT 1;', { createdAt: fake, rows: { users: '1\u001b]0;owned\u0007' } }), data);
    expect(res.code, res.out).toBe(0);
    expect([...res.out].filter((c) => c !== '\n' && /\p{Cc}/u.test(c))).toEqual([]);
    expect(res.out).toContain('Restored the backup of 2026-01-01\\u{1b}[2K\\u{d}\\u{1b}[32mverified OK\\u{1b}[0m\\u{a} (schema');
    expect(res.out.trim().split('\n')).toHaveLength(1);
  });

  it('says in one line, without a stack trace, that DATA_DIR is missing (issue 26)', async () => {
    const res = await restore(good, path.join(root, 'no-such-folder'));
    expect(res.code).toBe(1);
    expect(res.out.trim()).toMatch(/^Not restored: DATA_DIR .*no-such-folder does not exist\. [^\n]*$/);
  });

  it('restores a backup that is what this release made', async () => {
    const data = freshDataDir('good');
    const res = await restore(good, data);
    expect(res.code, res.out).toBe(0);
    expect(existsSync(path.join(data, 'recensera.sqlite'))).toBe(true);
  });
});

describe('the image sweep', () => {
  it('never turns a name from the database that is not a content hash into a path', async () => {
    const t = await createTestApp();
    try {
      const outside = path.join(t.deps.paths.uploads, '..', 'precious.txt');
      writeFileSync(outside, 'keep me');
      t.db
        .insert(images)
        .values({ id: 'crafted', fileName: '../precious.txt', kind: 'avatar', mime: 'image/webp', width: 1, height: 1, bytes: 7, createdAt: 0 })
        .run();
      await expect(sweepUnreferencedImages(t.deps)).rejects.toThrow(/could not remove 1 upload file/);
      expect(readFileSync(outside, 'utf8')).toBe('keep me');
    } finally {
      await t.close();
    }
  });
});
