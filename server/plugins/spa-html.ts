// index.html for one page: the route's stylesheets and script hints, the document language, the
// page's head, and in #root its first paint (prerendered, or rendered with its data).
import { PAGE_DATA_ID, type PageData } from '../../shared/schemas/page-data';
import { matchRoute, pageChunk, ROUTES, type Route } from '../../shared/schemas/routes';
import { jsonForScript, LANG_PARAM } from './page-head';
import type { Manifest, Prerendered } from './spa-build';

/** The page chunk of a path (shared/schemas/routes.ts); '' when no route has it. */
export function routeOf(urlPath: string): string {
  const page = matchRoute(urlPath)?.route.page;
  return page ? pageChunk(page) : '';
}

/**
 * The chunks of the pages the server renders with their data (a route with a `query`): their
 * render may hold sections the chunk loads lazily (the business page's comments and photos).
 */
const SERVED_CHUNKS = new Set((ROUTES as readonly Route[]).flatMap((r) => (r.page && r.query ? [pageChunk(r.page)] : [])));

/** The app itself (React, router, layout), which the small entry client/main.tsx imports. */
const APP_CHUNK = 'start.tsx';
/** The English catalog's chunk (client/i18n/index.tsx loads it before the first render). */
// The English catalog's first part (client/i18n/catalogs.ts); its manifest key is relative to Vite's root (client/).
const ENGLISH_CATALOG = 'i18n/en-first.ts';

// Every `replace` below that inserts text takes a function: in a replacement *string*, `$\``,
// `$'` and `$&` expand, so a comment or a search holding them would copy the page into itself.
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A page rendered at request time with its first query's answer. */
export type ServedPage = PageData & { html: string };

/**
 * Builds index.html for one page: the stylesheets of the app and the route's chunks, the
 * document language, and inside #root either the page rendered at request time with its data
 * (`served`, followed by that data as a JSON block; the browser hydrates it), or the page's
 * prerendered first render (it paints before any script runs; createRoot then replaces it with
 * the same markup), or, for pages without one, nothing but modulepreload links for the app, the
 * route's chunks and, for visitors whose cookie asks for English, the English catalog (minus
 * what the entry already preloads).
 */
export function makePageHtml(indexHtml: string, manifest: Manifest | null, prerendered: Prerendered | null = null) {
  const entryKey = manifest ? Object.keys(manifest).find((k) => manifest[k]?.isEntry) : undefined;
  // Everything the entry pulls in statically is already in index.html (Vite's own preloads).
  const inEntry = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest?.[key]) return;
    into.add(key);
    for (const dep of manifest[key].imports ?? []) walk(dep, into);
  };
  if (entryKey) walk(entryKey, inEntry);

  /** Stylesheets of the chunks behind `keys`; with `scripts`, modulepreload links for the chunks too. */
  const hintsFor = (keys: string[], scripts: boolean) => {
    // Dependencies before the chunks that import them, as Vite's loader orders their CSS.
    const chunks = new Set<string>();
    const seen = new Set<string>();
    const postOrder = (key: string) => {
      if (seen.has(key) || !manifest?.[key]) return;
      seen.add(key);
      for (const dep of manifest[key].imports ?? []) postOrder(dep);
      chunks.add(key);
    };
    for (const key of keys) postOrder(key);
    const links: string[] = [];
    for (const key of chunks) {
      if (inEntry.has(key)) continue;
      const chunk = manifest![key];
      if (scripts) links.push(`<link rel="modulepreload" crossorigin href="/${escapeAttr(chunk.file)}">`);
      // Stylesheets, not preloads: a prerendered page needs them for its first paint (and
      // Vite's loader skips stylesheets already in the document).
      for (const css of chunk.css ?? []) links.push(`<link rel="stylesheet" crossorigin href="/${escapeAttr(css)}">`);
    }
    return links.join('');
  };

  const ROOT = '<div id="root"></div>';
  // index.html's own title and description stand in for pages served without a head (none in
  // the app; kept for tests of the hints): each page's head takes their place.
  const TITLE = /<title>[^<]*<\/title>/;
  const base = indexHtml.replace(/<meta name="description"[^>]*>\s*/, '');
  const cache = new Map<string, [string, string]>();
  /** index.html with the route's hints and language, split where the page's head goes; a render (if any) goes into ROOT. */
  const shell = (route: string, lang: 'sv' | 'en', rendered: boolean) => {
    const cacheKey = `${route}|${lang}|${rendered}`;
    const hit = cache.get(cacheKey);
    if (hit !== undefined) return hit;
    let html = base;
    if (manifest && html.includes('</head>')) {
      const keys = [APP_CHUNK, route, lang === 'en' ? ENGLISH_CATALOG : ''].filter((k) => k && manifest[k]);
      // A page rendered with its data may hold the render of a section its chunk loads lazily
      // (the business page's comments and photos): that section's stylesheets come with the
      // page, or it paints unstyled and shifts when its chunk arrives. Stylesheets only.
      if (rendered && SERVED_CHUNKS.has(route)) keys.push(...(manifest[route]?.dynamicImports ?? []).filter((k) => manifest[k]));
      // A prerendered page paints from HTML and CSS; client/main.tsx fetches its scripts after
      // that paint. Any other page needs its scripts first, so they are preloaded here.
      const hints = hintsFor(keys, !rendered);
      html = html.replace('</head>', () => `${hints}</head>`);
    }
    if (lang === 'en') html = html.replace('<html lang="sv"', '<html lang="en"');
    const title = TITLE.exec(html);
    const parts: [string, string] = title ? [html.slice(0, title.index), html.slice(title.index + title[0].length)] : [html, ''];
    cache.set(cacheKey, parts);
    return parts;
  };
  /**
   * `head`: the page's head tags (page-head.ts), in place of index.html's title. `firstPaint`
   * stands in for the route's prerendered first render when the query string changes it (a
   * string), or when that render could not be made (null: the page then paints from its scripts
   * rather than show a state the address does not ask for).
   */
  return (urlPath: string, lang: 'sv' | 'en', head: string, served: ServedPage | null = null, firstPaint?: string | null): string => {
    const route = routeOf(urlPath);
    const hasRoot = indexHtml.includes(ROOT);
    const page = (rendered: boolean) => {
      const [before, after] = shell(route, lang, rendered);
      return after ? before + head + after : before;
    };
    if (served && hasRoot) {
      // The data block sits outside #root, which React hydrates (client/start.tsx).
      const { html: _html, ...pageData } = served;
      const block = `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(pageData satisfies PageData)}</script>`;
      return page(true).replace(ROOT, () => `<div id="root">${served.html}</div>${block}`);
    }
    const firstRender = hasRoot ? (firstPaint === undefined ? prerendered?.[route]?.[lang] : firstPaint) : undefined;
    const html = page(Boolean(firstRender));
    return firstRender ? html.replace(ROOT, () => `<div id="root">${firstRender}</div>`) : html;
  };
}

/**
 * The page's language: `?lang=sv|en` in its URL (the form search engines and shared links use),
 * else the visitor's cookie, else Swedish.
 */
export function languageOf(url: string, cookieHeader: string | undefined): 'sv' | 'en' {
  const query = url.indexOf('?');
  if (query !== -1) {
    const asked = new URLSearchParams(url.slice(query + 1)).get(LANG_PARAM);
    if (asked === 'sv' || asked === 'en') return asked;
  }
  return langOf(cookieHeader);
}

function langOf(cookieHeader: string | undefined): 'sv' | 'en' {
  return /(?:^|;\s*)lang=en(?:;|$)/.test(cookieHeader ?? '') ? 'en' : 'sv';
}
