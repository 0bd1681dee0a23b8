import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadCatalog, readLanguageCookie } from './i18n';
import './styles/global.css';

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// A prerendered first render (server/plugins/spa.ts) gets painted before React replaces it
// with the same markup: the frame after this one, not after all the scripts' work.
function afterFirstPaint(): Promise<void> {
  if (!document.getElementById('root')?.firstChild) return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// English visitors wait for their catalog (preloaded by the server's hint); if it cannot load,
// the page still renders, in Swedish.
Promise.all([loadCatalog(readLanguageCookie()).catch(() => {}), afterFirstPaint()]).then(render, render);
