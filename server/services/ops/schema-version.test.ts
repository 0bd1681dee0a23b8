import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate as drizzleMigrate } from 'drizzle-orm/better-sqlite3/migrator';
import { closeDb, migrateDb, migrationsFolder, openDb } from '../../../db/client';
import { createBackup } from './backup';
import { knownMigrations, NewerSchemaError, schemaVersionOf, upgradeDatabase } from './schema-version';

const exec = promisify(execFile);
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'recensera-upgrade-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A user in an older release's columns (createTestUser writes today's, which a newer migration
 * may have extended).
 */
function olderUser(db: ReturnType<typeof openDb>, id: string): string {
  db.$client
    .prepare('insert into users (id, email, first_name, last_name, created_at, updated_at) values (?, ?, ?, ?, ?, ?)')
    .run(id, `${id}@example.se`, 'Äldre', 'Användare', Date.now(), Date.now());
  return id;
}

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
    olderUser(db, 'kvar');
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
    expect(log.lines.map((l) => l.msg)).toEqual(['backing up before migrating', 'backup taken before migrating', 'applying migration', 'database migrated']);
    expect(log.lines[1].obj).toMatchObject({ ms: expect.any(Number) });
    expect(log.lines[2].obj).toMatchObject({ migration: newest.tag, step: '1/1' });
    expect(log.lines[3].obj).toMatchObject({ migrations: 1, schema: newest.tag, ms: expect.any(Number) });
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

  it('logs each migration as it starts and each slow statement as it ends, n of m, with its time', async () => {
    const db = openDb(path.join(mkdtempSync(path.join(root, 'progress-')), 'recensera.sqlite'));
    migrateDb(db, releaseUpTo('0021_business_owners'));
    const pending = knownMigrations().slice(knownMigrations().findIndex((m) => m.tag === '0021_business_owners') + 1);
    const log = recordingLog();
    // Every statement counts as slow here; on a site, those of a second or more are logged.
    await upgradeDatabase(db, { log, slowStepMs: 0 });
    const starts = log.lines.filter((l) => l.msg === 'applying migration');
    expect(starts.map((l) => l.obj.migration)).toEqual(pending.map((m) => m.tag));
    expect(starts.map((l) => l.obj.step)).toEqual(pending.map((_, i) => `${i + 1}/${pending.length}`));
    // 0022 rewrites comments_top_rated_idx: the step that rebuilds an index over every comment.
    const bayes = log.lines.filter((l) => l.msg === 'migration statement done' && l.obj.migration === '0022_top_rated_bayes_score');
    expect(bayes.map((l) => l.obj.statement)).toEqual(['1/3', '2/3', '3/3']);
    expect(bayes[2].obj).toMatchObject({
      ms: expect.any(Number),
      sql: 'CREATE INDEX `comments_top_rated_idx` ON `comments` (`bayes_score`,`rating_count`,`created_at`);',
    });
    expect(log.lines.filter((l) => l.msg === 'migration applied').map((l) => l.obj.migration)).toEqual(pending.map((m) => m.tag));
    expect(log.lines.at(-1)?.msg).toBe('database migrated');
    closeDb(db);
  });

  it("records migrations as drizzle's own migrator does, so either continues the other's work", () => {
    const ours = openDb(path.join(mkdtempSync(path.join(root, 'ours-')), 'recensera.sqlite'));
    const theirs = openDb(path.join(mkdtempSync(path.join(root, 'theirs-')), 'recensera.sqlite'));
    // drizzle's migrator up to an older release, then ours for the rest; and the other way round.
    drizzleMigrate(ours, { migrationsFolder: olderRelease() });
    migrateDb(ours);
    migrateDb(theirs, olderRelease());
    drizzleMigrate(theirs, { migrationsFolder });
    const recorded = (db: typeof ours) => db.$client.prepare('SELECT id, hash, created_at FROM __drizzle_migrations ORDER BY created_at').all();
    expect(recorded(ours)).toEqual(recorded(theirs));
    expect(recorded(ours)).toHaveLength(knownMigrations().length);
    const schema = (db: typeof ours) => db.$client.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY name").all();
    expect(schema(ours)).toEqual(schema(theirs));
    closeDb(ours);
    closeDb(theirs);
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

/** The migrations of the release that ended with `tag`. */
function releaseUpTo(tag: string): string {
  const folder = path.join(root, `up-to-${tag}`);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('migration 0008: the bilingual category list and ratings nobody gave', () => {
  it("maps categories to the list, keeps unknown ones in both names, and drops the admin's rate", async () => {
    const db = openDb(path.join(mkdtempSync(path.join(root, 'categories-')), 'recensera.sqlite'));
    migrateDb(db, releaseUpTo('0007_reports_and_moderation_log'));
    const rater = { id: olderUser(db, 'rater') };
    const insert = db.$client.prepare(
      `INSERT INTO businesses (id, title, title_search, category, description, admin_rate, rating_count, rating_sum, is_suggestion_box, created_at, updated_at)
       VALUES (?, ?, lower(?), ?, ?, ?, ?, ?, ?, 0, 0)`,
    );
    const box =
      'Saknar du ett företag på Recensera? Skriv en kommentar här med företagets namn och orten där du har besökt det.\n' +
      'Vi läser alla förslag och lägger till nya företag i katalogen.';
    insert.run('box', 'Add New', 'Add New', 'Förslag', box, 5, 0, 0, 1);
    insert.run('ica', 'ICA', 'ICA', 'Livsmedel', 'Mat.', 3, 0, 0, 0);
    insert.run('coop', 'Coop', 'Coop', ' livsmedel ', 'Mat.', 4, 0, 0, 0);
    insert.run('cafe', 'Kaffe', 'Kaffe', 'Café', 'Kaffe.', 4, 0, 0, 0);
    insert.run('rated', 'Betygsatt', 'Betygsatt', 'Lågpris', 'Billigt.', 2, 1, 5, 0);
    insert.run('same', 'Samma', 'Samma', 'lågpris', 'Billigt.', 2, 0, 0, 0);
    db.$client.prepare('INSERT INTO business_ratings (business_id, user_id, rate, created_at, updated_at) VALUES (?, ?, ?, 0, 0)').run('rated', rater.id, 5);

    migrateDb(db);
    const rows = db.$client
      .prepare(
        `SELECT b.id, c.name_sv, c.name_en, b.description_en, b.rating_count, b.rating_sum
           FROM businesses b JOIN categories c ON c.id = b.category_id ORDER BY b.id`,
      )
      .all();
    expect(rows).toEqual([
      {
        id: 'box',
        name_sv: 'Förslag',
        name_en: 'Suggestions',
        description_en: expect.stringMatching(/^Missing a business on Recensera\?.*\nWe read/s),
        rating_count: 0,
        rating_sum: 0,
      },
      { id: 'cafe', name_sv: 'Kafé', name_en: 'Café', description_en: null, rating_count: 0, rating_sum: 0 },
      { id: 'coop', name_sv: 'Livsmedel', name_en: 'Groceries', description_en: null, rating_count: 0, rating_sum: 0 },
      { id: 'ica', name_sv: 'Livsmedel', name_en: 'Groceries', description_en: null, rating_count: 0, rating_sum: 0 },
      // Unknown: its own text in both languages, one entry however it was capitalised.
      { id: 'rated', name_sv: 'Lågpris', name_en: 'Lågpris', description_en: null, rating_count: 1, rating_sum: 5 },
      { id: 'same', name_sv: 'Lågpris', name_en: 'Lågpris', description_en: null, rating_count: 0, rating_sum: 0 },
    ]);
    const columns = (db.$client.prepare('PRAGMA table_info(businesses)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('admin_rate');
    expect(columns).not.toContain('category');
    // The rate nobody gave is gone: no rating row was invented (the adding admin is not recorded).
    expect(db.$client.prepare('SELECT business_id, rate FROM business_ratings').all()).toEqual([{ business_id: 'rated', rate: 5 }]);
    expect(db.$client.prepare("SELECT count(*) AS n FROM categories WHERE name_sv = 'Livsmedel'").get()).toEqual({ n: 1 });
    expect(db.$client.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    closeDb(db);
  });
});
