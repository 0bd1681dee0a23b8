import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../db/schema';
import { createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { insertBusiness } from '../test/comment-fixtures';
import { createComment } from '../services/comments/comments';
import { createSitemap } from '../services/site/sitemap';

let t: TestContext;
let shop: string;
let commentId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://recensera.example.se', RATE_LIMITS: '0' } });
  const user = await createTestUser(t.db);
  shop = insertBusiness(t.db, 'Järnhandeln');
  commentId = (await createComment(t.deps, user.actor, { businessId: shop, text: 'Bra service & trevligt', businessLocation: 'Umeå' }))._id;
});
afterAll(() => t.close());

/** Each <loc> of a sitemap or sitemap index, after checking the document's outline. */
function locs(xml: string, root: 'urlset' | 'sitemapindex'): string[] {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  expect(xml).toMatch(new RegExp(`<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">[\\s\\S]*</${root}>\\n$`));
  // Well-formed enough for a crawler: no raw ampersands or angle brackets inside values.
  expect(xml.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/&/);
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
}

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt opens public pages, closes accounts, admin pages and the APIs, and names the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const line of [
      'User-agent: *',
      'Disallow: /user',
      'Disallow: /business-mng',
      'Disallow: /api/',
      'Disallow: /trpc/',
      'Sitemap: https://recensera.example.se/sitemap.xml',
    ]) {
      expect(res.body.split('\n')).toContain(line);
    }
  });

  it('lists the public pages, every business and comment with lastmod, and a new business at once', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/xml; charset=utf-8');
    const urls = locs(first.body, 'urlset');
    expect(urls).toEqual(
      expect.arrayContaining([
        'https://recensera.example.se/',
        'https://recensera.example.se/business',
        `https://recensera.example.se/business/${shop}`,
        `https://recensera.example.se/comment/${commentId}`,
      ]),
    );
    expect(first.body).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);

    // A comment hidden while it is reported leaves the sitemap.
    t.db.update(comments).set({ hiddenAt: Date.now() }).where(eq(comments.id, commentId)).run();
    expect(locs((await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body, 'urlset')).not.toContain(
      `https://recensera.example.se/comment/${commentId}`,
    );
    t.db.update(comments).set({ hiddenAt: null }).where(eq(comments.id, commentId)).run();

    const added = insertBusiness(t.db, 'Ny & fin');
    const second = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(locs(second.body, 'urlset')).toContain(`https://recensera.example.se/business/${added}`);
  });

  it('splits into a sitemap index past the per-file limit, and unknown files are 404', async () => {
    const sitemap = createSitemap(t.db, 'https://recensera.example.se', 2);
    const index = locs(sitemap.file('sitemap.xml') as string, 'sitemapindex');
    expect(index[0]).toBe('https://recensera.example.se/sitemaps/static.xml');
    expect(index.filter((u) => u.includes('/businesses-'))).toHaveLength(1);
    const all = index.flatMap((u) => locs(sitemap.file(u.split('/').pop() as string) as string, 'urlset'));
    expect(all).toContain(`https://recensera.example.se/business/${shop}`);
    expect(all).toContain(`https://recensera.example.se/comment/${commentId}`);
    expect(sitemap.file('comments-99.xml')).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/sitemaps/comments-1.xml' })).statusCode).toBe(404);
  });
});
