import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';
import { useTRPC } from '../../lib/trpc';

/** A user as the server shows them (never a secret). */
export type AccountUser = NonNullable<inferRouterOutputs<AppRouter>['users']['me']>;

const NEXT_KEY = 'recensera.login-next';

/**
 * Where to go after logging in: the `next` page the route guard sent along, if it is a path on
 * this site; anything else (another origin, //evil.example, javascript:) falls back to /user.
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/user';
  return raw;
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

/** After a sign-in: the nav knows the user at once, everything else reloads as them. */
export function useCompleteSignIn() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (user: AccountUser, next: string) => {
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
