// Each page's answer before its HTML is put together: the status, the head, and for a page
// with a first query (shared/schemas/routes.ts) its render with the anonymous view of the data.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Deps } from '../services/deps';
import { businessScope, scopedStamp, type StampScope } from '../lib/data-stamp';
import { AppError } from '../lib/errors';
import { businessIdInputSchema } from '../../shared/schemas/business';
import { idInputSchema } from '../../shared/schemas/comments';
import type { ServedQuery } from '../../shared/schemas/page-data';
import { commentListAsked, feedFilterOf, firstPaintState } from '../../shared/schemas/page-state';
import { matchRoute, pageChunk, type Route } from '../../shared/schemas/routes';
import { getBusiness } from '../services/business/business';
import { getComment, listBusinessComments, listFeed } from '../services/comments/comments';
import { businessOfComment } from '../services/comments/comment-business';
import { directoryPage } from '../services/business/directory';
import { siteText } from '../services/site/site-settings';
import type { SiteText } from '../../shared/schemas/site-settings';
import { businessHead, commentHead, goneHead, headTags, staticHead } from './page-head';
import { isAnonymousRequest } from './session';
import type { Renderer } from './spa-build';
import type { ServedPage } from './spa-html';

type Lang = 'sv' | 'en';
type Status = 200 | 404 | 410;
type Query = NonNullable<Route['query']>;

/**
 * A page's answer: its status, head tags and (for a page with a first query) its render with data.
 * `kept`: the kept object the answer was made from (while the data stamp holds), so its HTML can
 * be kept with it (spa-reply.ts); null for an answer made per request.
 */
export type PageAnswer = { status: Status; head: string; served: ServedPage | null; kept: object | null };

/**
 * How many rendered pages with data are kept (per data stamp: any write empties them). A kept
 * business page holds about 300 KB (its render as a string, mostly two bytes a character for
 * its emoji, its data, its HTML and brotli bytes). Anonymous visitors' repeat views are answered
 * by the public cache's page part, which keeps 2,000 pages compressed (PAGE_CACHE); these serve
 * signed-in visitors and refill that part. 200 of them held ~50 MB more at the peak of the
 * bench's Mix at scale 10 than 32 did, for the same throughput (docs/operations/scaling.md,
 * "Tenth session").
 */
export const RENDERED_PAGES = 64;

/** A page with data as kept: status, head, and its render with the data (null when the build has no renderer or it failed). */
type DataPage = { status: Status; head: string; page: Omit<ServedPage, 'anonymous'> | null };

/**
 * The anonymous view of a page's first query (and the first page of each list it shows), or the
 * status and head of a page without one to show.
 */
type Loaded = { data: unknown; head: string; lists?: ServedQuery[] } | { status: 404 | 410; head: string };

/**
 * Each first query's anonymous view and head. The head's reviews (a business's first page of
 * comments) are read here, once per kept page. A comment removed by a moderator stays as a
 * placeholder for its replies and answers 410 (rendered by the browser, as before); a comment
 * hidden while reported is unknown to the anonymous view, so its text is never in a shared render.
 */
const loaders: Record<Query, (deps: Deps, id: string, lang: Lang, withLists: boolean) => Loaded> = {
  // The first page of comments in the default order is both the head's reviews and the page's
  // list (when the address asks for no other order, filter or search: `withLists`).
  'business.byId': (deps, id, lang, withLists) => {
    const publicUrl = deps.env.PUBLIC_URL;
    const data = getBusiness(deps, null, id);
    const input = { businessId: id };
    const comments = listBusinessComments(deps, null, input);
    const site = siteText(deps);
    const head = headTags(publicUrl, lang, businessHead(publicUrl, lang, data, comments.items, site), site);
    return { data, head, ...(withLists && { lists: [{ path: 'comments.byBusiness', input, data: comments }] }) };
  },
  'comments.byId': (deps, id, lang) => {
    const publicUrl = deps.env.PUBLIC_URL;
    const data = getComment(deps, null, id);
    const site = siteText(deps);
    if (data.removed) return { status: 410, head: headTags(publicUrl, lang, goneHead(lang, site), site) };
    return { data, head: headTags(publicUrl, lang, commentHead(publicUrl, lang, data, site), site) };
  },
};

const inputSchemas: Record<Query, typeof idInputSchema | typeof businessIdInputSchema> = {
  'business.byId': businessIdInputSchema,
  'comments.byId': idInputSchema,
};

/**
 * What a page with a first query shows depends on: its business's own scope (a business page, a
 * comment's page), so a write declared for another business keeps it (data-stamp.ts).
 */
function dataScopeOf(deps: Deps, query: Query, id: string): StampScope {
  if (query === 'business.byId') return businessScope(id);
  const businessId = businessOfComment(deps.db, id);
  return businessId === null ? 'all' : businessScope(businessId);
}

/**
 * What a page's reply may be kept under in the public cache: its business's scope for a business
 * or comment page asked for without a query string (a list asked in another order or a search is
 * loaded by the browser, and searches are kept under `all`), `all` for any other page.
 */
export function pageKeptWhile(deps: Deps, url: string): StampScope {
  if (url.includes('?')) return 'all';
  const match = matchRoute(url);
  const query = match?.route.query;
  if (!match || !query || match.route.list) return 'all';
  const id = idOf(query, match.params.id ?? '');
  return id === null ? 'all' : dataScopeOf(deps, query, id);
}

/**
 * Pages with a first query, rendered with its anonymous view (one render serves every visitor
 * in that language) and kept while the stamp of their business's scope holds; null for an id
 * nothing has (the caller decides: a signed-in visitor may see their own hidden comment).
 */
function dataPages(deps: Deps, render: () => Promise<Renderer | null>, log: () => FastifyBaseLogger) {
  const kept = new Map<string, Promise<DataPage | null>>();
  const stamps = new Map<string, string>();
  return async (urlPath: string, query: Query, id: string, lang: Lang, withLists: boolean): Promise<DataPage | null> => {
    const stamp = scopedStamp(deps.db, dataScopeOf(deps, query, id));
    const key = `${lang}|${query}|${id}|${withLists}|${urlPath}`;
    let page = stamps.get(key) === stamp ? kept.get(key) : undefined;
    if (!page) {
      kept.delete(key);
      page = (async () => {
        let loaded: Loaded;
        try {
          loaded = loaders[query](deps, id, lang, withLists);
        } catch (err) {
          if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
          throw err;
        }
        if ('status' in loaded) return { ...loaded, page: null };
        const { data, head, lists } = loaded;
        const pageData = { path: query, input: { id }, data, ...(lists && { lists }) };
        try {
          const renderer = await render();
          return {
            status: 200,
            head,
            page: renderer ? { ...pageData, html: await renderer.renderPage(urlPath, lang, { ...pageData, anonymous: true }, siteText(deps)) } : null,
          };
        } catch (err) {
          // The page still works without its data (the browser asks for it); the next request tries again.
          log().error({ err }, 'page render failed');
          kept.delete(key);
          return { status: 200, head, page: null };
        }
      })();
      if (kept.size >= RENDERED_PAGES) {
        const oldest = kept.keys().next().value!;
        kept.delete(oldest);
        stamps.delete(oldest);
      }
      kept.set(key, page);
      stamps.set(key, stamp);
      page.catch(() => kept.delete(key));
    }
    return page;
  };
}

type List = NonNullable<Route['list']>;

/**
 * Each list's first page in the state a query string asks for (the anonymous view): the home
 * feed in any of its three filters; the directory only in its default state (a search or a
 * filter keeps the first paint without data, server/plugins/spa.ts).
 */
const listLoaders: Record<List, (deps: Deps, search: string) => ServedQuery | null> = {
  'comments.feed': (deps, search) => {
    const input = { filter: feedFilterOf(search) };
    return { path: 'comments.feed', input, data: listFeed(deps, null, input) };
  },
  'business.directoryPage': (deps, search) => {
    if (firstPaintState(pageChunk('directory'), search) !== '') return null;
    return { path: 'business.directoryPage', input: {}, data: directoryPage(deps, null, {}) };
  },
};

/** What each list's first page depends on (data-stamp.ts): the directory's cards only the businesses' scope. */
const listScopes: Record<List, StampScope> = { 'comments.feed': 'all', 'business.directoryPage': 'businesses' };

/**
 * The list pages (home, directory) rendered with their list's first page, as the app renders
 * them: the browser hydrates them, keeping the served elements (their controls render disabled
 * until then, lib/hydrated.ts). Kept while the stamp of the list's scope holds: one per language
 * and state, a handful in all.
 */
function listPages(deps: Deps, render: () => Promise<Renderer | null>, log: () => FastifyBaseLogger) {
  const kept = new Map<string, { stamp: string; paint: Promise<Omit<ServedPage, 'anonymous'> | null> }>();
  return (urlPath: string, page: string, list: List, search: string, lang: Lang): Promise<Omit<ServedPage, 'anonymous'> | null> => {
    const served = listLoaders[list](deps, search);
    if (!served) return Promise.resolve(null);
    const key = `${lang}|${list}|${JSON.stringify(served.input)}`;
    // The paint shows the site's words too, which are no business: a change of them is a new paint.
    const site = siteText(deps);
    const stamp = `${scopedStamp(deps.db, listScopes[list])}|${siteKeyOf(site)}`;
    const found = kept.get(key);
    if (found?.stamp === stamp) return found.paint;
    const pageData = { lists: [served] };
    const paint = render()
      .then(async (renderer) =>
        renderer
          ? {
              ...pageData,
              html: await renderer.renderPage(`${urlPath}${firstPaintState(page, search)}`, lang, { ...pageData, anonymous: true }, site),
            }
          : null,
      )
      .catch((err: unknown) => {
        // Not kept: the page is served with its first paint without data; the next request tries again.
        if (kept.get(key)?.paint === paint) kept.delete(key);
        log().error({ err }, 'list page render failed');
        return null;
      });
    kept.set(key, { stamp, paint });
    return paint;
  };
}

/** The `:id` of a path, decoded; null when it cannot be an id of the query at all (no page has it). */
function idOf(query: Query, raw: string): string | null {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return inputSchemas[query].safeParse({ id }).success ? id : null;
}

/**
 * Answers a page: known routes 200, anything else 404 (the app shows its not-found page, but
 * search engines and link checkers see that nothing is there), an unknown or invalid id 404, a
 * removed comment 410. The head of a page without data is kept by language, status and path
 * (bounded: unknown paths are endless).
 */
export function pageAnswers(deps: Deps, render: () => Promise<Renderer | null>, log: () => FastifyBaseLogger) {
  const publicUrl = deps.env.PUBLIC_URL;
  const dataPage = dataPages(deps, render, log);
  const listPage = listPages(deps, render, log);
  const staticHeads = new Map<string, string>();
  let headsSite = '';
  const staticHeadTags = (urlPath: string, lang: Lang, found: boolean) => {
    // Kept for the site's name and tagline they were written with: an admin's change empties them.
    const site = siteText(deps);
    const siteKey = siteKeyOf(site);
    if (siteKey !== headsSite) {
      staticHeads.clear();
      headsSite = siteKey;
    }
    const key = `${lang}|${found}|${urlPath}`;
    let tags = staticHeads.get(key);
    if (tags === undefined) {
      tags = headTags(publicUrl, lang, staticHead(urlPath, lang, found, site), site);
      if (staticHeads.size < 1000) staticHeads.set(key, tags);
    }
    return tags;
  };
  const found = (urlPath: string, lang: Lang): PageAnswer => ({ status: 200, head: staticHeadTags(urlPath, lang, true), served: null, kept: null });
  const notFound = (urlPath: string, lang: Lang): PageAnswer => ({ status: 404, head: staticHeadTags(urlPath, lang, false), served: null, kept: null });

  return async (request: FastifyRequest, urlPath: string, lang: Lang): Promise<PageAnswer> => {
    const match = matchRoute(urlPath);
    if (!match) return notFound(urlPath, lang);
    const { query, list, page: pageName } = match.route;
    if (list && pageName) {
      const queryAt = request.url.indexOf('?');
      try {
        const listed = await listPage(urlPath, pageChunk(pageName), list, queryAt === -1 ? '' : request.url.slice(queryAt), lang);
        return { ...found(urlPath, lang), served: listed && { ...listed, anonymous: isAnonymousRequest(request) }, kept: listed };
      } catch (err) {
        // The page still works without its data: its first paint without data, the browser asks.
        request.log.error({ err }, 'list page failed');
        return found(urlPath, lang);
      }
    }
    if (!query) return found(urlPath, lang);
    const id = idOf(query, match.params.id ?? '');
    if (id === null) return notFound(urlPath, lang);
    let page: DataPage | null;
    try {
      // A list the address asks to see otherwise (another order, a search) is the browser's to load.
      const queryAt = request.url.indexOf('?');
      page = await dataPage(urlPath, query, id, lang, queryAt === -1 || !commentListAsked(request.url.slice(queryAt)));
    } catch (err) {
      // The page still works without its data: the browser asks for it.
      request.log.error({ err }, 'page render failed');
      return found(urlPath, lang);
    }
    if (page) return { status: page.status, head: page.head, served: page.page && { ...page.page, anonymous: isAnonymousRequest(request) }, kept: page };
    // Unknown to the anonymous view; a comment hidden while reported is still there for its
    // author and admins, who get the page (noindex, without a render) and ask for it themselves.
    if (query === 'comments.byId' && request.actor) {
      try {
        getComment(deps, request.actor, id);
        return found(urlPath, lang);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
    return notFound(urlPath, lang);
  };
}

/**
 * How many first paints for a state in the query string are kept: a filter has two, but a
 * search is free text, so the oldest go first. They hold no data (the lists are skeletons),
 * only what the address itself says, so they outlive writes and are the same for everyone.
 */
export const STATE_PAINTS = 100;

/** What a render or a head depends on of the site's words, as a key. */
export const siteKeyOf = (site: SiteText) => JSON.stringify(site);

/**
 * The first paint of a prerendered page in the state its query string asks for (the home
 * feed's filter, the directory's search), rendered at request time like the build renders the
 * default one; null when the build has no renderer or the render fails.
 */
export function statePaints(render: () => Promise<Pick<Renderer, 'renderFirstPaint'> | null>, log: () => Pick<FastifyBaseLogger, 'error'>) {
  let keptSite = '';
  const kept = new Map<string, Promise<string | null>>();
  /**
   * `mayRender` is asked only when the paint is not kept: each new query string costs a render
   * (16–260 ms, issue 27), so a client past its budget gets the page without a first paint,
   * which the browser renders, as when a render fails.
   */
  return async (urlPath: string, route: string, state: string, lang: Lang, mayRender?: () => Promise<boolean>, site?: SiteText): Promise<string | null> => {
    // Painted with the site's words (an admin's, when set): a change of them empties the paints.
    const siteKey = site ? siteKeyOf(site) : '';
    if (siteKey !== keptSite) {
      kept.clear();
      keptSite = siteKey;
    }
    const key = `${lang}|${route}|${state}`;
    let paint = kept.get(key);
    if (!paint) {
      if (mayRender && !(await mayRender())) return null;
      // Another request may have started the same render while this one waited.
      const started = kept.get(key);
      if (started) return started;
      paint = render()
        .then((renderer) => (renderer ? renderer.renderFirstPaint(`${urlPath}${state}`, lang, site) : null))
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
