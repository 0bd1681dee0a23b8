import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, useInvalidate } from '../../lib/refresh';

/** Suggested places (issue 31.5): a member's suggestion, a moderator's decision. */

function useRefreshSuggestions() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  // An approval adds a business: the directory and its filters change too.
  return () => invalidate([trpc.suggestions.pathFilter(), trpc.business.pathFilter()]);
}

/** A member suggests a place; their list shows it waiting. */
export const useSuggestPlace = refreshingMutation((trpc) => trpc.suggestions.create, useRefreshSuggestions);

/** A moderator approves a suggestion (the business is added). */
export const useApproveSuggestion = refreshingMutation((trpc) => trpc.suggestions.approve, useRefreshSuggestions);

/** A moderator rejects a suggestion with a reason. */
export const useRejectSuggestion = refreshingMutation((trpc) => trpc.suggestions.reject, useRefreshSuggestions);
