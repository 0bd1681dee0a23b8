// The server-side render of a page, built by vite.config.ts into the client build's
// .vite/ssr/prerender.js. At build time it renders each prerendered page's first render, before
// any data (the browser's createRoot replaces it with the same markup, so nothing moves); at
// request time server/plugins/spa.ts renders a page with its data (the browser hydrates it).
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app';
import { loadAllNamespaces, loadCatalog, type Language } from './i18n';
import type { PageData } from '../shared/schemas/page-data';
import type { SiteText } from '../shared/schemas/site-settings';
import { PageDataContext } from './lib/page-data';

/**
 * A page's first render before any data, for index.html (build time, and at request time for a
 * state in the query string: server/plugins/spa.ts). It is shown until the app's scripts have
 * run, and its buttons and fields do nothing until then: they are disabled, so a press or a
 * typed word is not silently lost (the app's own controls replace them in the same places).
 * Links work as plain links. (Pages the server renders with their data, home, the directory, a
 * business or a comment page, are hydrated, which must find React's own markup: renderPage, whose
 * controls render disabled until then, lib/hydrated.ts.)
 */
export async function renderFirstPaint(path: string, lang: Language, site?: SiteText): Promise<string> {
  const html = await renderPage(path, lang, null, site);
  // Not twice on a control React rendered disabled already (the header's, until hydration).
  return html.replace(/<(button|input|select|textarea)(?=[\s>/])(?![^>]*\sdisabled(?:=""|[\s>/]))/g, '<$1 disabled');
}

/** `site`: the site's words an admin set (server/services/site/site-settings.ts); the release's own without. */
export async function renderPage(path: string, lang: Language, pageData: PageData | null = null, site?: SiteText): Promise<string> {
  await loadCatalog(lang);
  await loadAllNamespaces(lang);
  const { prelude } = await prerenderToNodeStream(
    <PageDataContext value={pageData}>
      <Router ssrPath={path}>
        <App lang={lang} site={site} />
      </Router>
    </PageDataContext>,
    // One piece: no boundary is sent ahead of its content, so the HTML needs no inline script
    // to put them together (the CSP allows none).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  // No script or style either: their text is read as written, so the server's character
  // references for wide characters (oneByteHtml, server/plugins/spa-build.ts) would show in them.
  if (/<script|<style|<template/i.test(html)) throw new Error(`prerender of ${path} (${lang}) needs an inline script or style; it must render in one piece`);
  return html;
}
