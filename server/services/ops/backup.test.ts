import { createHash } from 'node:crypto';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';

import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../../db/client';
import { createTestUser, freePort, type TestUser } from '../../test/helpers';
import { insertBusiness, pngBytes } from '../../test/comment-fixtures';
import { pruneBackups } from './backup';

const exec = promisify(execFile);
let root: string;
let data: string;
let server: ChildProcess | null = null;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-backup-'));
  data = path.join(root, 'data');
});
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ ...process.env, DATA_DIR: data, DEMO_DATA: '0', BACKUP_EVERY: '0', LOG_LEVEL: 'info', ...extra });

/** The real server (from source), resolved once it listens. */
async function startServer(): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: env({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Recensera is up')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.on('exit', () => reject(new Error(`server exited:\n${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, log: () => log };
}

/** An operator command (npm run backup / restore) as the README gives it. */
async function cli(name: string, arg: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['scripts/run-cli.mjs', name, arg], { env: env() });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

async function postComment(url: string, user: TestUser, businessId: string, text: string) {
  const form = new FormData();
  form.append('text', text);
  form.append('businessLocation', 'Centrum');
  form.append('image', new Blob([new Uint8Array(await pngBytes(320, 240))], { type: 'image/png' }), 'foto.png');
  const res = await fetch(`${url}/api/comment/create/${businessId}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { _id: string; image: string };
  return { id: body._id, image: body.image };
}

const rowsOf = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).pluck().all();
  } finally {
    db.close();
  }
};

describe('backup and restore (npm run backup / npm run restore)', { timeout: 120_000 }, () => {
  it('restores exactly what was backed up after more writes and a SIGKILL, and refuses while the server runs', async () => {
    const dbFile = path.join(data, 'recensera.sqlite');
    mkdirSync(data, { recursive: true });
    const setup = openDb(dbFile);
    migrateDb(setup);
    const user = await createTestUser(setup, { email: 'fotograf@example.se' });
    const businessId = insertBusiness(setup, 'Fotobutiken');
    closeDb(setup);

    const first = await startServer();
    const kept = await postComment(first.url, user, businessId, 'Före säkerhetskopian, med bild.');

    const backupDir = path.join(root, 'backup-1');
    const backup = await cli('backup', backupDir);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('1 comments');
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ app: 'recensera', schemaVersion: expect.stringMatching(/^\d{4}_/), rows: { users: 1, comments: 1, businesses: 1 } });
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(['recensera.sqlite', `uploads/${path.basename(kept.image)}`]);

    // Written after the backup: must not survive the restore.
    const lost = await postComment(first.url, user, businessId, 'Efter säkerhetskopian.');
    const more = openDb(dbFile);
    await createTestUser(more, { email: 'senare@example.se' });
    closeDb(more);

    // Restore refuses while the server uses the folder.
    const refused = await cli('restore', backupDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/^Not restored: A Recensera server \(pid \d+\) is using /);

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    server = null;
    // An unclean stop leaves the WAL with the later writes beside the database.
    expect(existsSync(`${dbFile}-wal`)).toBe(true);

    const restored = await cli('restore', backupDir);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/What it replaced is kept in .*replaced-/);
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
    expect(rowsOf(dbFile, 'SELECT text FROM comments')).toEqual(['Före säkerhetskopian, med bild.']);
    expect(rowsOf(dbFile, 'SELECT email FROM users')).toEqual(['fotograf@example.se']);
    expect(readdirSync(path.join(data, 'uploads'))).toEqual([path.basename(kept.image)]);

    // The next start serves exactly the backup, photo included.
    const second = await startServer();
    const list = (await (await fetch(`${second.url}/api/comment/${businessId}`)).json()) as { _id: string }[];
    expect(list.map((c) => c._id)).toEqual([kept.id]);
    expect((await fetch(`${second.url}${kept.image}`)).status).toBe(200);
    expect((await fetch(`${second.url}${lost.image}`)).status).toBe(404);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    server = null;
  });

  it('refuses a damaged backup and changes nothing', async () => {
    const backupDir = path.join(root, 'backup-1');
    const upload = readdirSync(path.join(backupDir, 'uploads'))[0];
    writeFileSync(path.join(backupDir, 'uploads', upload), 'not the picture');
    const before = statSync(path.join(data, 'recensera.sqlite')).mtimeMs;
    const res = await cli('restore', backupDir);
    expect(res.code).toBe(1);
    expect(res.out).toContain(`uploads/${upload} in the backup does not match its checksum`);
    expect(statSync(path.join(data, 'recensera.sqlite')).mtimeMs).toBe(before);
  });

  it('refuses a manifest that lists a symlink, another name, or no database', async () => {
    const evil = path.join(root, 'backup-evil');
    mkdirSync(path.join(evil, 'uploads'), { recursive: true });
    cpSync(path.join(root, 'backup-1', 'recensera.sqlite'), path.join(evil, 'recensera.sqlite'));
    const outside = path.join(root, 'secret.txt');
    writeFileSync(outside, 'TOP-SECRET');
    const name = `${'b'.repeat(64)}.webp`;
    symlinkSync(outside, path.join(evil, 'uploads', name));
    const entry = (rel: string, file = path.join(evil, rel)) => ({
      path: rel,
      bytes: statSync(file).size,
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    });
    const manifest = JSON.parse(readFileSync(path.join(root, 'backup-1', 'manifest.json'), 'utf8'));
    const write = (files: unknown[]) => writeFileSync(path.join(evil, 'manifest.json'), JSON.stringify({ ...manifest, files }));

    write([entry('recensera.sqlite'), entry(`uploads/${name}`)]);
    expect((await cli('restore', evil)).out).toContain(`uploads/${name} in the backup is not a regular file`);
    write([entry('recensera.sqlite'), { ...entry(`uploads/${name}`), path: '../secret.txt' }]);
    expect((await cli('restore', evil)).out).toContain('lists files a backup does not have');
    write([entry(`uploads/${name}`)]);
    expect((await cli('restore', evil)).out).toContain('lists files a backup does not have');
    write([{ path: 42 }]);
    expect((await cli('restore', evil)).code).toBe(1);
    expect(existsSync(path.join(data, 'uploads', name))).toBe(false);
  });

  it('keeps the newest BACKUP_KEEP scheduled backups', async () => {
    const dir = path.join(root, 'scheduled');
    for (const name of ['recensera-20261120-010000Z', 'recensera-20261121-010000Z', 'recensera-20261122-010000Z', 'recensera-20261122-020000Z-before-0006_x']) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'manifest.json'), '{}');
    }
    expect(await pruneBackups(dir, 2)).toEqual(['recensera-20261120-010000Z']);
    expect(readdirSync(dir).sort()).toEqual(['recensera-20261121-010000Z', 'recensera-20261122-010000Z', 'recensera-20261122-020000Z-before-0006_x']);
  });
});
