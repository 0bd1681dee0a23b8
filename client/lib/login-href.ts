import { useLocation, useSearch } from 'wouter';

/** Only the origin matters: a path that resolves anywhere else is not on this site. */
const HERE = 'https://recensera.invalid';

/**
 * Where to go after logging in: the `next` page a route guard or a login prompt sent along, if
 * it is a path on this site; anything else (another origin, //evil.example, /\\evil.example,
 * a tab or newline the URL parser drops, dot segments that resolve to //, javascript:) falls
 * back to /user.
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/')) return '/user';
  let url: URL;
  try {
    url = new URL(raw, HERE);
  } catch {
    return '/user';
  }
  if (url.origin !== HERE) return '/user';
  const next = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments resolve away: '/.//evil.example' has the path '//evil.example', which a
  // browser reads as another host. A path on this site starts with exactly one slash.
  if (/^\/[/\\]/.test(next) || new URL(next, HERE).origin !== HERE) return '/user';
  return next;
}

/** Account pages: coming back to one of them after a login makes no sense. */
const ACCOUNT_PAGES = /^\/(login|logIn|registration|forgot-password|reset-password|users\/confirm-email|google-logIn|user)\/?$/i;

/** The login page, coming back to `place` (a path on this site) afterwards. */
export function loginHref(place: string): string {
  const next = safeNext(place);
  return ACCOUNT_PAGES.test(new URL(next, HERE).pathname) ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/** The page the visitor is on now, for a login link that brings them back here. */
export function currentPlace(): string {
  return typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/**
 * The login page's address from here, kept current as the visitor moves between pages;
 * `hash` (e.g. `#comment-…`) names the part of the page to come back to.
 */
export function useLoginHref(hash?: string): string {
  const [location] = useLocation();
  const search = useSearch();
  const fragment = hash ?? (typeof window === 'undefined' ? '' : window.location.hash);
  return loginHref(`${location}${search ? `?${search}` : ''}${fragment}`);
}
