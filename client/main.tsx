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

// English visitors wait for their catalog (preloaded by the server's hint); if it cannot load,
// the page still renders, in Swedish.
loadCatalog(readLanguageCookie()).then(render, render);
