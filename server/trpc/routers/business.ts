import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import {
  businessCreateSchema,
  businessIdInputSchema,
  businessSearchSchema,
  directoryFiltersQuerySchema,
  directoryPageQuerySchema,
  directoryCardsInputSchema,
  directoryQuerySchema,
  businessUpdateSchema,
  userRateSchema,
} from '../../../shared/schemas/business';
import { getBusiness } from '../../services/business/business';
import { createBusiness, deleteBusiness, updateBusiness } from '../../services/business/business-admin';
import { directoryCards, directoryFilters, directoryPage, directoryPlaces, listBusinesses, listDirectory } from '../../services/business/directory';
import { rateBusiness, unrateBusiness, type RateResult, type UnrateResult } from '../../services/business/business-ratings';
import { listCategories } from '../../services/business/categories';
import { listFavoriteBusinesses, setFavorite } from '../../services/business/favorites';
import { listBusinessPhotos } from '../../services/comments/photos';
import { businessPhotosInputSchema } from '../../../shared/schemas/photos';
import { adminProcedure, cachedBusinessesProcedure, cachedPublicProcedure, publicProcedure, router } from '../init';
import { businessFactsSchema } from '../../../shared/schemas/business-facts';
import { editBusinessFacts, listFactChanges } from '../../services/business/business-facts';

// Rating and favouriting are public procedures on purpose: the services answer a visitor with the
// description's own message ('Please log in to submit a rate') rather than the generic 401.
export const businessRouter = router({
  directory: cachedBusinessesProcedure.input(directoryQuerySchema.optional()).query(({ ctx, input }) => listDirectory(ctx.deps, ctx.actor, input ?? {})),

  // The directory page's list, a bounded page at a time (docs/decisions/008).
  directoryPage: cachedBusinessesProcedure
    .input(directoryPageQuerySchema.optional())
    .query(({ ctx, input }) => directoryPage(ctx.deps, ctx.actor, input ?? {})),

  directoryFilters: cachedBusinessesProcedure.input(directoryFiltersQuerySchema.optional()).query(({ ctx, input }) => directoryFilters(ctx.deps, input ?? {})),

  // "Närmast mig": the nearest businesses' cards, a page of ids at a time, in the browser's order.
  directoryCards: cachedBusinessesProcedure.input(directoryCardsInputSchema).query(({ ctx, input }) => directoryCards(ctx.deps, ctx.actor, input.ids)),

  // The map's pins and "Närmast mig"'s distances (computed in the browser) for the directory's filters.
  directoryPlaces: cachedBusinessesProcedure.input(directoryQuerySchema.optional()).query(({ ctx, input }) => directoryPlaces(ctx.deps, input ?? {})),

  // The admins' management table: every business with its branches (it grows with the site).
  list: adminProcedure
    .input(z.object({ search: businessSearchSchema, order: z.enum(['title', 'newest']).optional() }).optional())
    .query(({ ctx, input }) => listBusinesses(ctx.deps, ctx.actor, { search: input?.search, sort: input?.order === 'newest' ? 'newest' : 'name' })),

  categories: cachedBusinessesProcedure.query(({ ctx }) => listCategories(ctx.deps.db)),

  byId: cachedPublicProcedure.input(businessIdInputSchema).query(({ ctx, input }) => getBusiness(ctx.deps, ctx.actor, input.id)),

  photos: cachedPublicProcedure.input(businessPhotosInputSchema).query(({ ctx, input }) => listBusinessPhotos(ctx.deps, input)),

  create: adminProcedure.input(businessCreateSchema).mutation(({ ctx, input }) => createBusiness(ctx.deps, ctx.actor, input)),

  update: adminProcedure
    .input(businessUpdateSchema.extend({ id: idSchema }))
    .mutation(({ ctx, input: { id, ...input } }) => updateBusiness(ctx.deps, ctx.actor, id, input)),

  // Public procedures: the service decides who may (admins now, the business's owners later).
  editFacts: publicProcedure
    .input(businessFactsSchema.extend({ id: idSchema }))
    .mutation(({ ctx, input: { id, ...input } }) => editBusinessFacts(ctx.deps, ctx.actor, id, input)),

  factChanges: publicProcedure.input(businessIdInputSchema).query(({ ctx, input }) => listFactChanges(ctx.deps, ctx.actor, input.id)),

  remove: adminProcedure.input(businessIdInputSchema).mutation(async ({ ctx, input }) => {
    await deleteBusiness(ctx.deps, ctx.actor, input.id);
    return { id: input.id };
  }),

  rate: publicProcedure
    .input(z.object({ id: idSchema, rate: userRateSchema.nullable() }))
    // null takes the rating back (the rating widget's "remove").
    .mutation(({ ctx, input }): Promise<RateResult | UnrateResult> =>
      input.rate === null ? unrateBusiness(ctx.deps, ctx.actor, input.id) : rateBusiness(ctx.deps, ctx.actor, input.id, input.rate),
    ),

  setFavorite: publicProcedure
    .input(z.object({ businessId: idSchema, favorite: z.boolean() }))
    .mutation(({ ctx, input }) => setFavorite(ctx.deps, ctx.actor, input)),

  favorites: publicProcedure.input(z.object({ userId: idSchema })).query(({ ctx, input }) => listFavoriteBusinesses(ctx.deps, ctx.actor, input.userId)),
});
