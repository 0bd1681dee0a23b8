// The entry is small on purpose. A page with a prerendered first render, or rendered by the
// server with its data (server/plugins/spa.ts), paints from HTML and CSS alone; the app's
// scripts are only requested after that paint, so on a slow connection they do not compete with
// the stylesheets for the first screen. Pages without one start at once (the server preloads
// their scripts).
import { matchRoute, type FirstPage, type PageName } from '../shared/schemas/routes';
import { readPageData, startEarlyQuery } from './lib/early-data';
import { lazyParts, PAGE_NAMESPACES } from './i18n/namespace-chunks';
import './styles/global.css';

// zod compiles a fast path for object schemas after probing `new Function("")` once, when the
// first one is made. Our CSP (script-src 'self') refuses it: zod catches that and falls back,
// but the browser still reports a CSP violation (DevTools' Issues panel, Lighthouse's best
// practices). `jitless` skips the probe; zod reads its config from this global (zod/v4/core),
// so it is set here, before any chunk that makes a schema loads, without bringing zod into
// the entry. The server keeps the compiled path (it has no CSP). e2e/fixtures.ts fails any
// journey that meets a CSP violation.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

const prerendered = Boolean(document.getElementById('root')?.firstChild);

function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * The chunks of the pages that paint before their scripts (shared/schemas/routes.ts: prerendered,
 * or rendered by the server with their data), fetched alongside the app instead of after it.
 * Typed by the route list, so a page added there must be added here.
 */
const FIRST_PAGES: Record<FirstPage, () => Promise<unknown>> = {
  home: () => import('./pages/home'),
  directory: () => import('./pages/directory'),
  'business-detail': () => import('./pages/business-detail'),
  comment: () => import('./pages/comment'),
};

/**
 * The first page's chunk, and its data (that waits for nothing else), asked for before the app
 * loads; the data not when the server rendered the page with it, unless the visitor's own view
 * (signed in) differs.
 */
function startFirstPage(path: string): Promise<unknown> {
  const match = matchRoute(path);
  if (!match?.route.page) return Promise.resolve();
  const { query } = match.route;
  const id = match.params.id;
  if (query && id && !readPageData()?.anonymous) {
    try {
      startEarlyQuery(query, { id: decodeURIComponent(id) });
    } catch {
      // Not an id at all (bad %-escape): the page shows its not-found state.
    }
  }
  // The page's lazy catalog namespaces too (client/i18n/namespace-chunks.ts), so the app does
  // not wait a round trip for them after its own chunk has run.
  const parts = lazyParts[language()];
  const namespaces = (PAGE_NAMESPACES[match.route.page as PageName] ?? []).map((ns) => parts[ns]());
  const page = (FIRST_PAGES as Partial<Record<string, () => Promise<unknown>>>)[match.route.page]?.() ?? Promise.resolve();
  return Promise.all([page, ...namespaces]);
}

/** The page's language as client/i18n reads it: the URL's (?lang=sv|en), else the cookie's. */
function language(): 'sv' | 'en' {
  const inUrl = /[?&]lang=(sv|en)(?:&|$)/.exec(window.location.search)?.[1];
  return (inUrl ?? (/(?:^|;\s*)lang=en(?:;|$)/.test(document.cookie) ? 'en' : 'sv')) === 'en' ? 'en' : 'sv';
}

function boot() {
  if (prerendered) {
    // A failed prefetch is not fatal: the router loads the page again and shows its error.
    startFirstPage(window.location.pathname).catch(() => {});
    // English by the URL (?lang=en) or, when the URL names no language, by the cookie.
    if (language() === 'en') import('./i18n/en-first').catch(() => {});
  }
  return import('./start').then((m) => m.start());
}

void (prerendered ? afterFirstPaint().then(boot) : boot());
