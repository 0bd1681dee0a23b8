import { useQueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import type { useTRPC } from '../trpc';

type Trpc = ReturnType<typeof useTRPC>;
type Procedure = { mutationOptions: (...args: never[]) => unknown };
/** The options a component passes to a hook wrapping this tRPC mutation (its own callbacks). */
export type OptionsOf<P extends Procedure> = NonNullable<Parameters<P['mutationOptions']>[0]>;
/** The same, named by router and procedure: `Options<'comments', 'create'>`. */
export type Options<R extends keyof Trpc, N extends keyof Trpc[R]> = Trpc[R][N] extends Procedure ? OptionsOf<Trpc[R][N]> : never;

/**
 * Marks every query one of `filters` matches as stale (the shown ones refetch); the promise
 * settles when they have. The one place the mutation hooks of lib/mutations invalidate.
 */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return (filters: InvalidateQueryFilters[]) => Promise.all(filters.map((f) => queryClient.invalidateQueries(f)));
}

/**
 * A mutation's onSuccess that first starts `refresh` (not waiting for it: the caller's toast and
 * state change come at once, the lists catch up), then runs the caller's own onSuccess.
 */
export function refreshThen<A extends unknown[], R>(refresh: (...args: NoInfer<A>) => unknown, onSuccess?: (...args: A) => R) {
  return (...args: A) => {
    void refresh(...args);
    return onSuccess?.(...args);
  };
}

/** As refreshThen, but the mutation stays pending until the refreshed queries have arrived. */
export function refreshBefore<A extends unknown[], R>(refresh: (...args: NoInfer<A>) => Promise<unknown>, onSuccess?: (...args: A) => R) {
  return async (...args: A) => {
    await refresh(...args);
    return onSuccess?.(...args);
  };
}
