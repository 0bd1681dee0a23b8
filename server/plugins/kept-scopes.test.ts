import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDb, openDb } from '../../db/client';
import { businessOwners } from '../../db/schema';
import { buildApp } from '../app';
import { businessScope, dataStamp, OTHER_WRITES_MS, type StampScope } from '../lib/data-stamp';
import { flushGroup } from '../lib/group-commit';
import { keptArrayOf } from '../lib/kept-json';
import { updateProfile } from '../services/accounts/users';
import { createBusiness, updateBusiness } from '../services/business/business-admin';
import { rateBusiness, unrateBusiness } from '../services/business/business-ratings';
import { directorySnapshotBuilds, listDirectory } from '../services/business/directory';
import { putOwnerReply } from '../services/business/owner-replies';
import { rateComment } from '../services/comments/comment-ratings';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { reportPost, resolveReports } from '../services/moderation/reports';
import { createCast, createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { createPublicCache } from './public-cache';

/**
 * What a write rebuilds (issue 32 item 7): after each kind of write every kept reply, page and
 * snapshot equals one built fresh (another app on its own connection to the same file, so nothing
 * of ours is kept there), and a write that cannot change the directory keeps its snapshot, its
 * kept replies and documents.
 */
describe('kept scopes: a write rebuilds what it can change', () => {
  let t: TestContext;
  let clientDir: string;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let shopId: string;
  let bakeryId: string;
  let reviewId: string;

  beforeAll(async () => {
    // A build with the server render (home and the directory with their lists' first pages).
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-kept-'));
    mkdirSync(path.join(clientDir, '.vite', 'ssr'), { recursive: true });
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html lang="sv"><head><title>R</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(
      path.join(clientDir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-1.js', isEntry: true },
        'pages/home.tsx': { file: 'assets/home-1.js', isDynamicEntry: true, imports: ['index.html'] },
        'pages/directory.tsx': { file: 'assets/directory-1.js', isDynamicEntry: true, imports: ['index.html'] },
        'pages/business-detail.tsx': { file: 'assets/business-detail-1.js', isDynamicEntry: true, imports: ['index.html'] },
      }),
    );
    writeFileSync(
      path.join(clientDir, '.vite', 'prerender.json'),
      JSON.stringify({
        'pages/home.tsx': { sv: '<main>h</main>', en: '<main>h</main>' },
        'pages/directory.tsx': { sv: '<main>d</main>', en: '<main>d</main>' },
      }),
    );
    const source = path.join(import.meta.dirname, '../../client/prerender.tsx');
    writeFileSync(path.join(clientDir, '.vite', 'ssr', 'prerender.js'), `export { renderPage, renderFirstPaint } from ${JSON.stringify(source)};\n`);
    t = await createTestApp({ clientDir });
    cast = await createCast(t.db);
    const shop = await createBusiness(t.deps, cast.admin.actor, {
      title: 'Konsum Väster',
      category: 'Livsmedel',
      description: 'Mat och annat',
      branches: [{ location: 'Malmö' }],
    });
    shopId = shop.id;
    bakeryId = (await createBusiness(t.deps, cast.admin.actor, { title: 'Bageriet', category: 'Kafé', description: 'Bröd', branches: [{ location: 'Lund' }] }))
      .id;
    await createComment(t.deps, cast.admin.actor, { businessId: bakeryId, text: 'Gott bröd varje dag', businessLocation: 'Lund' });
    reviewId = (await createComment(t.deps, cast.owner.actor, { businessId: shopId, text: 'Bra butik med fina varor', businessLocation: 'Malmö' }))._id;
    t.db.insert(businessOwners).values({ businessId: shopId, userId: cast.other.id, createdAt: Date.now() }).run();
  });
  afterAll(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });
  // The last test's fresh app committed on its own connection, which our stamp looks for every
  // OTHER_WRITES_MS: move its clock past that once, so the commit is seen before this test keeps
  // anything, not in the middle of it (a dropped snapshot would fail "the directory is kept").
  // Another connection's commit (the last test's fresh app) is looked for every OTHER_WRITES_MS,
  // and, while our connection's group of writes is open (lib/group-commit.ts), data_version reads
  // the state that group began with. So the group is committed and the clock moved past that
  // once: the commit is seen before a test keeps anything, not in the middle of it (a dropped
  // snapshot would fail "the directory is kept").
  const settle = () => {
    flushGroup(t.db.$client);
    const later = performance.now() + OTHER_WRITES_MS;
    const clock = vi.spyOn(performance, 'now').mockReturnValue(later);
    try {
      dataStamp(t.db);
    } finally {
      clock.mockRestore();
    }
  };
  beforeEach(settle);

  const directoryUrls = () => [
    '/trpc/business.directoryPage',
    `/trpc/business.directoryFilters`,
    `/trpc/business.directoryCards?input=${encodeURIComponent(JSON.stringify({ ids: [shopId] }))}`,
    '/api/business?limit=24',
    '/api/business?search=konsum&limit=24',
    '/api/business/filters',
    '/api/business/categories',
  ];
  const everyUrl = () => [
    ...directoryUrls(),
    '/api/comment?limit=12',
    `/api/comment/${shopId}`,
    `/api/business/${shopId}`,
    `/trpc/comments.byId?input=${encodeURIComponent(JSON.stringify({ id: reviewId }))}`,
    '/business',
    '/',
    `/business/${shopId}`,
    `/comment/${reviewId}`,
    `/api/comment/${bakeryId}`,
    `/api/business/${bakeryId}`,
    `/business/${bakeryId}`,
  ];

  const cardOf = () => listDirectory(t.deps, null).find((c) => c.id === shopId);
  const get = async (app: FastifyInstance, url: string) => {
    const res = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    // A page says how long ago each post was written ("1 minut sedan") as of its render: the
    // text is left out, its time (the dateTime attribute) is compared.
    return `${res.statusCode} ${res.body.replace(/(<time[^>]*>)[^<]*(<\/time>)/g, '$1$2')}`;
  };
  /** Every URL's reply as an app on a new connection builds it now, nothing kept from before. */
  const freshReplies = async () => {
    const db = openDb(path.join(t.dir, 'recensera.sqlite'));
    const app = await buildApp({ ...t.deps, db }, { logger: false });
    try {
      await app.ready();
      const replies: Record<string, string> = {};
      for (const url of everyUrl()) replies[url] = await get(app, url);
      return replies;
    } finally {
      await app.close();
      closeDb(db);
    }
  };
  const servedReplies = async () => {
    const replies: Record<string, string> = {};
    for (const url of everyUrl()) replies[url] = await get(t.app, url);
    return replies;
  };
  /** Asks for everything twice, so each reply and page is kept. */
  const warm = async () => {
    await servedReplies();
    return servedReplies();
  };

  const keepsDirectory = [
    ['an emoji rating', () => rateComment(t.deps, cast.other.actor, { id: reviewId, rate: 3 })],
    [
      'a new comment without stars',
      () => createComment(t.deps, cast.other.actor, { businessId: shopId, text: 'En till kommentar om butiken', businessLocation: 'Malmö' }),
    ],
    ['a reply', () => createReply(t.deps, cast.admin.actor, { commentId: reviewId, text: 'Håller med om det' })],
    ["the owner's answer", () => putOwnerReply(t.deps, cast.other.actor, { commentId: reviewId, text: 'Tack för besöket' })],
    ['a user renaming themselves', () => updateProfile(t.deps, cast.owner.actor, { firstName: 'Olof', lastName: 'Ägare' })],
    [
      'a moderator removing a comment',
      async () => {
        const c = await createComment(t.deps, cast.owner.actor, { businessId: shopId, text: 'Något som anmäls sen', businessLocation: 'Malmö' });
        await servedReplies();
        const reporter = await createTestUser(t.db);
        await reportPost(t.deps, reporter.actor, 'comment', { id: c._id, reason: 'offensive' });
        await resolveReports(t.deps, cast.admin.actor, { id: c._id, action: 'remove' });
      },
    ],
  ] as const;

  for (const [name, write] of keepsDirectory) {
    it(`after ${name}: every kept reply equals a fresh one, and the directory is kept`, async () => {
      const before = await warm();
      const card = cardOf();
      await write();
      const after = await servedReplies();
      // The directory's cards are the same objects: the snapshot was not built again. (Asked
      // before the fresh app opens: its start commits, and another connection's commit drops it.)
      expect(cardOf()).toBe(card);
      expect(after).toEqual(await freshReplies());
      for (const url of directoryUrls()) expect(after[url], url).toBe(before[url]);
    });
  }

  // A star rating moves only its business's figures: the kept directory takes that card again
  // (patched) instead of being built anew; anything else it shows builds it anew.
  const movesDirectory = [
    ['a star rating', 'patched', () => rateBusiness(t.deps, cast.owner.actor, shopId, 2)],
    ['a star rating taken back', 'patched', () => unrateBusiness(t.deps, cast.owner.actor, shopId)],
    [
      'a new comment with stars',
      'patched',
      () => createComment(t.deps, cast.admin.actor, { businessId: shopId, text: 'Fyra stjärnor från mig', businessLocation: 'Malmö', rate: 4 }),
    ],
    [
      'a business edit',
      'built',
      () =>
        updateBusiness(t.deps, cast.admin.actor, shopId, { description: 'Mat, blommor och annat', branches: [{ location: 'Malmö' }, { location: 'Lund' }] }),
    ],
    [
      'a star rating and a business edit',
      'built',
      async () => {
        await rateBusiness(t.deps, cast.other.actor, bakeryId, 5);
        await updateBusiness(t.deps, cast.admin.actor, bakeryId, { description: 'Bröd och bullar', branches: [{ location: 'Lund' }] });
      },
    ],
  ] as const;

  for (const [name, how, write] of movesDirectory) {
    it(`after ${name}: every kept reply equals a fresh one, the directory's too (${how})`, async () => {
      const before = await warm();
      // Anything another connection committed is in the kept cards before the write is counted.
      settle();
      const card = cardOf();
      const builds = directorySnapshotBuilds(t.db);
      await write();
      const after = await servedReplies();
      expect(cardOf()).not.toBe(card);
      // A write the patch cannot cover builds the cards anew. That a star rating builds nothing
      // is directory.test.ts's to check: here another connection (the last test's fresh app) may
      // be seen committing at any moment, which rightly builds anew too.
      if (how === 'built') expect(directorySnapshotBuilds(t.db) - builds).toBeGreaterThanOrEqual(1);
      expect(after).toEqual(await freshReplies());
      expect(after['/api/business?limit=24']).not.toBe(before['/api/business?limit=24']);
    });
  }

  it("after another connection's write (a script, `npm run admin`): within OTHER_WRITES_MS every kept reply equals a fresh one", async () => {
    await warm();
    const other = new Database(path.join(t.dir, 'recensera.sqlite'));
    try {
      other.prepare("update businesses set title = 'Konsum Öster' where id = ?").run(shopId);
      other.prepare("update users set first_name = 'Annan' where id = ?").run(cast.admin.id);
    } finally {
      other.close();
    }
    await expect
      .poll(async () => (await get(t.app, '/api/business?limit=24')).includes('Konsum Öster'), { timeout: 5 * OTHER_WRITES_MS, interval: 25 })
      .toBe(true);
    expect(await servedReplies()).toEqual(await freshReplies());
  });
});

describe('kept scopes: the cache, the kept documents and an undeclared write', () => {
  let t: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let shopId: string;
  let otherId: string;
  let reviewId: string;

  beforeAll(async () => {
    t = await createTestApp();
    cast = await createCast(t.db);
    shopId = (await createBusiness(t.deps, cast.admin.actor, { title: 'Konsum', category: 'Livsmedel', description: 'Mat', branches: [{ location: 'Malmö' }] }))
      .id;
    otherId = (await createBusiness(t.deps, cast.admin.actor, { title: 'Bageri', category: 'Kafé', description: 'Bröd', branches: [{ location: 'Lund' }] })).id;
    reviewId = (await createComment(t.deps, cast.owner.actor, { businessId: shopId, text: 'En recension här', businessLocation: 'Malmö' }))._id;
  });
  afterAll(() => t.close());

  const request = (url: string) => ({ method: 'GET', url, headers: {} }) as IncomingMessage;

  const declared = [
    ['an emoji rating', () => rateComment(t.deps, cast.other.actor, { id: reviewId, rate: 4 })],
    ['a star rating', () => rateBusiness(t.deps, cast.other.actor, shopId, 3)],
    ['a new comment', () => createComment(t.deps, cast.other.actor, { businessId: shopId, text: 'Ännu en recension', businessLocation: 'Malmö' })],
    ['a reply', () => createReply(t.deps, cast.admin.actor, { commentId: reviewId, text: 'Ett svar till' })],
  ] as const;
  for (const [name, write] of declared) {
    it(`keeps another business's entries through ${name}, not the business's own nor the site-wide lists`, async () => {
      const cache = createPublicCache(t.db);
      const keep = (url: string, scope: StampScope) => cache.keep(url, cache.stamp(scope), Buffer.from(url), '"x"', [], 'list', scope);
      keep('/api/xshop', businessScope(shopId));
      keep('/api/xother', businessScope(otherId));
      keep('/api/xfeed', 'all');
      await write();
      expect(cache.lookup(request('/api/xother'))?.body?.toString()).toBe('/api/xother');
      expect(cache.lookup(request('/api/xshop'))).toBeUndefined();
      expect(cache.lookup(request('/api/xfeed'))).toBeUndefined();
    });
  }

  it("drops every business's entries on an undeclared write (a renamed user, an owner's answer, a script)", async () => {
    const cache = createPublicCache(t.db);
    const keep = (url: string, scope: StampScope) => cache.keep(url, cache.stamp(scope), Buffer.from(url), '"x"', [], 'list', scope);
    keep('/api/xother', businessScope(otherId));
    await updateProfile(t.deps, cast.admin.actor, { firstName: 'Alva', lastName: 'Admin' });
    expect(cache.lookup(request('/api/xother'))).toBeUndefined();
    // A declared write that fails before naming its business is undeclared too.
    keep('/api/xother', businessScope(otherId));
    await expect(rateComment(t.deps, cast.owner.actor, { id: reviewId, rate: 5 })).rejects.toThrow();
    expect(cache.lookup(request('/api/xother'))?.body?.toString()).toBe('/api/xother');
    t.db.$client.prepare("update users set first_name = 'Alma' where id = ?").run(cast.admin.id);
    expect(cache.lookup(request('/api/xother'))).toBeUndefined();
  });

  it("keeps an entry of the businesses' scope through a reaction and drops one of all the data", async () => {
    const cache = createPublicCache(t.db);
    const keep = (url: string, scope: 'all' | 'businesses') => cache.keep(url, cache.stamp(scope), Buffer.from(url), '"x"', [], 'list', scope);
    keep('/api/xa', 'all');
    keep('/api/xb', 'businesses');
    await rateComment(t.deps, cast.other.actor, { id: reviewId, rate: 1 });
    expect(cache.lookup(request('/api/xa'))).toBeUndefined();
    expect(cache.lookup(request('/api/xb'))?.body?.toString()).toBe('/api/xb');
    // A write to a business drops both.
    keep('/api/xa', 'all');
    t.db.$client.prepare("update businesses set phone = '040-123' where id = ?").run(shopId);
    expect(cache.lookup(request('/api/xa'))).toBeUndefined();
    expect(cache.lookup(request('/api/xb'))).toBeUndefined();
  });

  it('keeps a document of the businesses scope through a reaction, not through a write to a branch', async () => {
    const written: string[][] = [];
    const write = (missing: string[]) => {
      written.push(missing);
      return new Map(missing.map((id) => [id, JSON.stringify({ id })]));
    };
    keptArrayOf(t.db, 'scope-test', [shopId], write, 'businesses');
    await rateComment(t.deps, cast.other.actor, { id: reviewId, rate: 2 });
    keptArrayOf(t.db, 'scope-test', [shopId], write, 'businesses');
    // Kept: nothing was written again.
    expect(written).toEqual([[shopId]]);
    t.db.$client.prepare("update branches set phone = '040-1' where business_id = ?").run(shopId);
    keptArrayOf(t.db, 'scope-test', [shopId], write, 'businesses');
    expect(written).toEqual([[shopId], [shopId]]);
  });

  it('drops everything on a write no scope names: a kept document of all the data does not outlive a reaction', async () => {
    const written: string[][] = [];
    const write = (missing: string[]) => {
      written.push(missing);
      return new Map(missing.map((id) => [id, JSON.stringify({ id })]));
    };
    keptArrayOf(t.db, 'scope-test-all', [shopId], write);
    await rateComment(t.deps, cast.other.actor, { id: reviewId, rate: 3 });
    keptArrayOf(t.db, 'scope-test-all', [shopId], write);
    expect(written).toEqual([[shopId], [shopId]]);
  });
});
