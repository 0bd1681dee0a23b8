import {
  businessCommentsInputSchema,
  commentCreateSchema,
  commentUpdateSchema,
  feedInputSchema,
  idInputSchema,
  moderationInputSchema,
  rateInputSchema,
  repliesInputSchema,
  replyCreateSchema,
  replyUpdateSchema,
} from '../../../shared/schemas/comments';
import { rateComment, rateReply } from '../../services/comments/comment-ratings';
import {
  createComment,
  deleteComment,
  getComment,
  listBusinessComments,
  listFeed,
  listForModeration,
  removeComment,
  updateComment,
} from '../../services/comments/comments';
import { createReply, deleteReply, listReplies, updateReply } from '../../services/comments/replies';
import { cachedPublicProcedure, publicProcedure, router } from '../init';

// Every procedure is public on purpose: the services decide who may act, and answer a visitor
// with the description's own message ('Please log in to rate.') rather than a generic 401.
export const commentsRouter = router({
  feed: cachedPublicProcedure.input(feedInputSchema).query(({ ctx, input }) => listFeed(ctx.deps, ctx.actor, input)),
  byBusiness: cachedPublicProcedure.input(businessCommentsInputSchema).query(({ ctx, input }) => listBusinessComments(ctx.deps, ctx.actor, input)),
  byId: cachedPublicProcedure.input(idInputSchema).query(({ ctx, input }) => getComment(ctx.deps, ctx.actor, input.id)),
  replies: cachedPublicProcedure.input(repliesInputSchema).query(({ ctx, input }) => listReplies(ctx.deps, ctx.actor, input)),
  moderation: publicProcedure.input(moderationInputSchema).query(({ ctx, input }) => listForModeration(ctx.deps, ctx.actor, input)),

  create: publicProcedure.input(commentCreateSchema).mutation(({ ctx, input }) => createComment(ctx.deps, ctx.actor, input)),
  update: publicProcedure.input(commentUpdateSchema).mutation(({ ctx, input }) => updateComment(ctx.deps, ctx.actor, input)),
  delete: publicProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await deleteComment(ctx.deps, ctx.actor, input.id);
    return { id: input.id };
  }),
  remove: publicProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await removeComment(ctx.deps, ctx.actor, input.id);
    return { id: input.id };
  }),
  rate: publicProcedure.input(rateInputSchema).mutation(({ ctx, input }) => rateComment(ctx.deps, ctx.actor, input)),

  reply: publicProcedure.input(replyCreateSchema).mutation(({ ctx, input }) => createReply(ctx.deps, ctx.actor, input)),
  updateReply: publicProcedure.input(replyUpdateSchema).mutation(({ ctx, input }) => updateReply(ctx.deps, ctx.actor, input)),
  deleteReply: publicProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await deleteReply(ctx.deps, ctx.actor, input.id);
    return { id: input.id };
  }),
  rateReply: publicProcedure.input(rateInputSchema).mutation(({ ctx, input }) => rateReply(ctx.deps, ctx.actor, input)),
});
