import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadCatalog, readLanguageCookie } from './i18n';

function render() {
  const root = createRoot(document.getElementById('root')!);
  // A transition renders in slices that yield to the browser between components, instead of
  // one long task for the whole first page (a prerendered copy is on screen meanwhile).
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

/** Renders the app; English visitors wait for their catalog (if it cannot load, the page renders in Swedish). */
export function start() {
  loadCatalog(readLanguageCookie()).then(render, render);
}
