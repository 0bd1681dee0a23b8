import { useMutation } from '@tanstack/react-query';
import type { RateResult } from '../../../server/schemas/comments';
import { useTRPC } from '../trpc';
import { refreshThen, useInvalidate, type Options } from './refresh';

/**
 * The comment and reply mutations: each refreshes what it changes, so components only say what
 * the user sees (a toast, a closed form). Every comment list lives under `comments.*`.
 */

/** For the hooks that serve a comment or a reply alike. */
type PostCallbacks<T = unknown> = { onSuccess?(result: T): void; onError?(error: unknown): void };
type PostKind = 'comment' | 'reply';

/** Every list, page and count of comments and replies, refetched where shown. */
export function useRefreshComments() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.comments.pathFilter()]);
}

export function useCreateComment(options: Options<'comments', 'create'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  return useMutation(trpc.comments.create.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

export function useCreateReply(options: Options<'comments', 'reply'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  return useMutation(trpc.comments.reply.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** The author's edit of a comment or a reply. */
export function useUpdatePost(kind: PostKind, { onSuccess, onError }: PostCallbacks = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  const options = { onSuccess: refreshThen(refresh, onSuccess), onError };
  const comment = useMutation(trpc.comments.update.mutationOptions(options));
  const reply = useMutation(trpc.comments.updateReply.mutationOptions(options));
  return kind === 'comment' ? comment : reply;
}

/** The author's delete of a comment; the caller refreshes (useRefreshComments) once the card has left. */
export function useDeleteComment(options: Options<'comments', 'delete'> = {}) {
  const trpc = useTRPC();
  return useMutation(trpc.comments.delete.mutationOptions(options));
}

/** The author's (or an admin's) delete of a reply. */
export function useDeleteReply(options: Options<'comments', 'deleteReply'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  return useMutation(trpc.comments.deleteReply.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/** An admin's removal of a comment (Comment Management). */
export function useRemoveComment(options: Options<'comments', 'remove'> = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  return useMutation(trpc.comments.remove.mutationOptions({ ...options, onSuccess: refreshThen(refresh, options.onSuccess) }));
}

/**
 * An emoji rating of a comment or a reply. The card shows the answer itself; other lists (the
 * feed's counts, TOP RATED) are only marked stale and catch up when they are next shown.
 */
export function useRatePost(kind: PostKind, { onSuccess, onError }: PostCallbacks<RateResult> = {}) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const options = { onSuccess: refreshThen(() => invalidate([{ ...trpc.comments.feed.pathFilter(), refetchType: 'none' }]), onSuccess), onError };
  const comment = useMutation(trpc.comments.rate.mutationOptions(options));
  const reply = useMutation(trpc.comments.rateReply.mutationOptions(options));
  return kind === 'comment' ? comment : reply;
}

/** A user's report of a comment or a reply (the lists show it as reported by them). */
export function useReportPost(kind: PostKind, { onSuccess, onError }: PostCallbacks = {}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments();
  const options = { onSuccess: refreshThen(refresh, onSuccess), onError };
  const comment = useMutation(trpc.moderation.reportComment.mutationOptions(options));
  const reply = useMutation(trpc.moderation.reportReply.mutationOptions(options));
  return kind === 'comment' ? comment : reply;
}
