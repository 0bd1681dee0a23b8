/** Which top-level link the current page belongs to, for aria-current. */
export function activeSection(location: string): 'home' | 'business' | null {
  if (location === '/') return 'home';
  if (location === '/business' || location.startsWith('/business/')) return 'business';
  return null;
}

/** The favourites badge shows at most 99 ('99+' above), the description's badge maximum. */
export const badgeText = (count: number): string => (count > 99 ? '99+' : String(count));

/**
 * Scroll distance after which the scroll-to-top button appears: 200 px on home (which hosts the
 * feed's first page) and on a business, 500 px on the directory; other pages have no button.
 */
export function scrollThreshold(path: string): number | null {
  if (path === '/' || /^\/business\/[^/]+$/.test(path)) return 200;
  if (path === '/business') return 500;
  return null;
}
