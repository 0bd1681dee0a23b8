// Build-time only (vite.config.ts runs it after the client build): the HTML of a page's first
// client render, before any data, so index.html can show it while the scripts load. The
// browser's createRoot replaces it with the same markup, so nothing moves.
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app';
import { loadCatalog, type Language } from './i18n';

export async function renderPage(path: string, lang: Language): Promise<string> {
  await loadCatalog(lang);
  const { prelude } = await prerenderToNodeStream(
    <Router ssrPath={path}>
      <App lang={lang} />
    </Router>,
    // One piece: no boundary is sent ahead of its content, so the HTML needs no inline script
    // to put them together (the CSP allows none).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  if (/<script|<template/i.test(html)) throw new Error(`prerender of ${path} (${lang}) needs an inline script; it must render in one piece`);
  return html;
}
