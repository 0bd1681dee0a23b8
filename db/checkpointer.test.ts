import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAfterFinalCheckpoint, startCheckpointer, type CheckpointResult } from './checkpointer';
import { closeDb, openDb } from './client';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('background WAL checkpoints', () => {
  it('copy committed pages into the database file from a worker, and stop cleanly', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-ckpt-'));
    dirs.push(dir);
    const file = path.join(dir, 'test.sqlite');
    const db = openDb(file);
    db.$client.exec('create table t (id integer primary key, body text)');
    const results: CheckpointResult[] = [];
    const checkpointer = startCheckpointer(db, file, { everyMs: 20, onResult: (r) => results.push(r) });
    expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const insert = db.$client.prepare('insert into t (body) values (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(2000));
    const before = statSync(file).size;
    await expect.poll(() => results.some((r) => r.log > 0 && r.checkpointed === r.log), { timeout: 5000 }).toBe(true);
    // 200 rows of 2 kB are in the main file now, not only in the WAL.
    expect(statSync(file).size).toBeGreaterThan(Math.max(before, 300_000));
    await checkpointer.stop();
    expect(db.$client.prepare('select count(*) n from t').get()).toEqual({ n: 200 });
    closeDb(db);
  });

  it('stop() can be awaited again; the final close optimizes and checkpoints every WAL frame', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-ckpt-'));
    dirs.push(dir);
    const file = path.join(dir, 'test.sqlite');
    const db = openDb(file);
    db.$client.exec('create table t (id integer primary key, body text)');
    // No timer run before the stop: the WAL still holds every write at the end.
    const checkpointer = startCheckpointer(db, file, { everyMs: 60_000 });
    const insert = db.$client.prepare('insert into t (body) values (?)');
    for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000));
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(100_000);
    await checkpointer.stop();
    await checkpointer.stop();
    // Another connection stays open (a CLI command, say), so close() is not the last one and
    // would leave the WAL as it is: only the final checkpoint empties it.
    const other = openDb(file);
    const closed = closeAfterFinalCheckpoint(db);
    expect(closed).toEqual({ optimized: true, checkpoint: { busy: 0, log: 0, checkpointed: 0 } });
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    closeDb(other);
    expect(db.$client.open).toBe(false);
  });
});
