import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, useInvalidate } from '../../lib/refresh';

/** Business owners (issue 31): each mutation refreshes the lists that show what it changed. */

/** The comment lists (the answer shows under its review) and the owner's numbers (answered, unanswered). */
function useRefreshAnswers() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.comments.pathFilter(), trpc.owners.stats.pathFilter()]);
}

/** The caller's businesses and the admins' claims list. */
function useRefreshClaims() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.owners.mine.pathFilter(), trpc.owners.claims.pathFilter()]);
}

export const usePutOwnerReply = refreshingMutation((trpc) => trpc.owners.putReply, useRefreshAnswers, { wait: true });
export const useDeleteOwnerReply = refreshingMutation((trpc) => trpc.owners.deleteReply, useRefreshAnswers);
export const useClaimBusiness = refreshingMutation((trpc) => trpc.owners.claim, useRefreshClaims);
export const useDecideClaim = refreshingMutation((trpc) => trpc.owners.decideClaim, useRefreshClaims);
