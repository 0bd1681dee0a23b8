import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, migrationsFolder, openDb, type Db } from '../../../db/client';
import { BackupError, createBackup, pruneBackups } from './backup';

let root: string;
let db: Db;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-backup-fail-'));
  db = openDb(path.join(root, 'recensera.sqlite'));
  migrateDb(db);
  mkdirSync(path.join(root, 'uploads'));
});
afterAll(() => {
  closeDb(db);
  rmSync(root, { recursive: true, force: true });
});

/** Issue 26 (6): a failed backup leaves nothing that looks like one, and says why in one line. */
describe('backups that cannot be finished', () => {
  it('checks free space first and says how much is needed, leaving no folder', async () => {
    const dest = path.join(root, 'backups', 'too-big');
    const err = await createBackup(db, path.join(root, 'uploads'), dest, { freeBytes: async () => 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as Error).message).toMatch(/^Not enough free space for a backup in .*backups: it needs about \d+ MB, 1 MB is free\. /);
    expect((err as Error).message).not.toContain('\n');
    expect(existsSync(dest)).toBe(false);
  });

  it('removes a backup that fails after the database was copied', async () => {
    const dest = path.join(root, 'backups', 'half');
    // The uploads "folder" is a file: listing it fails once the database copy is written.
    const notAFolder = path.join(root, 'not-a-folder');
    writeFileSync(notAFolder, 'x');
    const err = await createBackup(db, notAFolder, dest).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as Error).message).toMatch(/^The backup into .*half failed and was removed \(.*ENOTDIR/);
    expect(existsSync(dest)).toBe(false);
  });

  it('prunes folders without a manifest a day after they were begun, named ones too', async () => {
    const dir = path.join(root, 'pruned');
    const make = (name: string, finished: boolean) => {
      mkdirSync(path.join(dir, name, 'uploads'), { recursive: true });
      if (finished) writeFileSync(path.join(dir, name, 'manifest.json'), '{}');
    };
    make('recensera-20261120-010000Z', true);
    make('recensera-20261121-010000Z', false);
    make('recensera-20261121-020000Z-before-0015_x', false);
    make('recensera-20261124-230000Z', false);
    make('my-own-folder', false);
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    expect(await pruneBackups(dir, 7, now)).toEqual(['recensera-20261121-010000Z', 'recensera-20261121-020000Z-before-0015_x']);
    expect(readdirSync(dir).sort()).toEqual(['my-own-folder', 'recensera-20261120-010000Z', 'recensera-20261124-230000Z']);
  });
});

describe('the backup before a migration', () => {
  it('failing stops the start with one line, and the database stays unmigrated', { timeout: 60_000 }, () => {
    // A database of the previous release (every migration but the newest): the start must back it up.
    const older = path.join(root, 'older-migrations');
    cpSync(migrationsFolder, older, { recursive: true });
    const journalFile = path.join(older, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
    journal.entries.pop();
    writeFileSync(journalFile, JSON.stringify(journal));
    const data = path.join(root, 'older-site');
    mkdirSync(data);
    const old = openDb(path.join(data, 'recensera.sqlite'));
    migrateDb(old, older);
    const applied = () => old.$client.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get();
    const before = applied();

    const file = path.join(root, 'backups-is-a-file');
    writeFileSync(file, 'x');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: { ...process.env, DATA_DIR: data, BACKUP_DIR: file, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(result.status).toBe(1);
    const stderr = result.stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Not started, the database was not migrated: the backup before migrating failed\. Cannot make the backup folder .*ENOTDIR/);
    expect(applied()).toBe(before);
    closeDb(old);
  });
});
