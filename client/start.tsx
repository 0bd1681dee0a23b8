import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { loadCatalog, readLanguage } from './i18n';
import { readPageData } from './lib/early-data';
import { keepFocusAcrossFirstRender } from './lib/focus-handoff';
import { preloadPage } from './routes';

function render() {
  const container = document.getElementById('root')!;
  const served = readPageData();
  const hydrating = Boolean(served);
  const app = (
    <StrictMode>
      <App rendersItself={!hydrating} />
    </StrictMode>
  );
  // A page the server rendered with its data (server/plugins/spa-pages.ts) is hydrated: React
  // takes over the server's elements instead of painting new ones, so what is on screen stays
  // (and stays the page's largest paint). The first render reads the same data
  // (lib/page-data.ts). In a transition, hydration runs in slices that yield to the browser (a
  // press on a part not yet hydrated hydrates that part first) instead of one long task. A
  // build-time first paint, or one for a state of the query string (no data, its controls made
  // inert by client/prerender.tsx), is rendered anew below.
  if (hydrating) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  // The prerendered copy's focused element goes with it: the same one in the app gets focus.
  keepFocusAcrossFirstRender(container);
  const root = createRoot(container);
  // A transition renders in slices that yield to the browser between components, instead of
  // one long task for the whole first page (a prerendered copy is on screen meanwhile).
  startTransition(() => {
    root.render(app);
  });
}

/**
 * Renders the app; English pages wait for their catalog (if it cannot load, the page renders in
 * Swedish). A page painted before its scripts (prerendered, or served with its data) also waits
 * for its own chunk, which the entry asked for already: rendered at once, the router would show
 * its loading spinner in place of that paint until the chunk arrived (a failed load is left to
 * the router, which shows its error).
 */
export function start() {
  const painted = Boolean(document.getElementById('root')?.firstChild);
  const page = painted ? preloadPage(window.location.pathname).catch(() => {}) : null;
  Promise.all([loadCatalog(readLanguage()), page]).then(render, render);
}
