import { and, asc, count, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { businesses, comments } from '../../../db/schema';
import { dataStamp } from '../../lib/data-stamp';
import { ROUTES, type Route } from '../../../shared/schemas/routes';

/** The sitemap protocol's limit of URLs per file; past it, a sitemap index lists the files. */
export const URLS_PER_SITEMAP = 50_000;

/** Public pages without an id: home, directory and the static pages. */
const STATIC_PATHS = ROUTES.filter((r: Route) => r.sitemap).map((r) => r.path);
/** Pages only for a signed-in visitor or an admin (a `:name` segment and what follows left open). */
const PRIVATE_PATHS = ROUTES.filter((r: Route) => r.auth).map((r) => r.path.replace(/:\w+.*$/, ''));

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function urlset(base: string, entries: { path: string; lastmod?: number }[]): string {
  const urls = entries.map((e) => `<url><loc>${xmlEscape(base + e.path)}</loc>${e.lastmod ? `<lastmod>${day(e.lastmod)}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: public pages open, accounts, admin pages and the APIs closed, the sitemap named. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`),
    'Disallow: /api/',
    'Disallow: /trpc/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * The sitemap, kept in memory like the public reply cache: files are built on request and kept
 * while the data stamp holds (any write may add or remove a page). Small sites get one file;
 * past `perFile` URLs (URLS_PER_SITEMAP), /sitemap.xml is an index of /sitemaps/businesses-N.xml and
 * /sitemaps/comments-N.xml files, each read by an index walk in id order.
 */
export function createSitemap(db: Db, publicUrl: string, perFile = URLS_PER_SITEMAP) {
  let stamp = '';
  const files = new Map<string, string>();

  const fresh = () => {
    const now = dataStamp(db);
    if (now !== stamp) {
      files.clear();
      stamp = now;
    }
  };

  /** One file's worth of a table's pages, in id order (the primary key's index). */
  const pagesOf = (table: typeof businesses | typeof comments, prefix: string, shown?: SQL) => (page: number) =>
    db
      .select({ id: table.id, updatedAt: table.updatedAt })
      .from(table)
      .where(shown)
      .orderBy(asc(table.id))
      .limit(perFile)
      .offset(page * perFile)
      .all()
      .map((row) => ({ path: `${prefix}${encodeURIComponent(row.id)}`, lastmod: row.updatedAt }));
  const businessPage = pagesOf(businesses, '/business/');
  // A comment hidden while reported, or removed by a moderator, is no page to offer.
  const shownComment = and(isNull(comments.hiddenAt), isNull(comments.removedAt));
  const commentPage = pagesOf(comments, '/comment/', shownComment);
  const counts = () => ({
    businesses: db.select({ n: count() }).from(businesses).get()?.n ?? 0,
    comments: db.select({ n: count() }).from(comments).where(shownComment).get()?.n ?? 0,
  });

  function build(name: string): string | null {
    const { businesses: nb, comments: nc } = counts();
    const total = STATIC_PATHS.length + nb + nc;
    if (name === 'sitemap.xml') {
      if (total <= perFile) {
        return urlset(publicUrl, [...STATIC_PATHS.map((p) => ({ path: p })), ...businessPage(0), ...commentPage(0)]);
      }
      const parts = ['static.xml'];
      for (let i = 0; i * perFile < nb; i++) parts.push(`businesses-${i + 1}.xml`);
      for (let i = 0; i * perFile < nc; i++) parts.push(`comments-${i + 1}.xml`);
      const items = parts.map((p) => `<sitemap><loc>${xmlEscape(`${publicUrl}/sitemaps/${p}`)}</loc></sitemap>`);
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
    }
    if (total <= perFile) return null;
    if (name === 'static.xml')
      return urlset(
        publicUrl,
        STATIC_PATHS.map((p) => ({ path: p })),
      );
    const m = /^(businesses|comments)-([1-9]\d{0,5})\.xml$/.exec(name);
    if (!m) return null;
    const page = Number(m[2]) - 1;
    if (page * perFile >= (m[1] === 'businesses' ? nb : nc)) return null;
    return urlset(publicUrl, m[1] === 'businesses' ? businessPage(page) : commentPage(page));
  }

  return {
    /** A sitemap file by name ('sitemap.xml', 'comments-2.xml' …), or null when there is none. */
    file(name: string): string | null {
      fresh();
      const kept = files.get(name);
      if (kept !== undefined) return kept;
      const built = build(name);
      if (built !== null) files.set(name, built);
      return built;
    },
  };
}
