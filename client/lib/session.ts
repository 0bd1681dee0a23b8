import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from './trpc';

/** The signed-in user (null for a visitor), from the session cookie; shared by nav and pages. */
export function useMe() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.users.me.queryOptions(), staleTime: 60_000 });
  return { me: query.data ?? null, isLoading: query.isPending, query };
}

/** Re-reads the session after login, logout, profile or favourite changes. */
export function useRefreshMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.users.me.queryKey() });
}
