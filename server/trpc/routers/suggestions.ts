import { rejectSuggestionInputSchema, suggestionIdInputSchema, suggestionInputSchema, suggestionsPageInputSchema } from '../../../shared/schemas/suggestions';
import { approveSuggestion, listSuggestions, mySuggestions, rejectSuggestion, suggestBusiness } from '../../services/business/business-suggestions';
import { publicProcedure, router } from '../init';

// Suggested places (issue 31.5); the services check who may (a visitor hears to log in).
export const suggestionsRouter = router({
  create: publicProcedure.input(suggestionInputSchema).mutation(({ ctx, input }) => suggestBusiness(ctx.deps, ctx.actor, input)),
  mine: publicProcedure.query(({ ctx }) => mySuggestions(ctx.deps, ctx.actor)),
  queue: publicProcedure.input(suggestionsPageInputSchema).query(({ ctx, input }) => listSuggestions(ctx.deps, ctx.actor, input)),
  approve: publicProcedure.input(suggestionIdInputSchema).mutation(({ ctx, input }) => approveSuggestion(ctx.deps, ctx.actor, input.id)),
  reject: publicProcedure.input(rejectSuggestionInputSchema).mutation(({ ctx, input }) => rejectSuggestion(ctx.deps, ctx.actor, input.id, input.reason)),
});
