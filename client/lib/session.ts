import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useHydrated } from './hydrated';
import { useTRPC } from './trpc';

/**
 * The signed-in user (null for a visitor), from the session cookie; shared by nav and pages.
 * While React hydrates a page the server rendered (the anonymous view, before any session was
 * read) it answers as the server did, still loading, even if the answer has arrived meanwhile
 * (a part of the page may hydrate after it): the visitor's own view follows right after.
 */
export function useMe() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.users.me.queryOptions(), staleTime: 60_000 });
  const hydrated = useHydrated();
  if (!hydrated) return { me: null, isLoading: true, query };
  return { me: query.data ?? null, isLoading: query.isPending, query };
}

/** Re-reads the session after login, logout, profile or favourite changes. */
export function useRefreshMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.users.me.queryKey() });
}
