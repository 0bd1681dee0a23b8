import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, refreshThen, useInvalidate, type Options } from '../../lib/refresh';

/**
 * The business mutations, each refreshing what it changes: the directory, the management list,
 * the business page, favourites, the home page and the category list all show businesses.
 * (The favourite toggle, with its optimistic flip, is components/business/use-favorite.ts.)
 */

/** Every view of businesses, refetched where shown. */
function useRefreshBusinesses() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () =>
    invalidate([
      trpc.business.list.pathFilter(),
      trpc.business.directory.pathFilter(),
      trpc.business.directoryCards.pathFilter(),
      trpc.business.directoryPage.pathFilter(),
      trpc.business.byId.pathFilter(),
      trpc.business.favorites.pathFilter(),
      trpc.home.pathFilter(),
      trpc.business.categories.pathFilter(),
    ]);
}

/** Add Business; the form stays busy until the lists show the new business. */
export const useCreateBusiness = refreshingMutation((trpc) => trpc.business.create, useRefreshBusinesses, { wait: true });

/** Update Business; the form stays busy until the lists show the change. */
export const useUpdateBusiness = refreshingMutation((trpc) => trpc.business.update, useRefreshBusinesses, { wait: true });

/** Delete a business: it leaves the management list at once, the other views refetch. */
export function useRemoveBusiness(options: Options<'business', 'remove'> = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation(
    trpc.business.remove.mutationOptions({
      ...options,
      onSuccess: async (...args) => {
        const [{ id }] = args;
        queryClient.setQueriesData<{ id: string }[]>(trpc.business.list.pathFilter(), (list) => list?.filter((b) => b.id !== id));
        await options.onSuccess?.(...args);
        await invalidate([
          trpc.business.directory.pathFilter(),
          trpc.business.directoryCards.pathFilter(),
          trpc.business.directoryPage.pathFilter(),
          trpc.business.favorites.pathFilter(),
          trpc.users.me.queryFilter(),
          trpc.home.pathFilter(),
        ]);
      },
    }),
  );
}

/** A user's stars for a business: the page shows the new average at once, the rest refetches. */
export function useRateBusiness(businessId: string, options: Options<'business', 'rate'> = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const refresh = (...[result]: [{ rate: number | null; ratingCount: number; myRate: number | null }, ...unknown[]]) => {
    queryClient.setQueryData(trpc.business.byId.queryKey({ id: businessId }), (b) =>
      b ? { ...b, rate: result.rate, ratingCount: result.ratingCount, myRate: result.myRate } : b,
    );
    // The breakdown (business.byId), the lists, and the stars on this user's comments moved too.
    return invalidate([trpc.business.pathFilter(), trpc.comments.pathFilter()]);
  };
  return useMutation(trpc.business.rate.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** A business's and its branches' facts and opening hours (issue 31.1); busy until the page shows them. */
export const useEditFacts = refreshingMutation((trpc) => trpc.business.editFacts, useRefreshBusinesses, { wait: true });
