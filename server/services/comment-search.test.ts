import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createTestApp, type TestContext } from '../test/helpers';
import { insertBusiness } from '../test/comment-fixtures';
import { ftsQueryOf, INDEX_DELAY_MS, indexQueuedComments } from './comment-search';
import { createComment, deleteComment, listBusinessComments, updateComment } from './comments';
import { updateProfile } from './users';

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
const found = (businessId: string, search: string) =>
  listBusinessComments(t.deps, null, { businessId, search }).items.map((c) => c.text);
const post = (businessId: string, text: string, author = cast.owner) =>
  createComment(t.deps, author.actor, { businessId, text, businessLocation: 'Lund' });

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

  it('indexes a queued comment under its author\'s current name', async () => {
    const shop = insertBusiness(t.db);
    await post(shop, 'Skrivet före namnbytet', cast.other);
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Adelina', lastName: 'Nyström' });
    expect(found(shop, 'nyström')).toEqual(['Skrivet före namnbytet']);
    expect(found(shop, 'other')).toEqual([]);
    // An indexed comment follows a later rename too (the author trigger).
    await updateProfile(t.deps, cast.other.actor, { firstName: 'Ada', lastName: 'Other' });
    expect(found(shop, 'nyström')).toEqual([]);
    expect(found(shop, 'other')).toEqual(['Skrivet före namnbytet']);
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
