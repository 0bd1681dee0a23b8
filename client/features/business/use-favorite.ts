import { useMutation, useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useInvalidate } from '../../lib/refresh';
import { useTRPC } from '../../lib/trpc';
import { useAskToLogIn } from '../accounts/ask-to-log-in';
import { notify } from '../../components/ui/toast';

type Favoritable = { id: string; isFavorite: boolean };

/**
 * Flips a favourite at once in every cached view of it (directory cards, the business page,
 * the favourites and management lists, the nav badge), sends the change, and rolls every view back on failure.
 * Visitors are told to log in instead, with a way back here after it.
 */
export function useFavoriteToggle() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const { t } = useI18n();
  const me = useViewer();
  const askToLogIn = useAskToLogIn();

  const views = (businessId: string) => [
    trpc.business.directory.pathFilter(),
    trpc.business.directoryCards.pathFilter(),
    trpc.business.directoryPage.pathFilter(),
    trpc.business.list.pathFilter(),
    trpc.business.favorites.pathFilter(),
    trpc.business.byId.queryFilter({ id: businessId }),
    trpc.users.me.queryFilter(),
  ];

  const mutation = useMutation(
    trpc.business.setFavorite.mutationOptions({
      onMutate: async ({ businessId, favorite }) => {
        const filters = views(businessId);
        await Promise.all(filters.map((f) => queryClient.cancelQueries(f)));
        const snapshot: Array<[QueryKey, unknown]> = filters.flatMap((f) => queryClient.getQueriesData(f));
        const flip = <T extends Favoritable>(item: T): T => (item.id === businessId ? { ...item, isFavorite: favorite } : item);
        queryClient.setQueriesData<Favoritable[]>(trpc.business.directory.pathFilter(), (list) => list?.map(flip));
        queryClient.setQueriesData<Favoritable[]>(trpc.business.directoryCards.pathFilter(), (list) => list?.map(flip));
        queryClient.setQueriesData<InfiniteData<{ items: Favoritable[] }>>(trpc.business.directoryPage.pathFilter(), (data) =>
          data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(flip) })) } : data,
        );
        queryClient.setQueriesData<Favoritable[]>(trpc.business.list.pathFilter(), (list) => list?.map(flip));
        queryClient.setQueriesData<Favoritable[]>(trpc.business.favorites.pathFilter(), (list) => list?.map(flip));
        queryClient.setQueryData(trpc.business.byId.queryKey({ id: businessId }), (b) => (b ? flip(b) : b));
        queryClient.setQueryData(trpc.users.me.queryKey(), (m) => (m ? { ...m, favoritesCount: Math.max(0, m.favoritesCount + (favorite ? 1 : -1)) } : m));
        return { snapshot };
      },
      onError: (error, { favorite }, context) => {
        for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
        // A reply without data never reached our server: the network failed.
        const network = error instanceof TRPCClientError && !error.data;
        const f = t.business.favorite;
        notify(favorite ? (network ? f.addNetworkFailed : f.addFailed) : network ? f.removeNetworkFailed : f.removeFailed, 'error');
      },
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.users.me.queryKey(), (m) => (m ? { ...m, favoritesCount: result.favoritesCount } : m));
        notify(result.isFavorite ? t.business.favorite.added : t.business.favorite.removed, 'success');
      },
      onSettled: () => invalidate([trpc.business.favorites.pathFilter(), trpc.users.me.queryFilter()]),
    }),
  );

  return (business: Favoritable) => {
    if (!me) {
      askToLogIn(t.messages.favoriteLoginRequired);
      return;
    }
    mutation.mutate({ businessId: business.id, favorite: !business.isFavorite });
  };
}
