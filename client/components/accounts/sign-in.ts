import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';
import { useTRPC } from '../../lib/trpc';
import { dismissNotices } from '../ui/toast';

/** A user as the server shows them (never a secret). */
export type AccountUser = NonNullable<inferRouterOutputs<AppRouter>['users']['me']>;

const NEXT_KEY = 'recensera.login-next';

/** Only the origin matters: a path that resolves anywhere else is not on this site. */
const HERE = 'https://recensera.invalid';

/**
 * Where to go after logging in: the `next` page a route guard or a login prompt sent along, if
 * it is a path on this site; anything else (another origin, //evil.example, /\\evil.example,
 * a tab or newline the URL parser drops, javascript:) falls back to /user.
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
  return `${url.pathname}${url.search}${url.hash}`;
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

/** The Google round trip leaves the site, so `next` waits in this tab's session storage. */
export function rememberNext(next: string | null | undefined) {
  sessionStorage.setItem(NEXT_KEY, safeNext(next));
}

export function takeRememberedNext(): string {
  const next = sessionStorage.getItem(NEXT_KEY);
  sessionStorage.removeItem(NEXT_KEY);
  return safeNext(next);
}

/**
 * After a sign-in: the nav knows the user at once, everything else reloads as them, and the
 * notices of earlier attempts ("wrong password") do not follow them onto the next page.
 */
export function useCompleteSignIn() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (user: AccountUser, next: string) => {
    dismissNotices();
    queryClient.setQueryData(trpc.users.me.queryKey(), user);
    void queryClient.invalidateQueries();
    navigate(next, { replace: true });
  };
}

export function useGoogleEnabled(): boolean {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.users.config.queryOptions(), staleTime: Infinity });
  return data?.googleEnabled ?? false;
}
