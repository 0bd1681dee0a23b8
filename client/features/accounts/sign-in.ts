import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { safeNext } from '../../lib/login-href';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';
import { useTRPC } from '../../lib/trpc';
import { dismissNotices } from '../../components/ui/toast';

/** A user as the server shows them (never a secret). */
export type AccountUser = NonNullable<inferRouterOutputs<AppRouter>['users']['me']>;

const NEXT_KEY = 'recensera.login-next';

// The login links' helpers live in lib/login-href.ts (the menu and footer need them on every
// page; the rest of this module only on account pages).
export { currentPlace, loginHref, safeNext, useLoginHref } from '../../lib/login-href';

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
