import { cachedPublicProcedure, router } from '../init';
import { findSuggestionBoxId, homeSummary, listBusinessSummaries } from '../../services/comments/home';

export const homeRouter = router({
  /** The carousel and the count, on every home page view. */
  summary: cachedPublicProcedure.query(({ ctx }) => homeSummary(ctx.deps.db)),
  /** Every business, for the store chooser once a visitor reaches for it. */
  businesses: cachedPublicProcedure.query(({ ctx }) => listBusinessSummaries(ctx.deps.db)),
  suggestionBox: cachedPublicProcedure.query(({ ctx }) => ({ _id: findSuggestionBoxId(ctx.deps.db) })),
});
