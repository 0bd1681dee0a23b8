import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, migrationsFolder, openDb, type Db } from '../../../db/client';
import { ftsQueryOf, indexQueuedComments, searchWordsOf } from './comment-search';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-search-upgrade-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The migrations of the release whose newest migration is `tag`. */
function releaseUpTo(tag: string): string {
  const folder = path.join(root, `upto-${tag}`);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/**
 * What the release at migration 0010 did on its connections: the search_words function its
 * triggers called, and its indexQueuedComments (the words computed inside SQLite).
 */
function asRelease0010(db: Db) {
  const sqlite = db.$client;
  sqlite.function('search_words', { deterministic: true, varargs: true }, (businessId: unknown, ...texts: unknown[]) =>
    searchWordsOf(String(businessId), ...texts.map((t) => (typeof t === 'string' ? t : null))),
  );
  return {
    index() {
      sqlite.exec(`INSERT INTO comments_fts (rowid, words)
        SELECT c.rowid, search_words(c.business_id, c.text, c.business_location, u.first_name || ' ' || u.last_name)
        FROM comments_fts_queue q CROSS JOIN comments c ON c.rowid = q.comment_rowid LEFT JOIN users u ON u.id = c.user_id;
        DELETE FROM comments_fts_queue;`);
    },
    hide(id: string) {
      sqlite.prepare('UPDATE comments SET hidden_at = 1 WHERE id = ?').run(id);
      sqlite.prepare('DELETE FROM comments_fts WHERE rowid = (SELECT rowid FROM comments WHERE id = ?)').run(id);
    },
  };
}

describe('migration 0011: search without application functions, keyed by search_rowid', () => {
  it('keeps what a 0010 database had indexed findable, and indexes what it had queued', () => {
    const file = path.join(mkdtempSync(path.join(root, 'db-')), 'recensera.sqlite');
    const db = openDb(file);
    migrateDb(db, releaseUpTo('0010_photo_gallery_indexes'));
    const old = asRelease0010(db);
    // In 0010's columns: insertBusiness writes today's, which later migrations may have extended.
    const shop = 'b0010';
    db.$client
      .prepare(
        'INSERT INTO businesses (id, title, title_search, category_id, description, created_at, updated_at) VALUES (?, ?, ?, (SELECT id FROM categories LIMIT 1), ?, 0, 0)',
      )
      .run(shop, 'Bageri', 'bageri', 'Bröd.');
    const now = Date.now();
    const user = db.$client.prepare('INSERT INTO users (id, email, first_name, last_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    user.run('u1', 'u1@example.se', 'Greta', 'Gammal', now, now);
    user.run('u2', 'u2@example.se', 'Sven', 'Svensson', now, now);
    const comment = db.$client.prepare(
      'INSERT INTO comments (id, business_id, user_id, business_location, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const texts = {
      c1: 'Borttagen om ostkaka',
      c2: 'Gammal text om kanelbullar',
      c3: 'Dold om semlor',
      c4: 'Synlig om kardemumma',
      c5: 'Greta skrev om smörgåsar',
    };
    for (const [id, text] of Object.entries(texts)) comment.run(id, shop, id === 'c5' ? 'u1' : 'u2', 'Lund', text, now, now);
    db.$client.prepare('DELETE FROM comments WHERE id = ?').run('c1');
    old.index();
    // The old author trigger calls search_words.
    db.$client.prepare('UPDATE users SET last_name = ? WHERE id = ?').run('Nyberg', 'u1');
    old.hide('c3');
    // Posted just before the upgrade: still queued.
    comment.run('c6', shop, 'u2', 'Lund', 'Köad om prinsesstårta', now, now);
    const rowids = Object.fromEntries(db.$client.prepare('SELECT id, rowid FROM comments').raw().all() as [string, number][]);

    migrateDb(db);
    expect(db.$client.prepare('SELECT id, search_rowid FROM comments ORDER BY id').raw().all()).toEqual(
      ['c2', 'c3', 'c4', 'c5', 'c6'].map((id) => [id, rowids[id]]),
    );
    // A plain connection (the sqlite3 shell) edits a comment and renames its author.
    const plain = new Database(file);
    try {
      plain.prepare('UPDATE comments SET text = ? WHERE id = ?').run('Ny text om vetelängd', 'c2');
      plain.prepare('UPDATE users SET first_name = ? WHERE id = ?').run('Sverker', 'u2');
    } finally {
      plain.close();
    }
    expect(indexQueuedComments(db)).toBe(3);
    const search = (words: string) =>
      db.$client
        .prepare('SELECT id FROM comments WHERE search_rowid IN (SELECT rowid FROM comments_fts WHERE comments_fts MATCH ?) ORDER BY search_rowid')
        .pluck()
        .all(ftsQueryOf(shop, words));
    expect(search('kardemumma')).toEqual(['c4']);
    expect(search('smörgåsar nyberg')).toEqual(['c5']);
    expect(search('gammal')).toEqual([]);
    expect(search('kanelbullar')).toEqual([]);
    expect(search('vetelängd sverker')).toEqual(['c2']);
    expect(search('semlor')).toEqual([]);
    expect(search('ostkaka')).toEqual([]);
    expect(search('prinsesstårta')).toEqual(['c6']);
    expect(search('sverker')).toEqual(['c2', 'c4', 'c6']);
    db.$client.exec("INSERT INTO comments_fts (comments_fts) VALUES ('integrity-check')");
    closeDb(db);
  });

  it('indexes the comments of a database from before migration 0004 when it is upgraded', () => {
    const db = openDb(path.join(mkdtempSync(path.join(root, 'db-')), 'recensera.sqlite'));
    migrateDb(db, releaseUpTo('0003_rating_lists_and_search_by_business'));
    const now = Date.now();
    db.$client
      .prepare('INSERT INTO users (id, email, first_name, last_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run('u1', 'u1@example.se', 'Greta', 'Gammal', now, now);
    db.$client
      .prepare('INSERT INTO businesses (id, title, title_search, category, description, admin_rate, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 3, ?, ?)')
      .run('b1', 'Bageri', 'bageri', 'Kafé', 'Bröd.', now, now);
    db.$client
      .prepare('INSERT INTO comments (id, business_id, user_id, business_location, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('c1', 'b1', 'u1', 'Lund', 'Tidig kommentar om surdeg', now, now);
    migrateDb(db);
    expect(indexQueuedComments(db)).toBe(1);
    expect(
      db.$client
        .prepare('SELECT id FROM comments WHERE search_rowid IN (SELECT rowid FROM comments_fts WHERE comments_fts MATCH ?)')
        .pluck()
        .all(ftsQueryOf('b1', 'surdeg gammal')),
    ).toEqual(['c1']);
    closeDb(db);
  });
});
