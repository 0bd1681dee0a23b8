import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { businessRatings } from '../../db/schema';
import { insertBusiness } from '../test/comment-fixtures';
import { bearer, createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { dataStamp, scopedStamp } from './data-stamp';
import { flushGroup, installGroupCommit } from './group-commit';

const dirs: string[] = [];
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A WAL database file with a writer and a second connection that sees only what is committed. */
function files() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('foreign_keys = ON');
  writer.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
    CREATE TABLE links (id INTEGER PRIMARY KEY, note_id INTEGER REFERENCES notes(id) DEFERRABLE INITIALLY DEFERRED)`);
  const reader = new Database(file, { readonly: true });
  open.push(reader, writer);
  const committed = () => reader.prepare('SELECT text FROM notes ORDER BY id').pluck().all();
  return { writer, committed };
}

/** The same script of writes, some of which fail, as the server's services run them. */
function script(db: Database.Database): string[] {
  const add = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const errors: string[] = [];
  const write = (work: () => void) => {
    try {
      db.transaction(work)();
    } catch (err) {
      errors.push((err as Error).message);
    }
  };
  write(() => add.run('a'));
  write(() => {
    add.run('b');
    add.run('a'); // UNIQUE: the whole transaction goes, 'b' with it
  });
  write(() => {
    add.run('c');
    db.transaction(() => add.run('d'))();
    try {
      db.transaction(() => {
        add.run('e');
        throw new Error('inner');
      })();
    } catch {
      // the inner savepoint alone is undone
    }
  });
  write(() => db.prepare("UPDATE notes SET text = 'A' WHERE text = 'a'").run());
  write(() => {
    db.prepare("DELETE FROM notes WHERE text = 'c'").run();
    throw new Error('changed my mind');
  });
  return errors;
}

describe('group commit', () => {
  it('gives the same rows and errors as a commit per transaction', async () => {
    const alone = files();
    const grouped = files();
    const group = installGroupCommit(grouped.writer);
    const errorsAlone = script(alone.writer);
    const errorsGrouped = script(grouped.writer);
    expect(errorsGrouped).toEqual(errorsAlone);
    expect(errorsAlone).toEqual(['UNIQUE constraint failed: notes.text', 'changed my mind']);
    // Nothing of the group is on disk before the end of the turn; everything after it.
    expect(alone.committed()).toEqual(['A', 'c', 'd']);
    expect(grouped.committed()).toEqual([]);
    expect(group.stats()).toEqual({ groups: 1, transactions: 7 });
    await nextTurn();
    expect(grouped.committed()).toEqual(alone.committed());
    expect(grouped.writer.inTransaction).toBe(false);
  });

  it('commits once per turn of the event loop, and its promise tells when', async () => {
    const { writer, committed } = files();
    const group = installGroupCommit(writer);
    const add = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    expect(group.pending()).toBeNull();
    writer.transaction(() => add.run('one'))();
    const first = group.pending();
    writer.transaction(() => add.run('two'))();
    expect(group.pending()).toBe(first);
    await first;
    expect(committed()).toEqual(['one', 'two']);
    expect(group.pending()).toBeNull();
    writer.transaction(() => add.run('three'))();
    expect(group.pending()).not.toBe(first);
    group.flush();
    expect(committed()).toEqual(['one', 'two', 'three']);
    expect(group.stats()).toEqual({ groups: 2, transactions: 3 });
  });

  it('rolls the whole group back when its COMMIT fails, and says so to whoever waits', async () => {
    const { writer, committed } = files();
    const failures: unknown[] = [];
    const group = installGroupCommit(writer, { onError: (err) => failures.push(err) });
    writer.transaction(() => writer.prepare("INSERT INTO notes (text) VALUES ('kept?')").run())();
    // A deferred foreign key is checked at COMMIT: the one statement here that fails there.
    writer.transaction(() => writer.prepare('INSERT INTO links (note_id) VALUES (99)').run())();
    await expect(group.pending()).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(failures).toHaveLength(1);
    expect(writer.inTransaction).toBe(false);
    expect(committed()).toEqual([]);
    // The connection goes on: the next group commits.
    writer.transaction(() => writer.prepare("INSERT INTO notes (text) VALUES ('next')").run())();
    await group.pending();
    expect(committed()).toEqual(['next']);
  });

  it('reports the rows SQLite writes at the COMMIT itself: FTS5’s pending terms (lib/data-stamp.ts)', async () => {
    const { writer } = files();
    writer.exec('CREATE VIRTUAL TABLE words USING fts5(text)');
    const atCommit: number[] = [];
    const group = installGroupCommit(writer, { onCommitChanges: (n) => atCommit.push(n) });
    writer.transaction(() => writer.prepare("INSERT INTO notes (text) VALUES ('plain')").run())();
    await group.pending();
    writer.transaction(() => writer.prepare("INSERT INTO words (text) VALUES ('kanelbullar och semlor')").run())();
    // This connection finds the terms before they are written out.
    expect(writer.prepare("SELECT count(*) FROM words WHERE words MATCH 'semlor'").pluck().get()).toBe(1);
    await group.pending();
    expect(atCommit[0]).toBe(0);
    expect(atCommit[1]).toBeGreaterThan(0);
  });

  it('puts the connection’s own transaction() back on uninstall, committing what is open', () => {
    const { writer, committed } = files();
    const group = installGroupCommit(writer);
    expect(installGroupCommit(writer)).toBe(group);
    writer.transaction(() => writer.prepare("INSERT INTO notes (text) VALUES ('x')").run())();
    group.uninstall();
    expect(committed()).toEqual(['x']);
    expect(Object.hasOwn(writer, 'transaction')).toBe(false);
    writer.transaction(() => writer.prepare("INSERT INTO notes (text) VALUES ('y')").run())();
    expect(committed()).toEqual(['x', 'y']);
  });
});

describe('group commit in the server', () => {
  let t: TestContext | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  /** Rates a business over REST; the rating must be on disk (another connection sees it) when the reply arrives. */
  async function rateAndLook(env: Record<string, string>, door: 'rest' | 'trpc' = 'rest') {
    t = await createTestApp({ env });
    const user = await createTestUser(t.db);
    const businessId = insertBusiness(t.db);
    const other = new Database(t.db.$client.name, { readonly: true });
    open.push(other);
    const seen = () => other.prepare('SELECT rate FROM business_ratings WHERE business_id = ? AND user_id = ?').pluck().get(businessId, user.id);
    const replies = await Promise.all(
      [4, 2].map((rate) =>
        door === 'rest'
          ? t!.app.inject({ method: 'POST', url: `/api/business/addRate/${businessId}`, payload: { rate }, headers: bearer(user) })
          : t!.app.inject({ method: 'POST', url: '/trpc/business.rate', payload: { id: businessId, rate }, headers: bearer(user) }),
      ),
    );
    const onDisk = seen();
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(t.db.select().from(businessRatings).where(eq(businessRatings.businessId, businessId)).all()).toHaveLength(1);
    return onDisk;
  }

  it('sends no reply before the COMMIT that holds its write, over REST and tRPC', async () => {
    expect(await rateAndLook({})).toBe(2);
    await t!.close();
    expect(await rateAndLook({}, 'trpc')).toBe(2);
  });

  it('a COMMIT that fails answers the replies that waited on it with 500, keeps none of their writes and moves the stamp', async () => {
    t = await createTestApp();
    const user = await createTestUser(t.db);
    const businessId = insertBusiness(t.db);
    const sqlite = t.db.$client;
    const stars = () => t!.db.select({ rate: businessRatings.rate }).from(businessRatings).where(eq(businessRatings.businessId, businessId)).all();
    const rate = (value: number | null) =>
      t!.app.inject({ method: 'POST', url: '/trpc/business.rate', payload: { id: businessId, rate: value }, headers: bearer(user) });
    expect((await rate(5)).statusCode).toBe(200);
    flushGroup(sqlite);
    // A deferred foreign key fails at COMMIT: what a full disk would do to the whole group.
    sqlite.exec(
      'CREATE TEMP TABLE parent (id INTEGER PRIMARY KEY); CREATE TEMP TABLE child (parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const before = dataStamp(t.db);
    const businessesBefore = scopedStamp(t.db, 'businesses');
    // Taking the rating back (Drizzle's transaction, its deferred variant) leaves a dangling child
    // row in its group, once.
    const grouped = Object.getOwnPropertyDescriptor(sqlite, 'transaction')!.value as Database.Database['transaction'];
    let written = before;
    const own = (value: unknown) => Object.defineProperty(sqlite, 'transaction', { configurable: true, writable: true, value });
    own((fn: (...args: never[]) => unknown) => {
      const tx = grouped.call(sqlite, fn);
      const deferred = tx.deferred.bind(tx);
      return Object.assign(tx, {
        deferred: (...args: never[]) => {
          const result = deferred(...args);
          sqlite.prepare('INSERT INTO child (parent_id) VALUES (99)').run();
          written = dataStamp(t!.db);
          return result;
        },
      });
    });
    const reply = await rate(null);
    own(grouped);
    expect(reply.statusCode).toBe(500);
    expect(stars()).toEqual([{ rate: 5 }]);
    expect(written).not.toBe(before);
    expect(dataStamp(t.db)).not.toBe(written);
    // The directory's scope is back where it was: the version the triggers set went with the rollback.
    expect(scopedStamp(t.db, 'businesses')).toBe(businessesBefore);
    // The next write commits as usual.
    expect((await rate(null)).statusCode).toBe(200);
    expect(stars()).toEqual([]);
  });

  it('is off with GROUP_COMMIT=0, each write committing alone', async () => {
    expect(await rateAndLook({ GROUP_COMMIT: '0' })).toBe(2);
    expect(Object.hasOwn(t!.db.$client, 'transaction')).toBe(false);
  });
});
