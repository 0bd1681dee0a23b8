import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import { appErrorBody } from './errors';

/** One chunk of Vite's build manifest (client/.vite/manifest.json). */
type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;
/** .vite/prerender.json (vite.config.ts): a page's first render before data, by page chunk and language. */
type Prerendered = Record<string, Partial<Record<'sv' | 'en', string>>>;

/**
 * The page chunk each client route loads first (client/routes.tsx), so index.html can ask for
 * it at once instead of after the main bundle has run: one round trip less before the page
 * shows. Routes missing here still work; they just load their chunk the usual way.
 */
export const routeChunks: [RegExp, string][] = [
  [/^\/$/, 'pages/home.tsx'],
  [/^\/business\/?$/, 'pages/directory.tsx'],
  [/^\/business\/[^/]+\/?$/, 'pages/business-detail.tsx'],
  [/^\/comment\/[^/]+\/?$/, 'pages/comment.tsx'],
  [/^\/about\/?$/, 'pages/about.tsx'],
  [/^\/contact\/?$/, 'pages/contact.tsx'],
  [/^\/terms-of-use\/?$/, 'pages/terms.tsx'],
  [/^\/policy\/?$/, 'pages/policy.tsx'],
  [/^\/login\/?$/, 'pages/login.tsx'],
  [/^\/registration\/?$/, 'pages/registration.tsx'],
];
/** The app itself (React, router, layout), which the small entry client/main.tsx imports. */
const APP_CHUNK = 'start.tsx';
/** The English catalog's chunk (client/i18n/index.tsx loads it before the first render). */
const ENGLISH_CATALOG = 'i18n/en.ts';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Builds index.html for one page: the stylesheets of the app and the route's chunks, the
 * document language, and either the page's prerendered first render inside #root (it paints
 * before any script runs; createRoot then replaces it with the same markup) or, for pages
 * without one, modulepreload links for the app, the route's chunks and, for visitors whose
 * cookie asks for English, the English catalog (minus what the entry already preloads).
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
      const chunk = manifest![key]!;
      if (scripts) links.push(`<link rel="modulepreload" crossorigin href="/${escapeAttr(chunk.file)}">`);
      // Stylesheets, not preloads: a prerendered page needs them for its first paint (and
      // Vite's loader skips stylesheets already in the document).
      for (const css of chunk.css ?? []) links.push(`<link rel="stylesheet" crossorigin href="/${escapeAttr(css)}">`);
    }
    return links.join('');
  };

  const cache = new Map<string, string>();
  return (urlPath: string, lang: 'sv' | 'en'): string => {
    const route = routeChunks.find(([pattern]) => pattern.test(urlPath))?.[1] ?? '';
    const cacheKey = `${route}|${lang}`;
    const hit = cache.get(cacheKey);
    if (hit !== undefined) return hit;
    let html = indexHtml;
    const firstRender = prerendered?.[route]?.[lang];
    const prerender = Boolean(firstRender && html.includes('<div id="root"></div>'));
    if (manifest && html.includes('</head>')) {
      const keys = [APP_CHUNK, route, lang === 'en' ? ENGLISH_CATALOG : ''].filter((k) => k && manifest[k]);
      // A prerendered page paints from HTML and CSS; client/main.tsx fetches its scripts after
      // that paint. Any other page needs its scripts first, so they are preloaded here.
      html = html.replace('</head>', `${hintsFor(keys, !prerender)}</head>`);
    }
    if (lang === 'en') html = html.replace('<html lang="sv"', '<html lang="en"');
    if (prerender) html = html.replace('<div id="root"></div>', `<div id="root">${firstRender}</div>`);
    cache.set(cacheKey, html);
    return html;
  };
}

function langOf(cookieHeader: string | undefined): 'sv' | 'en' {
  return /(?:^|;\s*)lang=en(?:;|$)/.test(cookieHeader ?? '') ? 'en' : 'sv';
}

/** A build file of .vite/ (manifest.json, prerender.json); null when the build has none. */
function readBuildJson<T>(clientDir: string, name: string): T | null {
  const file = path.join(clientDir, '.vite', name);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * The built client: hashed assets (immutable, pre-compressed) and index.html for every other
 * GET, so client-side routes load on a reload. API paths answer JSON 404s instead.
 */
export async function registerSpa(app: FastifyInstance, deps: Deps) {
  const indexHtml = path.join(deps.paths.client, 'index.html');
  const hasClient = existsSync(indexHtml);
  const pageHtml = hasClient
    ? makePageHtml(
        readFileSync(indexHtml, 'utf8'),
        readBuildJson<Manifest>(deps.paths.client, 'manifest.json'),
        readBuildJson<Prerendered>(deps.paths.client, 'prerender.json'),
      )
    : null;
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: deps.paths.client,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      // The build manifest (.vite/) is for this plugin, not for browsers.
      allowedPath: (pathName) => !pathName.startsWith('/.vite/'),
      setHeaders(res, filePath) {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/trpc') || url.startsWith('/uploads/') || url.startsWith('/assets/');
    if (!isApi && pageHtml && (request.method === 'GET' || request.method === 'HEAD')) {
      const urlPath = url.split('?')[0] ?? '/';
      return reply
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(pageHtml(urlPath, langOf(request.headers.cookie)));
    }
    return reply.status(404).send(appErrorBody(new AppError('NOT_FOUND', 'routeNotFound')));
  });
}
