// The entry is small on purpose. A page with a prerendered first render, or rendered by the
// server with its data (server/plugins/spa.ts), paints from HTML and CSS alone; the app's
// scripts are only requested after that paint, so on a slow connection they do not compete with
// the stylesheets for the first screen. Pages without one start at once (the server preloads
// their scripts).
import { readPageData, startEarlyQuery } from './lib/early-data';
import './styles/global.css';

const prerendered = Boolean(document.getElementById('root')?.firstChild);

function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** The first page's own chunk, fetched alongside the app instead of after it (same chunks as routes.tsx). */
function loadFirstPage(path: string): Promise<unknown> {
  if (path === '/') return import('./pages/home');
  if (/^\/business\/?$/.test(path)) return import('./pages/directory');
  if (/^\/business\/[^/]+\/?$/.test(path)) return import('./pages/business-detail');
  return Promise.resolve();
}

/**
 * The business page's data waits for nothing else, so it is asked for before the app loads;
 * not when the server rendered the page with it, unless the visitor's own view (signed in) differs.
 */
function startFirstQuery(path: string) {
  const business = /^\/business\/([^/]+)\/?$/.exec(path);
  if (business?.[1] && !readPageData()?.anonymous) startEarlyQuery('business.byId', { id: decodeURIComponent(business[1]) });
}

function boot() {
  if (prerendered) {
    startFirstQuery(window.location.pathname);
    // A failed prefetch is not fatal: the router loads the page again and shows its error.
    loadFirstPage(window.location.pathname).catch(() => {});
    // English by the URL (?lang=en) or, when the URL names no language, by the cookie.
    const inUrl = /[?&]lang=(sv|en)(?:&|$)/.exec(window.location.search)?.[1];
    if ((inUrl ?? (/(?:^|;\s*)lang=en(?:;|$)/.test(document.cookie) ? 'en' : 'sv')) === 'en') import('./i18n/en').catch(() => {});
  }
  return import('./start').then((m) => m.start());
}

void (prerendered ? afterFirstPaint().then(boot) : boot());
