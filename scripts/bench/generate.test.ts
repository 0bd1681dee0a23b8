import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ftsQueryOf } from '../../server/services/comments/comment-search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../db/client';
import { checkCounts } from './check';
import { DB_FILE_NAME, generateDataset, readMeta, targetCounts, type BenchMeta } from './generate';

describe('bench data generator at scale 0.001', () => {
  let dir: string;
  let meta: BenchMeta;
  let sqlite: Database.Database;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-bench-test-'));
    meta = await generateDataset({ dataDir: dir, scale: 0.001, seed: 7 });
    sqlite = new Database(path.join(dir, DB_FILE_NAME), { readonly: true });
  });
  afterAll(() => {
    sqlite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every count and average equal to an SQL recount', () => {
    for (const result of checkCounts(sqlite)) {
      expect(result.examples, result.name).toEqual([]);
      expect(result.mismatches, result.name).toBe(0);
      expect(result.checked, result.name).toBeGreaterThan(0);
    }
  });

  it('has rows at the requested scale and non-trivial derived values', () => {
    const wanted = targetCounts(0.001);
    const count = (table: string) => (sqlite.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('businesses')).toBe(wanted.businesses);
    expect(count('comments')).toBe(wanted.comments);
    expect(count('replies')).toBe(wanted.replies);
    expect(count('comment_ratings') + count('reply_ratings')).toBe(meta.counts.emojiRatings);
    expect(meta.counts.emojiRatings).toBeGreaterThan(wanted.emojiRatings * 0.9);
    // Skewed popularity: the most replied comment has far more replies than the mean of 2.
    const top = sqlite.prepare('SELECT MAX(reply_count) AS m FROM comments').get() as { m: number };
    expect(top.m).toBeGreaterThan(5);
    const rated = sqlite.prepare('SELECT COUNT(*) AS n FROM comments WHERE rating_avg IS NOT NULL').get() as { n: number };
    expect(rated.n).toBeGreaterThan(0);
  });

  it('never lets anyone rate their own comment or reply, and keeps foreign keys whole', () => {
    const own = sqlite
      .prepare(
        `SELECT (SELECT COUNT(*) FROM comment_ratings r JOIN comments c ON c.id = r.comment_id WHERE c.user_id = r.user_id)
              + (SELECT COUNT(*) FROM reply_ratings r JOIN replies p ON p.id = r.reply_id WHERE p.user_id = r.user_id) AS n`,
      )
      .get() as { n: number };
    expect(own.n).toBe(0);
    expect(sqlite.pragma('foreign_key_check')).toEqual([]);
  });

  it('indexes every comment for search, leaves none queued and keeps the insert trigger', () => {
    const hits = sqlite
      .prepare('SELECT COUNT(*) AS n FROM comments_fts WHERE comments_fts MATCH ?')
      .get(ftsQueryOf(meta.popularBusinessId, meta.searchTerms.comment)) as { n: number };
    expect(hits.n).toBeGreaterThan(0);
    const rows = sqlite.prepare('SELECT (SELECT COUNT(*) FROM comments_fts) AS indexed, (SELECT COUNT(*) FROM comments) AS comments').get() as {
      indexed: number;
      comments: number;
    };
    expect(rows.indexed).toBe(rows.comments);
    expect(sqlite.prepare('SELECT COUNT(*) FROM comments_fts_queue').pluck().get()).toBe(0);
    const trigger = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'comments_fts_insert'").get();
    expect(trigger).toBeTruthy();
  });

  it('has exactly the indexes and triggers of a freshly migrated database, and nothing left for the first start', () => {
    // The generator drops the secondary indexes while loading and builds them again afterwards.
    const schemaOf = (db: Database.Database) =>
      db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name").all();
    const fresh = openDb(path.join(dir, 'fresh.sqlite'));
    try {
      migrateDb(fresh);
      expect(schemaOf(sqlite)).toEqual(schemaOf(fresh.$client));
    } finally {
      closeDb(fresh);
    }
    expect(sqlite.prepare('SELECT COUNT(*) FROM upgrade_tasks').pluck().get()).toBe(0);
    expect(sqlite.prepare('SELECT COUNT(*) FROM business_search').pluck().get()).toBe(meta.counts.businesses);
    // Planner statistics, as on a site that has run for a while.
    expect(sqlite.prepare('SELECT COUNT(*) FROM sqlite_stat1').pluck().get()).toBeGreaterThan(0);
  });

  it('writes real WebP files for the image rows and saves sessions for the bench users', () => {
    const files = readdirSync(path.join(dir, 'uploads'));
    const rows = sqlite.prepare('SELECT file_name FROM images').all() as { file_name: string }[];
    for (const row of rows) expect(files).toContain(row.file_name);
    expect(meta.benchUsers.length).toBeGreaterThan(0);
    const sessions = sqlite.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number };
    expect(sessions.n).toBe(meta.benchUsers.length);
    expect(readMeta(dir)?.popularBusinessId).toBe(meta.popularBusinessId);
    expect(existsSync(path.join(dir, 'bench-meta.json'))).toBe(true);
  });
});
