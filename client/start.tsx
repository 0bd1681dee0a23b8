import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { loadCatalog, readLanguage } from './i18n';
import { readPageData } from './lib/early-data';
import { keepFocusAcrossFirstRender } from './lib/focus-handoff';

function render() {
  const container = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A page the server rendered with its data (server/plugins/spa-pages.ts) is hydrated: React
  // takes over the server's elements instead of painting new ones, so what is on screen stays
  // (and stays the page's largest paint). The first render reads the same data
  // (lib/page-data.ts). In a transition, hydration runs in slices that yield to the browser (a
  // press on a part not yet hydrated hydrates that part first) instead of one long task. A first
  // paint with data whose controls are inert (`replace`: home, directory) is rendered anew below,
  // from the same data, like a build-time first paint.
  const served = readPageData();
  if (served && !served.replace) {
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

/** Renders the app; English pages wait for their catalog (if it cannot load, the page renders in Swedish). */
export function start() {
  loadCatalog(readLanguage()).then(render, render);
}
