import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeDb, migrateDb, migrationsFolder, openDb } from '../../../db/client';
import { insertBusiness } from '../../test/comment-fixtures';
import { runUpgradeTasks } from '../ops/upgrade-tasks';
import { businessMatches } from './business-search';

describe('migration 0028 on a database from before it', () => {
  it('gives places approved before the fix their town and website, and typed places their strict keys', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'recensera-suggested-upgrade-'));
    try {
      const folder = path.join(root, 'upto-0027');
      cpSync(migrationsFolder, folder, { recursive: true });
      const journalFile = path.join(folder, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0028');
      writeFileSync(journalFile, JSON.stringify(journal));
      const db = openDb(path.join(root, 'recensera.sqlite'));
      migrateDb(db, folder);
      // The earlier migrations' own tasks run on the empty database first, as a start would.
      runUpgradeTasks(db);
      const sqlite = db.$client;
      const now = Date.now();
      sqlite
        .prepare('INSERT INTO users (id, email, first_name, last_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run('u1', 'u1@example.se', 'Sara', 'Förslag', now, now);
      // As approval left them before 74e18e8: no town on the branch, no website on the business.
      const pizzeria = insertBusiness(db, 'Pizzeria Torget');
      sqlite.prepare("INSERT INTO branches (id, business_id, location, address, position) VALUES ('b1', ?, 'Malmö Hyllie', 'Torget 1', 0)").run(pizzeria);
      sqlite
        .prepare(
          "INSERT INTO business_suggestions (id, user_id, title, category, location, address, website, status, business_id, decided_at, created_at) VALUES ('s1', 'u1', 'Pizzeria Torget', 'Pizzeria', 'Malmö Hyllie', 'Torget 1', 'https://pizzeriatorget.se', 'approved', ?, ?, ?)",
        )
        .run(pizzeria, now, now);
      // An admin's business with a website of its own keeps it.
      const kept = insertBusiness(db, 'Bageri');
      sqlite.prepare("UPDATE businesses SET website = 'https://bageri.se' WHERE id = ?").run(kept);
      sqlite
        .prepare(
          "INSERT INTO business_suggestions (id, user_id, title, category, location, address, website, status, business_id, decided_at, created_at) VALUES ('s2', 'u1', 'Bageri', 'Bageri', 'Lund', 'Gatan 2', 'https://annan.se', 'approved', ?, ?, ?)",
        )
        .run(kept, now, now);
      // A typed place with a run of five spaces: 0026's SQL left two of them.
      sqlite
        .prepare(
          "INSERT INTO comments (id, business_id, user_id, business_location, place_key, text, created_at, updated_at) VALUES ('c1', ?, 'u1', 'Umeå     centrum', 'umeå  centrum', 'Gott', ?, ?)",
        )
        .run(pizzeria, now, now);
      migrateDb(db);
      expect(runUpgradeTasks(db).sort()).toEqual(['comment-branches', 'suggested-branch-towns']);
      expect(sqlite.prepare("SELECT town, area FROM branches WHERE id = 'b1'").get()).toEqual({ town: 'Malmö', area: 'Hyllie' });
      expect(sqlite.prepare('SELECT id, website FROM businesses ORDER BY title').all()).toEqual([
        { id: kept, website: 'https://bageri.se' },
        { id: pizzeria, website: 'https://pizzeriatorget.se' },
      ]);
      expect(sqlite.prepare("SELECT place_key FROM comments WHERE id = 'c1'").get()).toEqual({ place_key: 'umeå centrum' });
      // The directory's search row holds the town now: "malmo" finds the pizzeria.
      expect([...businessMatches(db, 'malmo').keys()]).toEqual([pizzeria]);
      closeDb(db);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
