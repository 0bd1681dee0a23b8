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
/** The English catalog's chunk (client/i18n/index.tsx loads it before the first render). */
const ENGLISH_CATALOG = 'i18n/en.ts';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Builds index.html for one page: modulepreload links for the route's chunk and the chunks it
 * imports (minus what the entry already preloads), their CSS, the English catalog for visitors
 * whose cookie asks for English, the document language to match, and the page's prerendered
 * first render inside #root, so it paints before the scripts run (createRoot then replaces it
 * with the same markup).
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

  const hintsFor = (keys: string[]) => {
    const chunks = new Set<string>();
    for (const key of keys) walk(key, chunks);
    const links: string[] = [];
    for (const key of chunks) {
      if (inEntry.has(key)) continue;
      const chunk = manifest![key]!;
      links.push(`<link rel="modulepreload" crossorigin href="/${escapeAttr(chunk.file)}">`);
      // A stylesheet, not a preload: the prerendered markup needs it for its first paint (and
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
    if (manifest && html.includes('</head>')) {
      const keys = [route, lang === 'en' ? ENGLISH_CATALOG : ''].filter((k) => k && manifest[k]);
      html = html.replace('</head>', `${hintsFor(keys)}</head>`);
    }
    if (lang === 'en') html = html.replace('<html lang="sv"', '<html lang="en"');
    const firstRender = prerendered?.[route]?.[lang];
    if (firstRender && html.includes('<div id="root"></div>')) {
      html = html.replace('<div id="root"></div>', `<div id="root">${firstRender}</div>`);
      // The page paints from HTML and CSS alone, so its scripts are not render-critical: they
      // queue behind the stylesheets instead of competing with them.
      html = html
        .replace(/<script type="module" crossorigin src=/g, '<script type="module" crossorigin fetchpriority="low" src=')
        .replace(/<link rel="modulepreload" crossorigin href=/g, '<link rel="modulepreload" crossorigin fetchpriority="low" href=');
    }
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
