// Every page of the client, once. The client router (client/routes.tsx), the entry's first-page
// loader (client/main.tsx), the server's page answers (server/plugins/spa*.ts, page-head.ts, the
// sitemap) and the build's prerender (vite.config.ts) all read this list. No Node imports and
// no React: the small entry bundles it.

/**
 * One route. `path` is a wouter pattern (`:name` is one path segment); it matches as wouter
 * does: any case, with or without a trailing slash.
 */
export type Route = {
  readonly path: string;
  /** The page's module `client/pages/<page>.tsx`, its own chunk (`pages/<page>.tsx` in Vite's manifest); none for a redirect. */
  readonly page?: string;
  /** Where this path sends the browser (the old site's addresses). */
  readonly redirect?: string;
  /** Only for a signed-in visitor, a moderator (or admin), or an admin; the page is `noindex`. */
  readonly auth?: 'user' | 'moderator' | 'admin';
  /**
   * The address whose first render (before any data) the build writes to `.vite/prerender.json`:
   * the page paints from HTML and CSS before its scripts have run.
   */
  readonly prerender?: string;
  /**
   * The page's first query, asked with `{ id: <the :id segment> }`: the entry asks for it
   * before the app has loaded, and the server renders the page with its answer (the anonymous view).
   */
  readonly query?: 'business.byId' | 'comments.byId';
  /**
   * The paged list a prerendered page shows (its first page, in the state of the query string):
   * the server renders the page's first paint with it at request time (the anonymous view), and
   * the client's list starts with the same page.
   */
  readonly list?: 'comments.feed' | 'business.directoryPage';
  /** Its own title, description and canonical link for search engines (else `noindex`). */
  readonly indexable?: boolean;
  /** Listed in /sitemap.xml (pages with an `:id` are listed by the sitemap from the data). */
  readonly sitemap?: boolean;
};

export const ROUTES = [
  { path: '/', page: 'home', prerender: '/', list: 'comments.feed', indexable: true, sitemap: true },
  { path: '/about', page: 'about', indexable: true, sitemap: true },
  { path: '/terms-of-use', page: 'terms', indexable: true, sitemap: true },
  { path: '/policy', page: 'policy', indexable: true, sitemap: true },
  { path: '/contact', page: 'contact', indexable: true, sitemap: true },
  { path: '/login', page: 'login', indexable: true },
  { path: '/logIn', redirect: '/login' },
  { path: '/registration', page: 'registration', indexable: true },
  { path: '/users/confirm-email', page: 'confirm-email' },
  { path: '/google-logIn', page: 'google-login' },
  { path: '/forgot-password', page: 'forgot-password' },
  { path: '/reset-password', page: 'reset-password' },
  { path: '/user', page: 'profile', auth: 'user' },
  { path: '/notifications', page: 'notifications', auth: 'user' },
  // A user's public profile (issue 30): open to all, never indexed (not `indexable`).
  { path: '/u/:id', page: 'public-profile' },
  { path: '/user-mng', page: 'user-management', auth: 'admin' },
  { path: '/contact-inbox', page: 'contact-inbox', auth: 'admin' },
  { path: '/site-settings', page: 'site-settings', auth: 'admin' },
  { path: '/business', page: 'directory', prerender: '/business', list: 'business.directoryPage', indexable: true, sitemap: true },
  { path: '/products', redirect: '/business' },
  { path: '/business/:id', page: 'business-detail', prerender: '/business/_', query: 'business.byId', indexable: true },
  { path: '/favorites/:userId', page: 'favorites', auth: 'user' },
  { path: '/business-mng', page: 'business-management', auth: 'admin' },
  { path: '/comment/:id', page: 'comment', query: 'comments.byId', indexable: true },
  { path: '/cmt-mng', page: 'comment-moderation', auth: 'moderator' },
  { path: '/mod-queue', page: 'mod-queue', auth: 'moderator' },
  { path: '/mod-log', page: 'mod-log', auth: 'moderator' },
  { path: '/suggest', page: 'suggest-place', auth: 'user' },
  { path: '/suggestions', page: 'suggestions', auth: 'moderator' },
  { path: '/claims', page: 'claims', auth: 'admin' },
  { path: '/owner/:id', page: 'owner-numbers', auth: 'user' },
] as const satisfies readonly Route[];

/** The page shown for any other path (and for unknown ids). */
export const NOT_FOUND_PAGE = 'not-found';

/** A page module's name (`client/pages/<name>.tsx`). */
export type PageName = Extract<(typeof ROUTES)[number], { page: string }>['page'] | typeof NOT_FOUND_PAGE;
/** The pages whose chunk the entry fetches alongside the app: they paint (or are rendered) before their scripts run. */
export type FirstPage = Extract<(typeof ROUTES)[number], { prerender: string } | { query: string }>['page'];

/** The page's chunk, as Vite's build manifest names it. */
export const pageChunk = (page: string) => `pages/${page}.tsx`;

const patterns = new Map<string, RegExp>();
const patternOf = (path: string) => {
  let re = patterns.get(path);
  if (!re) {
    re = new RegExp(`^${path === '/' ? '' : path.replace(/:\w+/g, '([^/]+)')}/?$`, 'i');
    patterns.set(path, re);
  }
  return re;
};

/**
 * The route of a path (no query string) and its `:name` segments (still URL-encoded); null
 * when no route has it (the not-found page).
 */
export function matchRoute(urlPath: string): { route: Route; params: Record<string, string> } | null {
  for (const route of ROUTES as readonly Route[]) {
    const m = patternOf(route.path).exec(urlPath);
    if (!m) continue;
    const names = route.path.match(/:\w+/g) ?? [];
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name.slice(1)] = m[i + 1]!));
    return { route, params };
  }
  return null;
}
