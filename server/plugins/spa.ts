import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Deps } from '../deps';
import { dataStamp } from '../lib/data-stamp';
import { AppError } from '../lib/errors';
import { businessIdInputSchema } from '../schemas/business';
import { idInputSchema } from '../schemas/comments';
import { PAGE_DATA_ID, type PageData } from '../schemas/page-data';
import { firstPaintState } from '../schemas/page-state';
import { withSiteSettings } from './site-settings';
import { getBusiness } from '../services/business';
import { getComment, listBusinessComments } from '../services/comments';
import { appErrorBody } from './errors';
import { isAnonymousRequest } from './session';
import { businessHead, commentHead, goneHead, headTags, jsonForScript, LANG_PARAM, staticHead } from './page-head';

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
/** The page chunk of a path ('' when it has none listed). */
export const routeOf = (urlPath: string) => routeChunks.find(([pattern]) => pattern.test(urlPath))?.[1] ?? '';

/**
 * Every path the client router (client/routes.tsx) has a page or a redirect for, matched as
 * wouter matches: any case, with or without a trailing slash. Any other path is answered 404
 * (with the app, which shows its not-found page), as are unknown business and comment ids.
 * A new route goes here too; spa.test.ts compares this list with the router.
 */
export const pagePaths: RegExp[] = [
  '/',
  '/about',
  '/terms-of-use',
  '/policy',
  '/contact',
  '/login',
  '/logIn',
  '/registration',
  '/users/confirm-email',
  '/google-logIn',
  '/forgot-password',
  '/reset-password',
  '/user',
  '/user-mng',
  '/business',
  '/products',
  '/business/[^/]+',
  '/favorites/[^/]+',
  '/business-mng',
  '/comment/[^/]+',
  '/cmt-mng',
  '/mod-queue',
  '/mod-log',
].map((p) => new RegExp(`^${p === '/' ? '' : p}/?$`, 'i'));

/** The app itself (React, router, layout), which the small entry client/main.tsx imports. */
const APP_CHUNK = 'start.tsx';
/** The English catalog's chunk (client/i18n/index.tsx loads it before the first render). */
const ENGLISH_CATALOG = 'i18n/en.ts';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export { jsonForScript };

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
      // A prerendered page paints from HTML and CSS; client/main.tsx fetches its scripts after
      // that paint. Any other page needs its scripts first, so they are preloaded here.
      html = html.replace('</head>', `${hintsFor(keys, !rendered)}</head>`);
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
      const { path: procedure, input, data, anonymous } = served;
      const block = `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript({ path: procedure, input, data, anonymous })}</script>`;
      return page(true).replace(ROOT, `<div id="root">${served.html}</div>${block}`);
    }
    const firstRender = hasRoot ? (firstPaint === undefined ? prerendered?.[route]?.[lang] : firstPaint) : undefined;
    const html = page(Boolean(firstRender));
    return firstRender ? html.replace(ROOT, `<div id="root">${firstRender}</div>`) : html;
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

/** client/prerender.tsx as built into .vite/ssr/prerender.js. */
type RenderPage = (path: string, lang: 'sv' | 'en', pageData: Omit<ServedPage, 'html'>) => Promise<string>;
type Renderer = { renderPage: RenderPage; renderFirstPaint(path: string, lang: 'sv' | 'en'): Promise<string> };

/** Loads the build's server renderer on first use; null when the build has none or it fails to load. */
function serverRenderer(clientDir: string, log: () => FastifyBaseLogger): () => Promise<Renderer | null> {
  const file = path.join(clientDir, '.vite', 'ssr', 'prerender.js');
  let loading: Promise<Renderer | null> | null = null;
  return () =>
    (loading ??= existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (m: Renderer) => m,
          (err: unknown) => {
            log().error({ err }, 'server renderer failed to load; pages are served without their data');
            return null;
          },
        )
      : Promise.resolve(null));
}

/** How many rendered business pages are kept (per data stamp: any write empties them). */
const RENDERED_PAGES = 200;

/** What businessPages answers for an id no business has. */
const UNKNOWN = 'unknown';

/** A business page as kept: its head tags, and its render with data (null when the build has no renderer). */
type BusinessPage = { head: string; page: Omit<ServedPage, 'anonymous'> | null };

/**
 * The business page's head and render with its data (the anonymous view, so one render serves
 * every visitor in that language), kept while the data stamp holds; UNKNOWN for an unknown id (the
 * page is answered 404 and behaves as without data: the browser asks, and shows its not-found
 * page). The head's reviews (the first page of comments) are read here, once per kept page.
 */
function businessPages(deps: Deps, render: () => Promise<Renderer | null>, log: () => FastifyBaseLogger) {
  let stamp = '';
  const kept = new Map<string, Promise<BusinessPage | typeof UNKNOWN>>();
  return async (urlPath: string, id: string, lang: 'sv' | 'en'): Promise<BusinessPage | typeof UNKNOWN> => {
    const now = dataStamp(deps.db);
    if (now !== stamp) {
      kept.clear();
      stamp = now;
    }
    const key = `${lang}|${id}|${urlPath}`;
    let page = kept.get(key);
    if (!page) {
      page = (async () => {
        let data;
        try {
          data = getBusiness(deps, null, id);
        } catch (err) {
          if (err instanceof AppError && err.code === 'NOT_FOUND') return UNKNOWN;
          throw err;
        }
        const comments = listBusinessComments(deps, null, { businessId: id }).items;
        const head = headTags(deps.env.PUBLIC_URL, lang, businessHead(deps.env.PUBLIC_URL, lang, data, comments));
        const pageData = { path: 'business.byId', input: { id }, data };
        try {
          const renderer = await render();
          return { head, page: renderer ? { ...pageData, html: await renderer.renderPage(urlPath, lang, { ...pageData, anonymous: true }) } : null };
        } catch (err) {
          // The page still works without its data (the browser asks for it); the next request tries again.
          log().error({ err }, 'business page render failed');
          kept.delete(key);
          return { head, page: null };
        }
      })();
      if (kept.size >= RENDERED_PAGES) kept.delete(kept.keys().next().value!);
      kept.set(key, page);
      page.catch(() => kept.delete(key));
    }
    return page;
  };
}

/**
 * How many first paints for a state in the query string are kept: a filter has two, but a
 * search is free text, so the oldest go first. They hold no data (the lists are skeletons),
 * only what the address itself says, so they outlive writes and are the same for everyone.
 */
export const STATE_PAINTS = 100;

/**
 * The first paint of a prerendered page in the state its query string asks for (the home
 * feed's filter, the directory's search), rendered at request time like the build renders the
 * default one; null when the build has no renderer or the render fails.
 */
export function statePaints(render: () => Promise<Pick<Renderer, 'renderFirstPaint'> | null>, log: () => Pick<FastifyBaseLogger, 'error'>) {
  const kept = new Map<string, Promise<string | null>>();
  return (urlPath: string, route: string, state: string, lang: 'sv' | 'en'): Promise<string | null> => {
    const key = `${lang}|${route}|${state}`;
    let paint = kept.get(key);
    if (!paint) {
      paint = render()
        .then((renderer) => (renderer ? renderer.renderFirstPaint(`${urlPath}${state}`, lang) : null))
        .catch((err: unknown) => {
          // Not kept: the next request tries again.
          kept.delete(key);
          log().error({ err }, 'first paint render failed');
          return null;
        });
      if (kept.size >= STATE_PAINTS) kept.delete(kept.keys().next().value!);
      kept.set(key, paint);
    }
    return paint;
  };
}

/**
 * The id in a `/business/<id>` or `/comment/<id>` path: undefined for other paths, null when it
 * cannot be an id at all (no page has it).
 */
function idOf(urlPath: string, kind: 'business' | 'comment'): string | null | undefined {
  const match = new RegExp(`^/${kind}/([^/]+)/?$`, 'i').exec(urlPath);
  if (!match?.[1]) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return (kind === 'business' ? businessIdInputSchema : idInputSchema).safeParse({ id }).success ? id : null;
}

/**
 * A comment page's status and head. The head is built from the anonymous view, so it carries
 * nothing personal: a comment hidden while reported, which only its author and admins see, gets
 * a plain `noindex` head. A comment removed by a moderator stays as a placeholder for its
 * replies and answers 410; an unknown one 404.
 */
function commentPage(deps: Deps, request: FastifyRequest, id: string, lang: 'sv' | 'en'): { status: 200 | 404 | 410; head: string } {
  const publicUrl = deps.env.PUBLIC_URL;
  try {
    const comment = getComment(deps, null, id);
    if (comment.removed) return { status: 410, head: headTags(publicUrl, lang, goneHead(lang)) };
    return { status: 200, head: headTags(publicUrl, lang, commentHead(publicUrl, lang, comment)) };
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'NOT_FOUND')) {
      // Not this check's business: the page still loads and asks for itself.
      request.log.error({ err }, 'comment page check failed');
      return { status: 200, head: headTags(publicUrl, lang, staticHead('', lang, true)) };
    }
  }
  if (request.actor) {
    try {
      getComment(deps, request.actor, id);
      return { status: 200, head: headTags(publicUrl, lang, staticHead('', lang, true)) };
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
    }
  }
  return { status: 404, head: headTags(publicUrl, lang, staticHead('', lang, false)) };
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
        withSiteSettings(readFileSync(indexHtml, 'utf8'), deps.env),
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

  const renderer = serverRenderer(deps.paths.client, () => app.log);
  const businessPage = businessPages(deps, renderer, () => app.log);
  const statePaint = statePaints(renderer, () => app.log);
  const prerenderedRoutes = new Set(Object.keys(readBuildJson<Prerendered>(deps.paths.client, 'prerender.json') ?? {}));
  /** Head tags of pages without data, by language, whether found, and path (bounded: unknown paths are endless). */
  const staticHeads = new Map<string, string>();
  const staticHeadTags = (urlPath: string, lang: 'sv' | 'en', found: boolean) => {
    const key = `${lang}|${found}|${urlPath}`;
    let tags = staticHeads.get(key);
    if (tags === undefined) {
      tags = headTags(deps.env.PUBLIC_URL, lang, staticHead(urlPath, lang, found));
      if (staticHeads.size < 1000) staticHeads.set(key, tags);
    }
    return tags;
  };

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/trpc') || url.startsWith('/uploads/') || url.startsWith('/assets/');
    if (!isApi && pageHtml && (request.method === 'GET' || request.method === 'HEAD')) {
      const urlPath = url.split('?')[0] ?? '/';
      const lang = languageOf(url, request.headers.cookie);
      let served: ServedPage | null = null;
      let head: string | null = null;
      // Unknown pages and ids get the app all the same (it shows its not-found page), but as a
      // 404, so search engines and link checkers see that nothing is there.
      let status: 200 | 404 | 410 = pagePaths.some((pattern) => pattern.test(urlPath)) ? 200 : 404;
      const businessId = idOf(urlPath, 'business');
      const commentId = idOf(urlPath, 'comment');
      if (businessId === null || commentId === null) status = 404;
      if (businessId) {
        try {
          const page = await businessPage(urlPath, businessId, lang);
          if (page === UNKNOWN) status = 404;
          else {
            head = page.head;
            if (page.page) served = { ...page.page, anonymous: isAnonymousRequest(request) };
          }
        } catch (err) {
          // The page still works without its data: the browser asks for it.
          request.log.error({ err }, 'business page render failed');
        }
      }
      if (commentId) ({ status, head } = commentPage(deps, request, commentId, lang));
      // A prerendered page whose query string asks for another state than its default (a feed
      // filter, a search) paints in that state, not in the default one it would then leave.
      let firstPaint: string | null | undefined;
      const route = routeOf(urlPath);
      const queryAt = url.indexOf('?');
      if (!served && prerenderedRoutes.has(route) && queryAt >= 0) {
        const state = firstPaintState(route, url.slice(queryAt));
        if (state) firstPaint = await statePaint(urlPath, route, state, lang);
      }
      return reply
        .status(status)
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(pageHtml(urlPath, lang, head ?? staticHeadTags(urlPath, lang, status === 200), served, firstPaint));
    }
    return reply.status(404).send(appErrorBody(new AppError('NOT_FOUND', 'routeNotFound')));
  });
}
