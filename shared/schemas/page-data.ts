/** The id of the JSON block in which the server hands a page's first query answer to the client. */
export const PAGE_DATA_ID = 'page-data';

/** One query's answer as the server rendered it: the procedure, its input (as the client asks) and the answer. */
export type ServedQuery = { path: string; input: unknown; data: unknown };

/**
 * The answers the server rendered a page with (server/plugins/spa.ts; the client reads them in
 * client/lib/early-data.ts). `path`, `input`, `data`: the page's first query (a business, a
 * comment); `lists`: the first page of each paged list it shows (a business's reviews, the home
 * feed, the directory), which the client's infinite queries start with. `anonymous`: the request
 * carried no session, so the data (the anonymous view) is the visitor's own and needs no
 * refetch; a signed-in visitor's own fields (favourite, own rating) come with the next request.
 * The browser hydrates the HTML that came with it (client/start.tsx).
 */
export type PageData = Partial<ServedQuery> & { lists?: ServedQuery[]; anonymous: boolean };
