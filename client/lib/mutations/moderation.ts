import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { refreshThen, useInvalidate, type Options } from './refresh';

/** The moderation queue's decisions: each changes the queue and the comments it is about. */

function useRefreshModeration() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.moderation.pathFilter(), trpc.comments.pathFilter()]);
}

/** Remove the reported post, or dismiss its reports. */
export function useResolveReport(options: Options<'moderation', 'resolve'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshModeration();
  return useMutation(trpc.moderation.resolve.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** Ban the author of a reported post (the queue hides their posts). */
export function useBanAuthor(options: Options<'users', 'setFlags'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshModeration();
  return useMutation(trpc.users.setFlags.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** Remove every post of an author. */
export function useRemoveAllPosts(options: Options<'moderation', 'removeAllPosts'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshModeration();
  return useMutation(trpc.moderation.removeAllPosts.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** Dismiss a burst of ratings as harmless. */
export function useDismissRatingBurst(options: Options<'moderation', 'dismissRatingBurst'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshModeration();
  return useMutation(trpc.moderation.dismissRatingBurst.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}
