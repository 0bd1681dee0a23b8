import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';

// The server writes each page's title into its first HTML (server/plugins/page-head.ts). After a
// move inside the app the tab shows the site's name, or the title a page with data sets
// (lib/page-titles.ts, in the same words as the server's).

/** Sets the tab's title while `title` is given. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

/**
 * `siteName` as the title after each move inside the app (not on the first page, whose title the
 * server wrote). A layout effect, so it runs before the new page's own title is set.
 */
export function useTitleReset(siteName: string) {
  const [location] = useLocation();
  const first = useRef(location);
  useLayoutEffect(() => {
    if (location !== first.current) document.title = siteName;
  }, [location, siteName]);
}
