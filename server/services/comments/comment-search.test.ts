import { flushGroup } from '../../lib/group-commit';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createTestApp, type TestContext } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { sql } from 'drizzle-orm';
import { comments } from '../../../db/schema';
import { dropFromSearch, ftsQueryOf, INDEX_DELAY_MS, indexQueuedComments, matchesSearch, searchWordsOf } from './comment-search';
import { createComment, deleteComment, listBusinessComments, updateComment } from './comments';
import { updateProfile } from '../accounts/users';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
});
afterAll(() => t.close());

const queued = () => (t.db.$client.prepare('SELECT comment_rowid FROM comments_fts_queue').pluck().all() as number[]).length;
const indexedHits = (businessId: string, words: string) =>
  t.db.$client.prepare('SELECT count(*) FROM comments_fts WHERE comments_fts MATCH ?').pluck().get(ftsQueryOf(businessId, words));
const found = (businessId: string, search: string) => listBusinessComments(t.deps, null, { businessId, search }).items.map((c) => c.text);
const post = (businessId: string, text: string, author = cast.owner) => createComment(t.deps, author.actor, { businessId, text, businessLocation: 'Lund' });

describe('search index queue (migration 0005)', () => {
  it('queues a new comment instead of indexing it in the posting transaction', async () => {
    const shop = insertBusiness(t.db);
    indexQueuedComments(t.db);
    await post(shop, 'Kanelbullarna var ljumma');
    expect(queued()).toBe(1);
    expect(indexedHits(shop, 'kanelbullarna')).toBe(0);
    expect(indexQueuedComments(t.db)).toBe(1);
    expect(queued()).toBe(0);
    expect(indexedHits(shop, 'kanelbullarna')).toBe(1);
  });

  it('finds a comment the moment it is posted: a search indexes the queue first', async () => {
    const shop = insertBusiness(t.db);
    await post(shop, 'Smörgåstårtan räckte till alla');
    expect(found(shop, 'smörgåstårtan')).toEqual(['Smörgåstårtan räckte till alla']);
    expect(queued()).toBe(0);
  });

  it('indexes what was posted meanwhile on a short timer, in one batch', async () => {
    const shop = insertBusiness(t.db);
    for (let i = 0; i < 5; i++) await post(shop, `Tårtbit nummer ${i}`);
    expect(queued()).toBe(5);
    const deadline = Date.now() + INDEX_DELAY_MS * 40;
    while (queued() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, INDEX_DELAY_MS));
    expect(queued()).toBe(0);
    expect(indexedHits(shop, 'tårtbit')).toBe(5);
  });

  it('indexes a comment edited while queued with its new text only', async () => {
    const shop = insertBusiness(t.db);
    const c = await post(shop, 'Gammal recension om köttbullar');
    await updateComment(t.deps, cast.owner.actor, { id: c._id, text: 'Ny recension om laxpudding' });
    expect(found(shop, 'köttbullar')).toEqual([]);
    expect(found(shop, 'laxpudding')).toEqual(['Ny recension om laxpudding']);
  });

  it('drops a comment deleted while queued, and a later comment may take its rowid', async () => {
    const shop = insertBusiness(t.db);
    indexQueuedComments(t.db);
    const c = await post(shop, 'Raderas snart prinsesstårta');
    const rowid = t.db.$client.prepare('SELECT rowid FROM comments WHERE id = ?').pluck().get(c._id);
    await deleteComment(t.deps, cast.owner.actor, c._id);
    expect(queued()).toBe(0);
    // The newest rowid is free again, so SQLite hands it to the next comment.
    const next = await post(shop, 'Ersättare mazarin');
    expect(t.db.$client.prepare('SELECT rowid FROM comments WHERE id = ?').pluck().get(next._id)).toBe(rowid);
    expect(found(shop, 'prinsesstårta')).toEqual([]);
    expect(found(shop, 'mazarin')).toEqual(['Ersättare mazarin']);
    t.db.$client.exec("INSERT INTO comments_fts (comments_fts) VALUES ('integrity-check')");
  });

  it("indexes a queued comment under its author's current name", async () => {
    const shop = insertBusiness(t.db);
    await post(shop, 'Skrivet före namnbytet', cast.other);
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Adelina', lastName: 'Nyström' });
    expect(found(shop, 'nyström')).toEqual(['Skrivet före namnbytet']);
    expect(found(shop, 'other')).toEqual([]);
    // An indexed comment follows a later rename too (the author trigger queues it again).
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Other' });
    expect(found(shop, 'nyström')).toEqual([]);
    expect(found(shop, 'other')).toEqual(['Skrivet före namnbytet']);
  });

  it('a last name shown as its initial is not searchable; choosing the full name makes it so again', async () => {
    const shop = insertBusiness(t.db);
    await post(shop, 'Skrivet av någon diskret', cast.other);
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Diskretsson', nameDisplay: 'initial' });
    expect(found(shop, 'diskretsson')).toEqual([]);
    expect(found(shop, 'ada')).toEqual(['Skrivet av någon diskret']);
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Other', nameDisplay: 'full' });
    expect(found(shop, 'other')).toEqual(['Skrivet av någon diskret']);
  });

  it('leaves exactly one index row per comment', () => {
    indexQueuedComments(t.db);
    const [indexed, all] = [
      t.db.$client.prepare('SELECT count(*) FROM comments_fts').pluck().get(),
      t.db.$client.prepare('SELECT count(*) FROM comments').pluck().get(),
    ];
    expect(indexed).toBe(all);
  });
});

/** A connection to the app's file as the sqlite3 shell or a script has it: no functions of ours. */
function plainConnection(): Database.Database {
  return new Database(path.join(t.dir, 'recensera.sqlite'));
}

describe('search index without application functions (migration 0011)', () => {
  it('a plain SQLite connection can edit a comment and rename its author; the app indexes both', async () => {
    const shop = insertBusiness(t.db);
    const c = await post(shop, 'Pepparkakorna var spröda', cast.admin);
    expect(found(shop, 'pepparkakorna')).toHaveLength(1);
    // The app's writes of this turn are committed, as a live server's are before another process writes.
    flushGroup(t.db.$client);
    const plain = plainConnection();
    try {
      plain.prepare('UPDATE comments SET text = ? WHERE id = ?').run('Lussekatterna var saftiga', c._id);
      plain.prepare('UPDATE users SET last_name = ? WHERE id = ?').run('Skalström', cast.admin.id);
    } finally {
      plain.close();
    }
    expect(queued()).toBeGreaterThan(0);
    expect(found(shop, 'pepparkakorna')).toEqual([]);
    expect(found(shop, 'lussekatterna')).toEqual(['Lussekatterna var saftiga']);
    expect(found(shop, 'skalström')).toEqual(['Lussekatterna var saftiga']);
    expect(found(shop, 'admin')).toEqual([]);
    // No trigger or view of the schema names a function the plain connection lacks.
    const sqlite = t.db.$client;
    const bodies = sqlite.prepare("SELECT sql FROM sqlite_schema WHERE type IN ('trigger', 'view')").pluck().all() as string[];
    expect(bodies.filter((b) => /search_words/i.test(b))).toEqual([]);
  });

  it('edits and renames leave a hidden comment out of the index', async () => {
    const shop = insertBusiness(t.db);
    const c = await post(shop, 'Dold recension om semlor', cast.other);
    indexQueuedComments(t.db);
    t.db.$client.prepare('UPDATE comments SET hidden_at = 1 WHERE id = ?').run(c._id);
    dropFromSearch(t.db, c._id);
    await updateComment(t.deps, cast.other.actor, { id: c._id, text: 'Dold recension om wienerbröd' });
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Gömd' });
    const isQueued = t.db.$client.prepare('SELECT count(*) FROM comments_fts_queue q JOIN comments c ON c.rowid = q.comment_rowid WHERE c.id = ?').pluck();
    expect(isQueued.get(c._id)).toBe(0);
    indexQueuedComments(t.db);
    expect(indexedHits(shop, 'wienerbröd')).toBe(0);
    expect(indexedHits(shop, 'gömd')).toBe(0);
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Other' });
  });
});

describe('search index keyed by comments.search_rowid (migration 0011)', () => {
  const words = ['alfa', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

  /** Six comments with one word each, the first three deleted: the rowids that remain have a gap below them. */
  async function postWithGap(): Promise<string> {
    const shop = insertBusiness(t.db);
    const posted = [];
    for (const w of words) posted.push(await post(shop, `Kommentar ${w}`));
    for (const c of posted.slice(0, 3)) await deleteComment(t.deps, cast.owner.actor, c._id);
    indexQueuedComments(t.db);
    return shop;
  }

  const expectFoundByOwnWords = (shop: string) => {
    for (const w of words.slice(0, 3)) expect(found(shop, w)).toEqual([]);
    for (const w of words.slice(3)) expect(found(shop, w)).toEqual([`Kommentar ${w}`]);
    expect(found(shop, 'kommentar')).toEqual(
      words
        .slice(3)
        .reverse()
        .map((w) => `Kommentar ${w}`),
    );
  };

  it('VACUUM keeps every comment findable under its own words', async () => {
    const shop = await postWithGap();
    // VACUUM runs outside a transaction: the writes of this turn commit first.
    flushGroup(t.db.$client);
    t.db.$client.exec('VACUUM');
    expectFoundByOwnWords(shop);
    t.db.$client.exec("INSERT INTO comments_fts (comments_fts) VALUES ('integrity-check')");
  });

  it('so does a rebuild of the comments table that renumbers its rows (as drizzle-kit writes one)', async () => {
    const shop = await postWithGap();
    const sqlite = t.db.$client;
    const rowidsBefore = sqlite.prepare('SELECT rowid FROM comments ORDER BY rowid').pluck().all();
    const schemaOf = (type: string) =>
      sqlite.prepare('SELECT sql FROM sqlite_schema WHERE type = ? AND tbl_name = ? AND sql IS NOT NULL').pluck().all(type, 'comments') as string[];
    const [table] = schemaOf('table');
    const indexes = schemaOf('index');
    const triggers = schemaOf('trigger');
    const columns = (sqlite.prepare("SELECT name FROM pragma_table_info('comments')").pluck().all() as string[]).map((c) => `"${c}"`).join(', ');
    sqlite.pragma('foreign_keys = OFF');
    sqlite.pragma('legacy_alter_table = ON');
    try {
      sqlite.transaction(() => {
        sqlite.exec(table.replace(/^CREATE TABLE [`"]?comments[`"]?/, 'CREATE TABLE `__new_comments`'));
        sqlite.exec(`INSERT INTO __new_comments (${columns}) SELECT ${columns} FROM comments`);
        sqlite.exec('DROP TABLE comments');
        sqlite.exec('ALTER TABLE __new_comments RENAME TO comments');
        for (const statement of [...indexes, ...triggers]) sqlite.exec(statement);
      })();
    } finally {
      sqlite.pragma('legacy_alter_table = OFF');
      sqlite.pragma('foreign_keys = ON');
    }
    // The rebuild gave the rows new numbers: the gap is gone.
    expect(sqlite.prepare('SELECT rowid FROM comments ORDER BY rowid').pluck().all()).not.toEqual(rowidsBefore);
    expectFoundByOwnWords(shop);
  });
});

describe('matchesSearch', () => {
  it('matches by search_rowid, which differs from the rowid once a comment was deleted before a newer one was indexed', async () => {
    const shop = insertBusiness(t.db);
    const older = await post(shop, 'Först om blåbärspaj');
    indexQueuedComments(t.db);
    const newer = await post(shop, 'Sedan om hallonpaj');
    await deleteComment(t.deps, cast.owner.actor, older._id);
    indexQueuedComments(t.db);
    const keys = t.db.$client.prepare('SELECT rowid, search_rowid FROM comments WHERE id = ?').raw().get(newer._id) as [number, number];
    expect(keys[1]).not.toBe(keys[0]);
    const query = ftsQueryOf(shop, 'hallonpaj')!;
    const ids = (condition: ReturnType<typeof sql>) =>
      t.db
        .select({ id: comments.id })
        .from(comments)
        .where(condition)
        .all()
        .map((r) => r.id);
    expect(ids(matchesSearch(sql`${query}`))).toEqual([newer._id]);
    // What a rowid match would have found: nothing (or another comment).
    expect(ids(sql`${comments}.rowid in (select rowid from comments_fts where comments_fts match ${query})`)).not.toEqual([newer._id]);
  });
});

describe('searchWordsOf', () => {
  it('indexes every word with each prefix under its business, and long words whole', () => {
    const tokens = searchWordsOf('b1', 'kaffe, och en kanelbullebagare!', null).split(' ');
    const key = Buffer.from('b1').toString('hex') + 'x';
    expect(tokens).toContain(`${key}k`);
    expect(tokens).toContain(`${key}kaffe`);
    expect(tokens).toContain(`${key}kanelbulleba`);
    expect(tokens).toContain(`${key}kanelbullebagare`);
    expect(tokens).not.toContain(`${key}kanelbullebag`);
    expect(tokens.every((token) => token.startsWith(key))).toBe(true);
  });
});
