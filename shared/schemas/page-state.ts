// What a page keeps in its query string (the home feed's filter, the directory's and a business
// page's searches), read the same way by the browser and by the server that paints the page
// first (server/plugins/spa.ts). Plain code without zod or Node: the client's pages import it.
import { feedFilters, SEARCH_MAX, type FeedFilter } from './comment-constants';
import { CATEGORY_PARAM, CITY_PARAM, DEFAULT_DIRECTORY_SORT, isDirectorySort, SORT_PARAM, type DirectorySort } from './directory-constants';

/** `/?filter=topRated`: the home feed's filter; All Comments is the default and not written. */
export const FEED_FILTER_PARAM = 'filter';
/** `/business?q=ica`, `/business/<id>?q=lund`: the search box's text. */
export const SEARCH_PARAM = 'q';
/** `/business/<id>?branch=<branch id>`: a business page's comments at one branch. */
export const BRANCH_PARAM = 'branch';
/** `/business/<id>?place=Umeå`: its comments at another place their authors typed (issue 29.4). */
export const PLACE_PARAM = 'place';

const paramsOf = (search: string) => new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);

/** The feed filter a `filter` parameter names; anything unknown is the default. */
export const asFeedFilter = (value: string | null): FeedFilter => ((feedFilters as readonly string[]).includes(value ?? '') ? (value as FeedFilter) : 'all');

/** The feed filter a query string asks for. */
export const feedFilterOf = (search: string): FeedFilter => asFeedFilter(paramsOf(search).get(FEED_FILTER_PARAM));

/** The search text a query string carries, at most as long as the search box takes. */
export function searchTextOf(search: string): string {
  return (paramsOf(search).get(SEARCH_PARAM) ?? '').slice(0, SEARCH_MAX);
}

/** The directory's filters and sort in a query string; '' for a filter not set, the default sort when none or an unknown one. */
export function directoryStateOf(search: string): { category: string; city: string; sort: DirectorySort } {
  const params = paramsOf(search);
  const sort = params.get(SORT_PARAM);
  // As long as the server takes them (shared/schemas/business.ts, directoryQuerySchema).
  return {
    category: (params.get(CATEGORY_PARAM) ?? '').trim().slice(0, 50),
    city: (params.get(CITY_PARAM) ?? '').trim().slice(0, 100),
    sort: isDirectorySort(sort) ? sort : DEFAULT_DIRECTORY_SORT,
  };
}

/**
 * The parameters a business page's comment list reads (its search, branch or place, and
 * client/lib/comment-list-state.ts: sort, stars, photos). With none of them the list is in its
 * default state, the one the server renders with the page's first comments.
 */
const COMMENT_LIST_PARAMS = [SEARCH_PARAM, BRANCH_PARAM, PLACE_PARAM, 'sort', 'stars', 'photos'];

/** Whether a business page's query string asks for its comments in another state than the default (any of its parameters set). */
export function commentListAsked(search: string): boolean {
  const params = paramsOf(search);
  return COMMENT_LIST_PARAMS.some((name) => (params.get(name) ?? '') !== '');
}

/** `search` with `name` set to `value` (removed when empty), as `?a=b` or ''. */
export function withParam(search: string, name: string, value: string): string {
  const params = paramsOf(search);
  if (value) params.set(name, value);
  else params.delete(name);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The part of a page's query string its first paint depends on, in one spelling (so
 * `?q=ica&utm=x` and `?q=ica` share a render): '' when the page shows its default state.
 * `page` is the route's page chunk (shared/schemas/routes.ts, pageChunk).
 */
export function firstPaintState(page: string, search: string): string {
  if (page === 'pages/home.tsx') {
    const filter = feedFilterOf(search);
    return filter === 'all' ? '' : withParam('', FEED_FILTER_PARAM, filter);
  }
  if (page === 'pages/directory.tsx') {
    const { category, city, sort } = directoryStateOf(search);
    let state = withParam('', SEARCH_PARAM, searchTextOf(search).trim());
    state = withParam(state, CATEGORY_PARAM, category);
    state = withParam(state, CITY_PARAM, city);
    return withParam(state, SORT_PARAM, sort === DEFAULT_DIRECTORY_SORT ? '' : sort);
  }
  return '';
}
