import {
  burstIdInputSchema,
  burstResolveInputSchema,
  burstsInputSchema,
  modDigestInputSchema,
  modLogInputSchema,
  removeAllInputSchema,
  reportInputSchema,
  reportsPageInputSchema,
  resolveInputSchema,
} from '../../../shared/schemas/moderation';
import { getModDigest, setModDigest } from '../../services/moderation/mod-digest';
import { listModLog } from '../../services/moderation/mod-log';
import { listModeratedPosts } from '../../services/moderation/moderation-notices';
import { listRatingBursts, resolveRatingBurst } from '../../services/moderation/rating-bursts';
import { listReports, removeAllPosts, reportPost, resolveReports, waitingReportCount } from '../../services/moderation/reports';
import { publicProcedure, router } from '../init';

// Public on purpose, as in the comments router: the services decide who may act and answer a
// visitor with 'Please log in to report a post.'.
export const moderationRouter = router({
  reportComment: publicProcedure.input(reportInputSchema).mutation(({ ctx, input }) => reportPost(ctx.deps, ctx.actor, 'comment', input)),
  reportReply: publicProcedure.input(reportInputSchema).mutation(({ ctx, input }) => reportPost(ctx.deps, ctx.actor, 'reply', input)),
  /** A business's answer to a review (issue 31.7): `id` is the review's. */
  reportOwnerReply: publicProcedure.input(reportInputSchema).mutation(({ ctx, input }) => reportPost(ctx.deps, ctx.actor, 'ownerReply', input)),
  /** The posts waiting in the open queue: the header's badge for moderators and admins. */
  waiting: publicProcedure.query(({ ctx }) => waitingReportCount(ctx.deps, ctx.actor)),
  reports: publicProcedure.input(reportsPageInputSchema).query(({ ctx, input }) => listReports(ctx.deps, ctx.actor, input)),
  resolve: publicProcedure.input(resolveInputSchema).mutation(({ ctx, input }) => resolveReports(ctx.deps, ctx.actor, input)),
  removeAllPosts: publicProcedure.input(removeAllInputSchema).mutation(({ ctx, input }) => removeAllPosts(ctx.deps, ctx.actor, input)),
  ratingBursts: publicProcedure.input(burstsInputSchema).query(({ ctx, input }) => listRatingBursts(ctx.deps, ctx.actor, input)),
  resolveRatingBurst: publicProcedure.input(burstResolveInputSchema).mutation(({ ctx, input }) => resolveRatingBurst(ctx.deps, ctx.actor, input)),
  // The older name: "looked at, fine" is an accept.
  dismissRatingBurst: publicProcedure
    .input(burstIdInputSchema)
    .mutation(({ ctx, input }) => resolveRatingBurst(ctx.deps, ctx.actor, { ...input, action: 'accept' })),
  /** The signed-in person's own hidden and removed posts, with the reason (their profile). */
  ownModerated: publicProcedure.query(({ ctx }) => listModeratedPosts(ctx.deps, ctx.actor)),
  log: publicProcedure.input(modLogInputSchema.optional()).query(({ ctx, input }) => listModLog(ctx.deps, ctx.actor, input ?? {})),
  digest: publicProcedure.query(({ ctx }) => getModDigest(ctx.deps, ctx.actor)),
  setDigest: publicProcedure.input(modDigestInputSchema).mutation(({ ctx, input }) => setModDigest(ctx.deps, ctx.actor, input)),
});
