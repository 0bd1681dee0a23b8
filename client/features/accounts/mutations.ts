import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';
import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, reloadingMutation, useInvalidate } from '../../lib/refresh';

/** Account mutations that change what the session or the user list shows. */

type Me = inferRouterOutputs<AppRouter>['users']['me'];

/** The answer of a profile change is the new signed-in user, shown at once everywhere. */
function useStoreMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (user: Me) => queryClient.setQueryData(trpc.users.me.queryKey(), user);
}

/** The profile's name and avatar. */
export const useUpdateProfile = refreshingMutation((trpc) => trpc.users.updateProfile, useStoreMe);

/** User Management reloads its list after every change, so it shows what the server stored. */
function useReloadUsers() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([{ queryKey: trpc.users.list.queryKey() }, { queryKey: trpc.users.page.pathKey() }]);
}

/** An admin's ban or admin flag; the list has the last word once it has reloaded. */
export const useSetUserFlags = reloadingMutation((trpc) => trpc.users.setFlags, useReloadUsers);

/** An admin's delete of an account, from User Management. */
export const useDeleteUser = reloadingMutation((trpc) => trpc.users.delete, useReloadUsers);

/** The answer of the digest setting is the new setting. */
function useStoreDigest() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (digest: { modDigest: boolean }) => queryClient.setQueryData(trpc.moderation.digest.queryKey(), digest);
}

/** An admin's moderation digest setting (profile). */
export const useSetDigest = refreshingMutation((trpc) => trpc.moderation.setDigest, useStoreDigest);
