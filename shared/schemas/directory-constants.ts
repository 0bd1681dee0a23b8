// The directory's sorts and filters, shared by the server, the client and the first paint
// (page-state.ts). Plain code without zod or Node: the client's pages import it.

/** A–Ö (the default), Bayesian rating, most ratings, newest; the suggestion box first in each. */
export const directorySorts = ['name', 'rating', 'reviews', 'newest'] as const;
export type DirectorySort = (typeof directorySorts)[number];
export const DEFAULT_DIRECTORY_SORT: DirectorySort = 'name';

/** `/business?category=Livsmedel&city=Malmö&sort=rating`: the directory's URL state beside `?q=`. */
export const CATEGORY_PARAM = 'category';
export const CITY_PARAM = 'city';
export const SORT_PARAM = 'sort';

export const isDirectorySort = (value: string | null | undefined): value is DirectorySort => (directorySorts as readonly string[]).includes(value ?? '');

/** Directory cards per page when no `limit` is given (tRPC `business.directoryPage`, "Närmast mig"). */
export const DIRECTORY_PAGE = 24;
/** The most cards one page may ask for (REST `GET /api/business` gives this many without `limit`). */
export const DIRECTORY_PAGE_MAX = 100;
