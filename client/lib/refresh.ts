import { useMutation, useQueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import type { DecorateMutationProcedure, ResolverDef } from '@trpc/tanstack-react-query';
import { useTRPC } from './trpc';

export type Trpc = ReturnType<typeof useTRPC>;
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

/**
 * The hook for one tRPC mutation whose success first refreshes what `useRefresh` names (given the
 * answer and the input), then runs the caller's own onSuccess. With `wait`, the mutation stays pending until
 * the refreshed queries have arrived (a form stays busy until its list shows the change).
 * `export const useCreateReply = refreshingMutation((trpc) => trpc.comments.reply, useRefreshComments);`
 */
export function refreshingMutation<TDef extends ResolverDef>(
  pick: (trpc: Trpc) => DecorateMutationProcedure<TDef>,
  useRefresh: () => (data: TDef['output'], input: TDef['input']) => unknown,
  { wait = false }: { wait?: boolean } = {},
) {
  return function useRefreshingMutation(options: OptionsOf<DecorateMutationProcedure<TDef>> = {}) {
    const procedure = pick(useTRPC());
    const refresh = useRefresh();
    return useMutation(
      procedure.mutationOptions({
        ...options,
        onSuccess: async (...args) => {
          const refreshed = refresh(args[0], args[1]);
          if (wait) await refreshed;
          return options.onSuccess?.(...args);
        },
      }),
    );
  };
}

/** As refreshingMutation, but the refresh comes after success and failure alike, before the caller's onSettled. */
export function reloadingMutation<TDef extends ResolverDef>(pick: (trpc: Trpc) => DecorateMutationProcedure<TDef>, useReload: () => () => unknown) {
  return function useReloadingMutation(options: OptionsOf<DecorateMutationProcedure<TDef>> = {}) {
    const procedure = pick(useTRPC());
    const reload = useReload();
    return useMutation(
      procedure.mutationOptions({
        ...options,
        onSettled: async (...args) => {
          await reload();
          return options.onSettled?.(...args);
        },
      }),
    );
  };
}
