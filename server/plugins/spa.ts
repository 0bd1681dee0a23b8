// The built client: its files, and index.html for every page (shared/schemas/routes.ts), put
// together from the build (spa-build.ts), each page's answer (spa-pages.ts) and its HTML (spa-html.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Deps } from '../services/deps';
import { AppError } from '../lib/errors';
import { firstPaintState } from '../../shared/schemas/page-state';
import { appErrorBody } from './errors';
import { withSiteSettings, withSiteText } from './site-settings';
import { isDefaultSiteText } from '../../shared/schemas/site-settings';
import { siteText } from '../services/site/site-settings';
import { readBuildJson, serverRenderer, type Manifest, type Prerendered } from './spa-build';
import { languageOf, makePageHtml, routeOf } from './spa-html';
import { pageAnswers, statePaints } from './spa-pages';
import { pageReplies } from './spa-reply';
import { SHARED_PUBLIC } from './shared-cache';
import { networkOf } from '../lib/networks';

/**
 * The built client: hashed assets (immutable, pre-compressed) and index.html for every other
 * GET, so client-side routes load on a reload. API paths answer JSON 404s instead.
 */
export async function registerSpa(app: FastifyInstance, deps: Deps) {
  const indexHtml = path.join(deps.paths.client, 'index.html');
  const hasClient = existsSync(indexHtml);
  const prerendered = readBuildJson<Prerendered>(deps.paths.client, 'prerender.json');
  const pageHtml = hasClient
    ? makePageHtml(withSiteSettings(readFileSync(indexHtml, 'utf8'), deps.env), readBuildJson<Manifest>(deps.paths.client, 'manifest.json'), prerendered)
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
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const renderer = serverRenderer(deps.paths.client, () => app.log);
  const answer = pageAnswers(deps, renderer, () => app.log);
  const statePaint = statePaints(renderer, () => app.log);
  const sendPage = pageReplies();
  const prerenderedRoutes = new Set(Object.keys(prerendered ?? {}));

  // Pages (some rendered per request) count against the general per-client limit (app.ts).
  const limited = app.hasDecorator('rateLimit') ? { preHandler: app.rateLimit() } : {};
  app.setNotFoundHandler(limited, async (request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/trpc') || url.startsWith('/uploads/') || url.startsWith('/assets/');
    if (!isApi && pageHtml && (request.method === 'GET' || request.method === 'HEAD')) {
      const urlPath = url.split('?')[0] ?? '/';
      const lang = languageOf(url, request.headers.cookie);
      const { status, head, served, kept } = await answer(request, urlPath, lang);
      // A prerendered page whose query string asks for another state than its default (a feed
      // filter, a search) paints in that state, not in the default one it would then leave.
      let firstPaint: string | null | undefined;
      const route = routeOf(urlPath);
      const queryAt = url.indexOf('?');
      const site = siteText(deps);
      if (!served && prerenderedRoutes.has(route)) {
        const state = queryAt >= 0 ? firstPaintState(route, url.slice(queryAt)) : null;
        const mayRender = () => deps.limits.allows('statePaint', networkOf(request.ip));
        if (state) firstPaint = await statePaint(urlPath, route, state, lang, mayRender, site);
        // The build painted these with the release's words; with an admin's, they are painted
        // again (once per page and language while the words hold: the same for everyone).
        else if (!isDefaultSiteText(site)) firstPaint = await statePaint(urlPath, route, '', lang, undefined, site);
      }
      // A page is the same for every visitor with the same cookies (the language is one); a
      // signed-in one's says `private, no-store` (session.ts). A state painted on request (a
      // search) is rationed per network, so it is never the same for everyone: no shared copy.
      reply
        .status(status)
        .header('Cache-Control', status === 200 && firstPaint === undefined ? SHARED_PUBLIC : 'no-cache')
        .header('Vary', 'Cookie')
        .type('text/html; charset=utf-8');
      // A page made from a kept render is the same until the data changes (the site's words are
      // data too): its HTML and compressed bytes are kept with that render, by who sees it.
      const html = () => withSiteText(pageHtml(urlPath, lang, head, served, firstPaint), site);
      return sendPage(request, reply, html, kept && served ? { by: kept, key: `${status}|${served.anonymous}|${lang}|${urlPath}` } : null);
    }
    return reply.status(404).send(appErrorBody(new AppError('NOT_FOUND', 'routeNotFound')));
  });
}
