import { cachedPublicProcedure, router } from '../init';
import { findSuggestionBoxId, homeSummary } from '../../services/comments/home';

export const homeRouter = router({
  /** The carousel and the count, on every home page view. */
  summary: cachedPublicProcedure.query(({ ctx }) => homeSummary(ctx.deps.db)),
  suggestionBox: cachedPublicProcedure.query(({ ctx }) => ({ _id: findSuggestionBoxId(ctx.deps.db) })),
});
