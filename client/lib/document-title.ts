import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { matchRoute } from '../../shared/schemas/routes';

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
 * The title after each move inside the app (not on the first page, whose title the server
 * wrote): "Din profil | Recensera" for a page in `pageTitles` (by page module), else `siteName`.
 * A layout effect, so it runs before a page with data sets its own title.
 */
export function useTitleReset(siteName: string, pageTitles: Readonly<Record<string, string>> = {}) {
  const [location] = useLocation();
  const first = useRef(location);
  useLayoutEffect(() => {
    if (location === first.current) return;
    const page = matchRoute(location)?.route.page;
    const own = page ? pageTitles[page] : undefined;
    document.title = own ? `${own} | ${siteName}` : siteName;
  }, [location, siteName, pageTitles]);
}
