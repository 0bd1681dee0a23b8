import { useCallback, useSyncExternalStore } from 'react';
import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router';
import { useTRPC } from './trpc';

export type Me = NonNullable<inferRouterOutputs<AppRouter>['users']['me']>;

/**
 * The session query's cache entry as a store: its value and its status, each read on its own.
 * Each reader re-renders only when what it reads changes. While React hydrates a page the server
 * rendered (the anonymous view, before any session was read) the server's answer is used (no one,
 * still loading), even if the answer has arrived meanwhile (a part of the page may hydrate after
 * it); the visitor's own view follows right after.
 *
 * This is what keeps hydration cheap (docs/decisions/021): every card of a served list reads
 * the session (own post? reply button?). As a plain query plus a "hydrated" flag, each of them
 * re-rendered once when hydration ended and once when the session arrived, in one task that
 * React runs without yielding (a store's change is always synchronous). An anonymous visitor's
 * value stays `null` through both, so nothing re-renders; a member's changes once.
 */
function useSessionStore<T>(read: (state: { data: unknown; pending: boolean }) => T, onServer: T): T {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hash = hashKey(trpc.users.me.queryKey());
  // Only a change of the entry's state is news. Observers come and go (the one of <SessionQuery>
  // sets its options after every render of its own): woken by those events, a reader not yet
  // re-rendered would be re-rendered synchronously again and again (React #185, seen in e2e).
  const subscribe = useCallback(
    (onChange: () => void) =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash && (event.type === 'updated' || event.type === 'added' || event.type === 'removed')) onChange();
      }),
    [queryClient, hash],
  );
  const snapshot = () => {
    const state = queryClient.getQueryCache().get(hash)?.state;
    return read({ data: state?.data, pending: state?.status !== 'success' && state?.status !== 'error' });
  };
  return useSyncExternalStore(subscribe, snapshot, () => onServer);
}

/**
 * Asks for the session and keeps it fresh (refetch on focus, after `useRefreshMe`), once for the
 * whole app (client/app.tsx), without re-rendering: the readers above read the cache entry.
 * A query observer per reader (every card's emoji row, reply and report buttons) cost a
 * quarter of a served comment page's hydration (decision 021, "Native emoji radios").
 */
export function SessionQuery(): null {
  const trpc = useTRPC();
  useQuery({ ...trpc.users.me.queryOptions(), staleTime: 60_000, notifyOnChangeProps: [] });
  return null;
}

/** The signed-in user, or null for a visitor (and while the session is read): what a page's parts need. */
export function useViewer(): Me | null {
  return useSessionStore((s) => (s.data as Me | null | undefined) ?? null, null);
}

/** The signed-in user (null for a visitor) and whether the session is still being read; shared by nav and pages. */
export function useMe(): { me: Me | null; isLoading: boolean } {
  const me = useViewer();
  const isLoading = useSessionStore((s) => s.pending, true);
  return { me, isLoading };
}

/** Re-reads the session after login, logout, profile or favourite changes. */
export function useRefreshMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.users.me.queryKey() });
}
