import { cachedPublicProcedure, router } from '../init';
import { findSuggestionBoxId, listBusinessSummaries } from '../../services/comments/home';

export const homeRouter = router({
  businesses: cachedPublicProcedure.query(({ ctx }) => listBusinessSummaries(ctx.deps.db)),
  suggestionBox: cachedPublicProcedure.query(({ ctx }) => ({ _id: findSuggestionBoxId(ctx.deps.db) })),
});
