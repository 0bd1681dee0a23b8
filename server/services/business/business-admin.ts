import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { branches, businesses, comments, favorites, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { townOf } from '../../lib/towns';
import type { BranchInput, BusinessCreateInput, BusinessUpdateInput } from '../../../shared/schemas/business';
import { requireAdmin, type Actor, type SignedIn } from '../actor';
import { getBusiness, titleSearchOf, type BusinessDetail } from './business';
import { applyBusinessRating } from './business-ratings';
import { writeBusinessSearch, writeCategorySearch } from './business-search';
import { renameCategoryEn, resolveCategory } from './categories';
import { replaceBranches } from '../comments/comment-branches';
import { releaseImage, releaseImages, requireImage, storeImage } from '../comments/images';
import { recordModAction } from '../moderation/mod-log';

// The admin's changes to the directory: adding, editing and deleting businesses. Reading them is
// services/business/business.ts (one business) and services/business/directory.ts (the lists).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Image files sent with a REST form; they take the place of imageId / iconId. */
export type BusinessUploads = { image?: Buffer; icon?: Buffer };

async function storeUploads(deps: Deps, admin: SignedIn, uploads: BusinessUploads) {
  const image = uploads.image?.length ? await storeImage(deps, { bytes: uploads.image, kind: 'business', ownerId: admin.id }) : null;
  try {
    const icon = uploads.icon?.length ? await storeImage(deps, { bytes: uploads.icon, kind: 'icon', ownerId: admin.id }) : null;
    return { imageId: image?.id ?? null, iconId: icon?.id ?? null };
  } catch (err) {
    await releaseImage(deps, image?.id);
    throw err;
  }
}

function insertBranches(tx: Tx, businessId: string, list: BranchInput[]) {
  tx.insert(branches)
    .values(
      list.map((b, position) => ({
        id: newId(),
        businessId,
        location: b.location,
        address: b.address ? b.address : null,
        ...townOf(b.location),
        position,
      })),
    )
    .run();
}

/**
 * The business's search row; with an English category name sent, the category's names may have
 * changed, so every business of it gets its row written again.
 */
function refreshSearch(tx: Tx, id: string, categoryEn: string | undefined) {
  const categoryId = categoryEn ? tx.select({ categoryId: businesses.categoryId }).from(businesses).where(eq(businesses.id, id)).get()?.categoryId : null;
  if (categoryId) writeCategorySearch(tx, categoryId);
  else writeBusinessSearch(tx, [id]);
}

/** Adds a business with its branches (admin). Images: uploaded files, else ids from /api/images. */
export async function createBusiness(deps: Deps, actor: Actor, input: BusinessCreateInput, uploads: BusinessUploads = {}): Promise<BusinessDetail> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  const stored = await storeUploads(deps, admin, uploads);
  const id = newId();
  try {
    const imageId = stored.imageId ?? input.imageId ?? null;
    const iconId = stored.iconId ?? input.iconId ?? null;
    if (imageId) requireImage(deps.db, imageId, admin.id);
    if (iconId) requireImage(deps.db, iconId, admin.id);
    const now = Date.now();
    deps.db.transaction((tx) => {
      tx.insert(businesses)
        .values({
          id,
          title: input.title,
          titleSearch: titleSearchOf(input.title),
          titleSort: swedishSortKey(input.title),
          categoryId: resolveCategory(tx, input.category, input.categoryEn || undefined, now),
          description: input.description,
          descriptionEn: input.descriptionEn || null,
          imageId,
          iconId,
          createdAt: now,
          updatedAt: now,
        })
        .run();
      insertBranches(tx, id, input.branches);
      refreshSearch(tx, id, input.categoryEn);
      // The form's rate is the adding admin's own rating, counted like anyone's (docs/product.md §4).
      if (input.rate !== undefined) applyBusinessRating(deps.db, id, admin.id, input.rate);
    });
  } catch (err) {
    await releaseImages(deps, [stored.imageId, stored.iconId]);
    throw err;
  }
  return getBusiness(deps, admin, id);
}

/**
 * Edits a business (admin). Empty title, category or rate keep their values; an absent English
 * description keeps it, an empty one removes it; branches are replaced by the list sent; a rate
 * is the editing admin's own rating (replacing their earlier one). A replaced or removed image or
 * icon is released afterwards.
 */
export async function updateBusiness(deps: Deps, actor: Actor, id: string, input: BusinessUpdateInput, uploads: BusinessUploads = {}): Promise<BusinessDetail> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  if (!deps.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, id)).get()) {
    throw new AppError('NOT_FOUND', 'businessNotFound');
  }
  const stored = await storeUploads(deps, admin, uploads);
  let replaced: Array<string | null>;
  try {
    replaced = deps.db.transaction((tx) => {
      const before = tx
        .select({ imageId: businesses.imageId, iconId: businesses.iconId, categoryId: businesses.categoryId })
        .from(businesses)
        .where(eq(businesses.id, id))
        .get();
      // It may have been deleted while the uploads were being encoded.
      if (!before) throw new AppError('NOT_FOUND', 'businessNotFound');
      const imageId = stored.imageId ?? (input.imageId === undefined ? before.imageId : input.imageId);
      const iconId = stored.iconId ?? (input.iconId === undefined ? before.iconId : input.iconId);
      if (imageId && imageId !== before.imageId) requireImage(deps.db, imageId, admin.id);
      if (iconId && iconId !== before.iconId) requireImage(deps.db, iconId, admin.id);
      const now = Date.now();
      // Only an English name sent: the business's own category gets it.
      if (!input.category && input.categoryEn && before.categoryId) renameCategoryEn(tx, before.categoryId, input.categoryEn, now);
      tx.update(businesses)
        .set({
          ...(input.title ? { title: input.title, titleSearch: titleSearchOf(input.title), titleSort: swedishSortKey(input.title) } : {}),
          ...(input.category ? { categoryId: resolveCategory(tx, input.category, input.categoryEn || undefined, now) } : {}),
          ...(input.descriptionEn !== undefined ? { descriptionEn: input.descriptionEn || null } : {}),
          description: input.description,
          imageId,
          iconId,
          updatedAt: now,
        })
        .where(eq(businesses.id, id))
        .run();
      // Branches sent back keep their ids and their comments' links (services/comments/comment-branches.ts).
      replaceBranches(tx, id, input.branches);
      refreshSearch(tx, id, input.categoryEn);
      if (input.rate !== undefined) applyBusinessRating(deps.db, id, admin.id, input.rate);
      return [before.imageId !== imageId ? before.imageId : null, before.iconId !== iconId ? before.iconId : null];
    });
  } catch (err) {
    await releaseImages(deps, [stored.imageId, stored.iconId]);
    throw err;
  }
  await releaseImages(deps, replaced);
  return getBusiness(deps, admin, id);
}

/**
 * Deletes a business (admin) with everything hanging off it, in one transaction: branches,
 * ratings, favourites (their owners' favourites_count goes down), comments, replies and their
 * ratings go by ON DELETE CASCADE. Then its image, icon and every comment and reply picture
 * are released. The suggestion box cannot be deleted.
 */
export async function deleteBusiness(deps: Deps, actor: Actor, id: string): Promise<void> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('delete', admin.id);
  const imageIds = deps.db.transaction((tx) => {
    const row = tx
      .select({ imageId: businesses.imageId, iconId: businesses.iconId, isSuggestionBox: businesses.isSuggestionBox, title: businesses.title })
      .from(businesses)
      .where(eq(businesses.id, id))
      .get();
    if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
    if (row.isSuggestionBox) throw new AppError('CONFLICT', 'suggestionBoxUndeletable');
    recordModAction(tx, admin, { action: 'deleteBusiness', targetKind: 'business', targetId: id, excerpt: row.title });
    const commentIds = tx.select({ id: comments.id }).from(comments).where(eq(comments.businessId, id));
    const commentImages = tx
      .select({ imageId: comments.imageId })
      .from(comments)
      .where(and(eq(comments.businessId, id), isNotNull(comments.imageId)))
      .all();
    const replyImages = tx
      .select({ imageId: replies.imageId })
      .from(replies)
      .where(and(or(eq(replies.businessId, id), inArray(replies.commentId, commentIds)), isNotNull(replies.imageId)))
      .all();
    tx.update(users)
      .set({ favoritesCount: sql`${users.favoritesCount} - 1` })
      .where(inArray(users.id, tx.select({ userId: favorites.userId }).from(favorites).where(eq(favorites.businessId, id))))
      .run();
    tx.delete(businesses).where(eq(businesses.id, id)).run();
    return [row.imageId, row.iconId, ...commentImages.map((c) => c.imageId), ...replyImages.map((r) => r.imageId)];
  });
  await releaseImages(deps, [...new Set(imageIds)]);
}
