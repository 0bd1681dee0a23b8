import { useMutation } from '@tanstack/react-query';
import type { DecorateMutationProcedure, ResolverDef } from '@trpc/tanstack-react-query';
import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, useInvalidate, type Options, type Trpc } from '../../lib/refresh';

/**
 * The comment and reply mutations: each refreshes what it changes, so components only say what
 * the user sees (a toast, a closed form). Every comment list lives under `comments.*`.
 */

/**
 * A hook for a mutation that exists for comments and for replies alike: both are set up (hooks
 * cannot be called on a condition) and the one for `kind` is returned.
 */
function refreshingPostMutation<C extends ResolverDef, R extends ResolverDef>(
  pick: (trpc: Trpc) => [DecorateMutationProcedure<C>, DecorateMutationProcedure<R>],
  useRefresh: () => () => unknown,
) {
  const useForComment = refreshingMutation((trpc) => pick(trpc)[0], useRefresh);
  const useForReply = refreshingMutation((trpc) => pick(trpc)[1], useRefresh);
  return function usePostMutation(
    kind: 'comment' | 'reply',
    callbacks: { onSuccess?(result: C['output'] & R['output']): void; onError?(error: unknown): void } = {},
  ) {
    const comment = useForComment(callbacks);
    const reply = useForReply(callbacks);
    return kind === 'comment' ? comment : reply;
  };
}

/** Every list, page and count of comments and replies, refetched where shown. */
export function useRefreshComments() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.comments.pathFilter()]);
}

/** The comments, and the business's average and breakdown when the post brought stars. */
function useRefreshCommentsAndStars() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return (_post: unknown, input: { rate?: number | null }) =>
    invalidate(input.rate === undefined ? [trpc.comments.pathFilter()] : [trpc.comments.pathFilter(), trpc.business.pathFilter()]);
}

/** The comments and the business: its count of written reviews moved ("7 betyg · 2 recensioner"). */
function useRefreshCommentsAndBusiness() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.comments.pathFilter(), trpc.business.pathFilter()]);
}

export const useCreateComment = refreshingMutation((trpc) => trpc.comments.create, useRefreshCommentsAndBusiness);

export const useCreateReply = refreshingMutation((trpc) => trpc.comments.reply, useRefreshComments);

/** The author's edit of a comment (text, photo, place, new stars). */
export const useUpdateComment = refreshingMutation((trpc) => trpc.comments.update, useRefreshCommentsAndStars);

/** The author's edit of a reply. */
export const useUpdateReply = refreshingMutation((trpc) => trpc.comments.updateReply, useRefreshComments);

/** The author's delete of a comment; the caller refreshes (useRefreshComments) once the card has left. */
export function useDeleteComment(options: Options<'comments', 'delete'> = {}) {
  const trpc = useTRPC();
  return useMutation(trpc.comments.delete.mutationOptions(options));
}

/** The author's (or an admin's) delete of a reply. */
export const useDeleteReply = refreshingMutation((trpc) => trpc.comments.deleteReply, useRefreshComments);

/** An admin's removal of a comment (Comment Management). */
export const useRemoveComment = refreshingMutation((trpc) => trpc.comments.remove, useRefreshComments);

/** The feed's counts and TOP RATED: marked stale only, they catch up when they are next shown. */
function useMarkFeedStale() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([{ ...trpc.comments.feed.pathFilter(), refetchType: 'none' }]);
}

/** An emoji rating of a comment or a reply; the card shows the answer itself. */
export const useRatePost = refreshingPostMutation((trpc) => [trpc.comments.rate, trpc.comments.rateReply], useMarkFeedStale);

/** A user's report of a comment or a reply (the lists show it as reported by them). */
export const useReportPost = refreshingPostMutation((trpc) => [trpc.moderation.reportComment, trpc.moderation.reportReply], useRefreshComments);

/** A member's report of a business's answer to a review (issue 31.7): `id` is the review's. */
export const useReportOwnerReply = refreshingMutation((trpc) => trpc.moderation.reportOwnerReply, useRefreshComments);
