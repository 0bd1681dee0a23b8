import { createContext, use } from 'react';
import type { InfiniteData } from '@tanstack/react-query';
import type { PageData } from '../../shared/schemas/page-data';
import { answers, readPageData, servedList } from './early-data';

/**
 * The query answer a page was rendered with on the server: the server's renderer
 * (client/prerender.tsx) provides it; in the browser it is the document's JSON block.
 */
export const PageDataContext = createContext<PageData | null>(readPageData());

/**
 * Options that start a query with the answer the page was rendered with, so the browser's first
 * render shows (and hydrates) exactly the server's markup. Data rendered for a request with a
 * session is marked stale, so the visitor's own fields are fetched at once; anonymous data counts
 * from the page's load, so a later visit in the same tab past the stale time refetches it.
 */
export function usePageData<T>(path: string, input: unknown): { initialData: T; initialDataUpdatedAt: number } | null {
  const served = use(PageDataContext);
  if (!answers(served, path, input)) return null;
  return { initialData: served.data as T, initialDataUpdatedAt: served.anonymous ? performance.timeOrigin : 0 };
}

/**
 * The same for a paged list (an infinite query): it starts with the first page the page was
 * rendered with, so the browser's first render shows the server's cards instead of a skeleton
 * and asks for nothing until the visitor wants the next page.
 */
export function usePageList<T>(path: string, input: unknown): { initialData: InfiniteData<T, string | null>; initialDataUpdatedAt: number } | null {
  const served = use(PageDataContext);
  const first = servedList(served, path, input);
  if (!served || first === undefined) return null;
  // The first page's param is what tRPC's own first request has: no cursor (undefined, typed
  // by tRPC as `string | null`; a null would be sent and refused).
  const pageParams = [undefined] as unknown as (string | null)[];
  return { initialData: { pages: [first as T], pageParams }, initialDataUpdatedAt: served.anonymous ? performance.timeOrigin : 0 };
}
