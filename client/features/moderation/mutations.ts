import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, useInvalidate } from '../../lib/refresh';

/** The moderation queue's decisions: each changes the queue and the comments it is about. */

function useRefreshModeration() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.moderation.pathFilter(), trpc.comments.pathFilter()]);
}

/** Remove the reported post, or dismiss its reports. */
export const useResolveReport = refreshingMutation((trpc) => trpc.moderation.resolve, useRefreshModeration);

/** Ban the author of a reported post (the queue hides their posts). */
export const useBanAuthor = refreshingMutation((trpc) => trpc.users.setFlags, useRefreshModeration);

/** Remove every post of an author. */
export const useRemoveAllPosts = refreshingMutation((trpc) => trpc.moderation.removeAllPosts, useRefreshModeration);

/** Accept a burst's held ratings (they count) or reject them (they stay out); the business's figures move. */
export const useResolveRatingBurst = refreshingMutation(
  (trpc) => trpc.moderation.resolveRatingBurst,
  () => {
    const trpc = useTRPC();
    const invalidate = useInvalidate();
    return () => invalidate([trpc.moderation.pathFilter(), trpc.business.pathFilter()]);
  },
);
