import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, openDb } from './client';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const count = (sqlite: Database.Database, table: string) => sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

function fill(sqlite: Database.Database, table: string, rows: number) {
  sqlite.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, n INTEGER NOT NULL); CREATE INDEX ${table}_n ON ${table} (n)`);
  const insert = sqlite.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
  sqlite.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`id-${i}`, i % 7);
  })();
}

describe('planner statistics', () => {
  it('keeps sqlite_stat1 and drops the STAT4 samples on open; PRAGMA optimize on close writes none', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-client-'));
    const file = path.join(dir, 'stats.sqlite');
    const raw = new Database(file);
    fill(raw, 'analysed', 500);
    raw.exec('ANALYZE');
    expect(count(raw, 'sqlite_stat4')).toBeGreaterThan(0);
    raw.close();

    const db = openDb(file);
    expect(count(db.$client, 'sqlite_stat4')).toBe(0);
    expect(count(db.$client, 'sqlite_stat1')).toBeGreaterThan(0);
    // A table PRAGMA optimize will analyse on close (never analysed, and it has an index).
    fill(db.$client, 'grown', 2000);
    closeDb(db);

    const after = new Database(file, { readonly: true });
    expect(after.prepare("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'grown'").pluck().get()).toBeGreaterThan(0);
    expect(count(after, 'sqlite_stat4')).toBe(0);
    after.close();
  });
});
