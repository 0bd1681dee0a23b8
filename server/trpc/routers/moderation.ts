import { reportInputSchema, reportsInputSchema, resolveInputSchema } from '../../schemas/moderation';
import { listModLog } from '../../services/mod-log';
import { listReports, reportPost, resolveReports } from '../../services/reports';
import { publicProcedure, router } from '../init';

// Public on purpose, as in the comments router: the services decide who may act and answer a
// visitor with 'Please log in to report a post.'.
export const moderationRouter = router({
  reportComment: publicProcedure.input(reportInputSchema).mutation(({ ctx, input }) => reportPost(ctx.deps, ctx.actor, 'comment', input)),
  reportReply: publicProcedure.input(reportInputSchema).mutation(({ ctx, input }) => reportPost(ctx.deps, ctx.actor, 'reply', input)),
  reports: publicProcedure.input(reportsInputSchema).query(({ ctx, input }) => listReports(ctx.deps, ctx.actor, input)),
  resolve: publicProcedure.input(resolveInputSchema).mutation(({ ctx, input }) => resolveReports(ctx.deps, ctx.actor, input)),
  log: publicProcedure.query(({ ctx }) => listModLog(ctx.deps, ctx.actor)),
});
