// A page's first query, started by the entry (client/main.tsx) while the app's scripts are
// still loading, so its answer is there when the page first renders instead of one round trip
// later. No dependencies but a constant: the entry stays small.
import { PAGE_DATA_ID, type PageData } from '../../shared/schemas/page-data';

type Early = { key: string; promise: Promise<unknown> };
let early: Early | null = null;

const keyOf = (path: string, input: unknown) => `${path} ${JSON.stringify(input)}`;

/** Fetches a tRPC query the way the app's client would (GET, same-origin cookies), unbatched. */
export function startEarlyQuery(path: string, input: unknown) {
  const url = `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
  const promise = fetch(url, { credentials: 'same-origin' }).then(async (res) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { result?: { data?: unknown } };
    if (!body.result || !('data' in body.result)) throw new Error('no result');
    return body.result.data;
  });
  // Unclaimed or failed: the page's own request covers it, so nothing is reported here.
  promise.catch(() => {});
  early = { key: keyOf(path, input), promise };
}

/**
 * Wraps a query function so that its first call for this query takes over the early request
 * (once; later calls and a failed early request go to `fetchIt`, which reports errors the
 * usual way).
 */
export function withEarly<Ctx, T>(path: string, input: unknown, fetchIt: (ctx: Ctx) => T | Promise<T>): (ctx: Ctx) => Promise<T> {
  const key = keyOf(path, input);
  return async (ctx) => {
    const claim = early?.key === key ? early : null;
    if (claim) {
      early = null;
      try {
        return (await claim.promise) as T;
      } catch {
        // Fall through to the app's own request.
      }
    }
    return fetchIt(ctx);
  };
}

let pageData: PageData | null | undefined;

/** The page's server-rendered data, read once from the document; null when the page has none. */
export function readPageData(): PageData | null {
  if (pageData === undefined) {
    const block = typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ID);
    try {
      pageData = block?.textContent ? (JSON.parse(block.textContent) as PageData) : null;
    } catch {
      pageData = null;
    }
  }
  return pageData;
}

/** Whether `data` answers this query (same procedure and input). */
export function answers(data: PageData | null, path: string, input: unknown): data is PageData {
  return data?.path !== undefined && keyOf(data.path, data.input) === keyOf(path, input);
}

/** The first page of this paged list the page was rendered with (same procedure and input), if any. */
export function servedList(data: PageData | null, path: string, input: unknown): unknown {
  const key = keyOf(path, input);
  return data?.lists?.find((list) => keyOf(list.path, list.input) === key)?.data;
}
