import { publicProcedure, router } from '../init';
import { findSuggestionBoxId, listBusinessSummaries } from '../../services/home';

export const homeRouter = router({
  businesses: publicProcedure.query(({ ctx }) => listBusinessSummaries(ctx.deps.db)),
  suggestionBox: publicProcedure.query(({ ctx }) => ({ _id: findSuggestionBoxId(ctx.deps.db) })),
});
