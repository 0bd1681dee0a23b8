import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { useInvalidate, type Options } from './refresh';

/** Account mutations that change what the session or the user list shows. */

/** The profile's name and avatar: the answer is the new signed-in user, shown at once everywhere. */
export function useUpdateProfile(options: Options<'users', 'updateProfile'> = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.users.updateProfile.mutationOptions({
      ...options,
      onSuccess: (...args) => {
        queryClient.setQueryData(trpc.users.me.queryKey(), args[0]);
        return options.onSuccess?.(...args);
      },
    }),
  );
}

/** User Management reloads its list after every change, so it shows what the server stored. */
function useReloadUsers() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([{ queryKey: trpc.users.list.queryKey() }]);
}

/** An admin's ban or admin flag; the list has the last word once it has reloaded. */
export function useSetUserFlags(options: Options<'users', 'setFlags'> = {}) {
  const trpc = useTRPC();
  const reload = useReloadUsers();
  return useMutation(
    trpc.users.setFlags.mutationOptions({
      ...options,
      onSettled: async (...args) => {
        await reload();
        return options.onSettled?.(...args);
      },
    }),
  );
}

/** An admin's delete of an account, from User Management. */
export function useDeleteUser(options: Options<'users', 'delete'> = {}) {
  const trpc = useTRPC();
  const reload = useReloadUsers();
  return useMutation(
    trpc.users.delete.mutationOptions({
      ...options,
      onSettled: async (...args) => {
        await reload();
        return options.onSettled?.(...args);
      },
    }),
  );
}

/** An admin's moderation digest setting (profile); the answer is the new setting. */
export function useSetDigest(options: Options<'moderation', 'setDigest'> = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.moderation.setDigest.mutationOptions({
      ...options,
      onSuccess: (...args) => {
        queryClient.setQueryData(trpc.moderation.digest.queryKey(), args[0]);
        return options.onSuccess?.(...args);
      },
    }),
  );
}
