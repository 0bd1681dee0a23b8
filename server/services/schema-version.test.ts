import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, migrationsFolder, openDb } from '../../db/client';
import { createTestUser } from '../test/helpers';
import { createBackup } from './backup';
import { knownMigrations, NewerSchemaError, schemaVersionOf, upgradeDatabase } from './schema-version';

const exec = promisify(execFile);
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-upgrade-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The migrations of an older release: every one but the newest. */
function olderRelease(): string {
  const folder = path.join(root, 'older-migrations');
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries.pop();
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

function recordingLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, info: (obj: object, msg: string) => lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

describe('upgrading the database at start', () => {
  it('backs up a database with data, then applies the pending migrations and logs each', async () => {
    const dir = path.join(root, 'site');
    const db = openDb(path.join(mkdtempSync(path.join(root, 'site-')), 'recensera.sqlite'));
    migrateDb(db, olderRelease());
    await createTestUser(db, { email: 'kvar@example.se' });
    const [previous, newest] = knownMigrations().slice(-2);
    expect(schemaVersionOf(db.$client)).toBe(previous.tag);

    const log = recordingLog();
    const backups: string[] = [];
    const applied = await upgradeDatabase(db, {
      log,
      backup: async (firstPending) => {
        const dest = path.join(dir, `before-${firstPending}`);
        await createBackup(db, path.join(dir, 'no-uploads'), dest);
        backups.push(dest);
        return dest;
      },
    });
    expect(applied.map((m) => m.tag)).toEqual([newest.tag]);
    expect(backups).toEqual([path.join(dir, `before-${newest.tag}`)]);
    const manifest = JSON.parse(readFileSync(path.join(backups[0], 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ schemaVersion: previous.tag, rows: { users: 1 } });
    expect(log.lines.map((l) => l.msg)).toEqual(['backup taken before migrating', 'applying migration', 'database migrated']);
    expect(log.lines[1].obj).toMatchObject({ migration: newest.tag });
    expect(log.lines[2].obj).toMatchObject({ migrations: 1, schema: newest.tag, ms: expect.any(Number) });
    expect(schemaVersionOf(db.$client)).toBe(newest.tag);

    // Up to date: nothing to do, nothing logged, no backup.
    const again = recordingLog();
    expect(await upgradeDatabase(db, { log: again, backup: async () => 'unused' })).toEqual([]);
    expect(again.lines).toEqual([]);
    closeDb(db);
  });

  it('takes no backup of a new, empty database', async () => {
    const db = openDb(path.join(mkdtempSync(path.join(root, 'fresh-')), 'recensera.sqlite'));
    let backedUp = false;
    const applied = await upgradeDatabase(db, {
      log: recordingLog(),
      backup: async () => {
        backedUp = true;
        return '';
      },
    });
    expect(applied).toHaveLength(knownMigrations().length);
    expect(backedUp).toBe(false);
    closeDb(db);
  });

  it('refuses a database a newer release migrated, naming both versions; the server stops with that one line', async () => {
    const data = mkdtempSync(path.join(root, 'newer-'));
    const db = openDb(path.join(data, 'recensera.sqlite'));
    migrateDb(db);
    const newest = knownMigrations().at(-1)?.when ?? 0;
    db.$client.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('from-the-future', newest + 60_000);
    await expect(upgradeDatabase(db, { log: recordingLog() })).rejects.toThrow(NewerSchemaError);
    await expect(upgradeDatabase(db, { log: recordingLog() })).rejects.toThrow(
      `migrated by a newer release of Recensera (schema unknown-${newest + 60_000}); this release knows schemas up to ${knownMigrations().at(-1)?.tag}`,
    );
    closeDb(db);

    const started = await exec(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: { ...process.env, DATA_DIR: data, DEMO_DATA: '0', PORT: '0', LOG_LEVEL: 'warn' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(started.code).toBe(1);
    expect(started.stderr.trim().split('\n')).toHaveLength(1);
    expect(started.stderr).toContain('migrated by a newer release of Recensera');
    expect(existsSync(path.join(data, 'server.lock'))).toBe(false);
  }, 30_000);
});
