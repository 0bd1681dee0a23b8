/** The id of the JSON block in which the server hands a page's first query answer to the client. */
export const PAGE_DATA_ID = 'page-data';

/**
 * A query answer the server rendered a page with (server/plugins/spa.ts; the client reads it in
 * client/lib/early-data.ts). `anonymous`: the request carried no session, so the data (the
 * anonymous view) is the visitor's own and needs no refetch; a signed-in visitor's own fields
 * (favourite, own rating) come with the next request.
 */
export type PageData = { path: string; input: unknown; data: unknown; anonymous: boolean };
