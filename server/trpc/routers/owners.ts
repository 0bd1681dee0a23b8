import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import { claimCreateSchema, claimDecisionSchema, claimsQuerySchema, ownerRemoveSchema, ownerReplyInputSchema } from '../../../shared/schemas/owners';
import { deleteOwnerReply, putOwnerReply } from '../../services/business/owner-replies';
import { ownerStats } from '../../services/business/owner-stats';
import { claimBusiness, decideClaim, listClaims, listOwners, myBusinesses, removeOwner } from '../../services/business/owners';
import { adminProcedure, publicProcedure, router, signedInProcedure } from '../init';

// Claiming and answering are public procedures on purpose: the services answer a visitor with
// the product's own message ('Please log in to claim a business') rather than the generic 401.
export const ownersRouter = router({
  claim: publicProcedure.input(claimCreateSchema).mutation(({ ctx, input }) => claimBusiness(ctx.deps, ctx.actor, input)),
  claims: adminProcedure.input(claimsQuerySchema.optional()).query(({ ctx, input }) => listClaims(ctx.deps, ctx.actor, input ?? {})),
  decideClaim: adminProcedure.input(claimDecisionSchema).mutation(({ ctx, input }) => decideClaim(ctx.deps, ctx.actor, input)),
  owners: adminProcedure.input(z.object({ businessId: idSchema })).query(({ ctx, input }) => listOwners(ctx.deps, ctx.actor, input.businessId)),
  removeOwner: adminProcedure.input(ownerRemoveSchema).mutation(async ({ ctx, input }) => {
    await removeOwner(ctx.deps, ctx.actor, input.businessId, input.userId);
    return { ok: true as const };
  }),
  /** The caller's owned and claimed businesses (the profile's "Your business"). */
  mine: signedInProcedure.query(({ ctx }) => myBusinesses(ctx.deps, ctx.actor)),
  stats: signedInProcedure.input(z.object({ businessId: idSchema })).query(({ ctx, input }) => ownerStats(ctx.deps, ctx.actor, input.businessId)),
  putReply: publicProcedure.input(ownerReplyInputSchema).mutation(({ ctx, input }) => putOwnerReply(ctx.deps, ctx.actor, input)),
  deleteReply: signedInProcedure.input(z.object({ commentId: idSchema })).mutation(async ({ ctx, input }) => {
    await deleteOwnerReply(ctx.deps, ctx.actor, input.commentId);
    return { ok: true as const };
  }),
});
