import { and, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db, Tx } from '../../db/client';
import { branches, businessRatings, businesses, categories, comments, favorites, images, replies, users } from '../../db/schema';
import type { Deps } from '../deps';
import { dataStamp } from '../lib/data-stamp';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { keepJson } from '../lib/kept-json';
import { preparedStatements } from '../lib/prepared';
import { svFold } from '../lib/sv-fold';
import { uploadUrl } from '../lib/urls';
import {
  DIRECTORY_EXCERPT_CHARS,
  type BranchInput,
  type BusinessCreateInput,
  type BusinessUpdateInput,
} from '../schemas/business';
import { requireAdmin, type Actor, type SignedIn } from './actor';
import { applyBusinessRating } from './business-ratings';
import { renameCategoryEn, resolveCategory } from './categories';
import { releaseImage, releaseImages, requireImage, storeImage } from './images';
import { recordModAction } from './mod-log';
import { consumeLimit } from './rate-limits';


export type Branch = { id: string; location: string; address: string | null };

export type Business = {
  id: string;
  title: string;
  categoryId: string;
  /** The category's Swedish name; `categoryEn` its English one (the client shows the active language's). */
  category: string;
  categoryEn: string;
  description: string;
  /** The English description, or null: the Swedish one is shown in English too. */
  descriptionEn: string | null;
  /** The average of the star ratings; null while nobody has rated (PRODUCT.md section 4). */
  rate: number | null;
  ratingCount: number;
  image: string | null;
  icon: string | null;
  imageId: string | null;
  iconId: string | null;
  branches: Branch[];
  isSuggestionBox: boolean;
  /** Whether the acting user has it among their favourites (false for visitors). */
  isFavorite: boolean;
  createdAt: number;
  updatedAt: number;
};

export type BusinessDetail = Business & { /** The acting user's own star rating, if any. */ myRate: number | null };

/** What a directory card needs: no branches, and only the start of the description. */
export type DirectoryCard = {
  id: string;
  title: string;
  category: string;
  categoryEn: string;
  excerpt: string;
  /** The description goes on beyond the excerpt. */
  excerptCut: boolean;
  /** The same of the English description, or null when there is none. */
  excerptEn: string | null;
  excerptEnCut: boolean;
  rate: number | null;
  ratingCount: number;
  image: string | null;
  icon: string | null;
  isFavorite: boolean;
  isSuggestionBox: boolean;
};

export type ListOrder = 'title' | 'newest';

/**
 * The search key of a title: lower case by Swedish rules ('ÅHLÉNS' → 'åhléns'), in composed
 * form so a title typed with combining accents matches one typed without. businesses.title_search
 * holds exactly this; anything that writes a title (the seed included) must use it.
 */
export function titleSearchOf(title: string): string {
  return svFold(title);
}

/** The one rule for the shown rate (PRODUCT.md section 4): the average, or null with no ratings. */
export function shownRate(row: { ratingCount: number; ratingSum: number }): number | null {
  return row.ratingCount > 0 ? row.ratingSum / row.ratingCount : null;
}

const picture = alias(images, 'picture');
const iconImage = alias(images, 'icon_image');
const swedishOrder = new Intl.Collator('sv', { sensitivity: 'base', numeric: true });

/** Uses the favourites primary key (user_id, business_id): one index probe per row. */
function favoriteFlag(actor: Actor) {
  if (!actor) return sql<boolean>`0`.mapWith(Boolean);
  return sql<boolean>`exists(select 1 from ${favorites} where ${favorites.userId} = ${actor.id} and ${favorites.businessId} = ${businesses.id})`.mapWith(
    Boolean,
  );
}

function titleContains(search: string | undefined): SQL | undefined {
  const needle = search?.trim() ? titleSearchOf(search.trim()) : '';
  // instr() takes the text as a bound parameter, so no LIKE wildcard or quote in it has any effect.
  return needle ? sql`instr(${businesses.titleSearch}, ${needle}) > 0` : undefined;
}

const rowColumns = (actor: Actor) => ({
  id: businesses.id,
  title: businesses.title,
  categoryId: categories.id,
  category: categories.nameSv,
  categoryEn: categories.nameEn,
  description: businesses.description,
  descriptionEn: businesses.descriptionEn,
  ratingCount: businesses.ratingCount,
  ratingSum: businesses.ratingSum,
  imageId: businesses.imageId,
  iconId: businesses.iconId,
  imageFile: picture.fileName,
  iconFile: iconImage.fileName,
  isSuggestionBox: businesses.isSuggestionBox,
  isFavorite: favoriteFlag(actor),
  createdAt: businesses.createdAt,
  updatedAt: businesses.updatedAt,
});

type Row = {
  id: string;
  title: string;
  categoryId: string | null;
  category: string | null;
  categoryEn: string | null;
  description: string;
  descriptionEn: string | null;
  ratingCount: number;
  ratingSum: number;
  imageId: string | null;
  iconId: string | null;
  imageFile: string | null;
  iconFile: string | null;
  isSuggestionBox: boolean;
  isFavorite: boolean;
  createdAt: number;
  updatedAt: number;
};

function selectRows(db: Db, actor: Actor) {
  return db
    .select(rowColumns(actor))
    .from(businesses)
    .leftJoin(categories, eq(categories.id, businesses.categoryId))
    .leftJoin(picture, eq(picture.id, businesses.imageId))
    .leftJoin(iconImage, eq(iconImage.id, businesses.iconId))
    .$dynamic();
}

/** All branches of these businesses in one query, in their entered order. */
function branchesOf(db: Db, ids: string[]): Map<string, Branch[]> {
  const byBusiness = new Map<string, Branch[]>();
  if (ids.length === 0) return byBusiness;
  const rows = db
    .select({ id: branches.id, businessId: branches.businessId, location: branches.location, address: branches.address })
    .from(branches)
    .where(inArray(branches.businessId, ids))
    .orderBy(branches.businessId, branches.position)
    .all();
  for (const r of rows) {
    const list = byBusiness.get(r.businessId) ?? [];
    list.push({ id: r.id, location: r.location, address: r.address });
    byBusiness.set(r.businessId, list);
  }
  return byBusiness;
}

function toBusiness(row: Row, branchList: Branch[]): Business {
  return {
    id: row.id,
    title: row.title,
    categoryId: row.categoryId ?? '',
    category: row.category ?? '',
    categoryEn: row.categoryEn ?? '',
    description: row.description,
    descriptionEn: row.descriptionEn,
    rate: shownRate(row),
    ratingCount: row.ratingCount,
    image: uploadUrl(row.imageFile),
    icon: uploadUrl(row.iconFile),
    imageId: row.imageId,
    iconId: row.iconId,
    branches: branchList,
    isSuggestionBox: row.isSuggestionBox,
    isFavorite: row.isFavorite,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function withBranches(db: Db, rows: Row[]): Business[] {
  const byBusiness = branchesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toBusiness(r, byBusiness.get(r.id) ?? []));
}

/** The suggestion box first, then by title in Swedish alphabetical order (å, ä, ö last). */
export function byTitle(a: { title: string; isSuggestionBox: boolean }, b: { title: string; isSuggestionBox: boolean }) {
  if (a.isSuggestionBox !== b.isSuggestionBox) return a.isSuggestionBox ? -1 : 1;
  return swedishOrder.compare(a.title, b.title);
}

/**
 * Every business (or those whose title contains `search`), with branches: the suggestion box
 * first, then by title, or newest first for the management table. Open to everyone.
 */
export function listBusinesses(deps: Deps, actor: Actor, input: { search?: string; order?: ListOrder } = {}): Business[] {
  const rows = selectRows(deps.db, actor)
    .where(titleContains(input.search))
    .orderBy(desc(businesses.isSuggestionBox), desc(businesses.createdAt), businesses.id)
    .all();
  if ((input.order ?? 'title') === 'title') sortByTitle(deps.db, rows);
  return withBranches(deps.db, rows);
}

const directoryStatements = preparedStatements((db: Db) => ({
  all: db
      .select({
        id: businesses.id,
        title: businesses.title,
        category: categories.nameSv,
        categoryEn: categories.nameEn,
        excerpt: sql<string>`substr(${businesses.description}, 1, ${DIRECTORY_EXCERPT_CHARS})`,
        excerptCut: sql<boolean>`length(${businesses.description}) > ${DIRECTORY_EXCERPT_CHARS}`.mapWith(Boolean),
        excerptEn: sql<string | null>`substr(${businesses.descriptionEn}, 1, ${DIRECTORY_EXCERPT_CHARS})`,
        excerptEnCut: sql<boolean>`coalesce(length(${businesses.descriptionEn}), 0) > ${DIRECTORY_EXCERPT_CHARS}`.mapWith(Boolean),
        ratingCount: businesses.ratingCount,
        ratingSum: businesses.ratingSum,
        imageFile: picture.fileName,
        iconFile: iconImage.fileName,
        isSuggestionBox: businesses.isSuggestionBox,
        titleSearch: businesses.titleSearch,
      })
      .from(businesses)
      .leftJoin(categories, eq(categories.id, businesses.categoryId))
      .leftJoin(picture, eq(picture.id, businesses.imageId))
      .leftJoin(iconImage, eq(iconImage.id, businesses.iconId)),
  favoritesOf: db.select({ businessId: favorites.businessId }).from(favorites).where(eq(favorites.userId, sql.placeholder('me'))),
  titles: db.select({ title: businesses.title }).from(businesses),
}));

/**
 * Each title's place in Swedish order, so a list sorts by number instead of asking the collator
 * thousands of times per request. Rebuilt from every title whenever a list holds a title it has
 * not seen (a new or renamed business); stale entries of renamed ones are never asked for.
 */
let titleRanks = new Map<string, number>();

function sortByTitle<T extends { title: string; isSuggestionBox: boolean }>(db: Db, rows: T[]): T[] {
  if (rows.some((r) => !titleRanks.has(r.title))) {
    const titles = [...new Set(directoryStatements(db).titles.all().map((r) => r.title)), ...rows.map((r) => r.title)];
    titles.sort(swedishOrder.compare);
    const ranks = new Map<string, number>();
    titles.forEach((title, i) => {
      if (!ranks.has(title)) ranks.set(title, i > 0 && swedishOrder.compare(titles[i - 1], title) === 0 ? ranks.get(titles[i - 1])! : i);
    });
    titleRanks = ranks;
  }
  return rows.sort((a, b) =>
    a.isSuggestionBox !== b.isSuggestionBox ? (a.isSuggestionBox ? -1 : 1) : titleRanks.get(a.title)! - titleRanks.get(b.title)!,
  );
}

type DirectorySnapshot = { stamp: string; cards: readonly DirectoryCard[]; titleSearch: string[] };
const directorySnapshots = new WeakMap<Db, DirectorySnapshot>();

/**
 * Every directory card in Swedish title order, as a visitor sees it (no favourites), kept in
 * memory while the data is unchanged (`dataStamp`): a title search then filters a thousand
 * strings instead of running a query, and a signed-in user's list only adds their favourites
 * (one indexed lookup).
 */
function directorySnapshot(db: Db): DirectorySnapshot {
  const stamp = dataStamp(db);
  const kept = directorySnapshots.get(db);
  if (kept?.stamp === stamp) return kept;
  const rows = sortByTitle(db, directoryStatements(db).all.all());
  const snapshot: DirectorySnapshot = {
    stamp,
    titleSearch: rows.map((r) => r.titleSearch),
    // Frozen with their JSON kept: a search answer joins the texts instead of stringifying cards.
    cards: rows.map((r) =>
      keepJson<DirectoryCard>({
        id: r.id,
        title: r.title,
        category: r.category ?? '',
        categoryEn: r.categoryEn ?? '',
        excerpt: r.excerpt,
        excerptCut: r.excerptCut,
        excerptEn: r.excerptEn,
        excerptEnCut: r.excerptEnCut,
        rate: shownRate(r),
        ratingCount: r.ratingCount,
        image: uploadUrl(r.imageFile),
        icon: uploadUrl(r.iconFile),
        isFavorite: false,
        isSuggestionBox: r.isSuggestionBox,
      }),
    ),
  };
  directorySnapshots.set(db, snapshot);
  return snapshot;
}

/** The directory's cards (those whose title contains `search`), only the start of each description. */
export function listDirectory(deps: Deps, actor: Actor, input: { search?: string } = {}): DirectoryCard[] {
  const needle = input.search?.trim() ? titleSearchOf(input.search.trim()) : '';
  const { cards, titleSearch } = directorySnapshot(deps.db);
  const favorites = actor ? new Set(directoryStatements(deps.db).favoritesOf.all({ me: actor.id }).map((f) => f.businessId)) : null;
  // The shared cards are handed out as they are; only a favourite gets its own copy.
  const shown: DirectoryCard[] = [];
  cards.forEach((card, i) => {
    if (needle && !titleSearch[i].includes(needle)) return;
    shown.push(favorites?.has(card.id) ? { ...card, isFavorite: true } : card);
  });
  return shown;
}

/** The businesses `userId` has favourited, most recently added first (access is checked by the caller). */
export function favoriteBusinessesOf(db: Db, actor: Actor, userId: string): Business[] {
  const rows = selectRows(db, actor)
    .innerJoin(favorites, and(eq(favorites.businessId, businesses.id), eq(favorites.userId, userId)))
    .orderBy(desc(favorites.createdAt), businesses.id)
    .all();
  return withBranches(db, rows);
}

export function getBusiness(deps: Deps, actor: Actor, id: string): BusinessDetail {
  const row = selectRows(deps.db, actor).where(eq(businesses.id, id)).get();
  if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
  const myRate = actor
    ? (deps.db
        .select({ rate: businessRatings.rate })
        .from(businessRatings)
        .where(and(eq(businessRatings.businessId, id), eq(businessRatings.userId, actor.id)))
        .get()?.rate ?? null)
    : null;
  return { ...toBusiness(row, branchesOf(deps.db, [id]).get(id) ?? []), myRate };
}

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
        position,
      })),
    )
    .run();
}

/** Adds a business with its branches (admin). Images: uploaded files, else ids from /api/images. */
export async function createBusiness(
  deps: Deps,
  actor: Actor,
  input: BusinessCreateInput,
  uploads: BusinessUploads = {},
): Promise<BusinessDetail> {
  const admin = requireAdmin(actor);
  await consumeLimit('edit', admin.id);
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
      // The form's rate is the adding admin's own rating, counted like anyone's (PRODUCT.md 4).
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
export async function updateBusiness(
  deps: Deps,
  actor: Actor,
  id: string,
  input: BusinessUpdateInput,
  uploads: BusinessUploads = {},
): Promise<BusinessDetail> {
  const admin = requireAdmin(actor);
  await consumeLimit('edit', admin.id);
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
          ...(input.title ? { title: input.title, titleSearch: titleSearchOf(input.title) } : {}),
          ...(input.category ? { categoryId: resolveCategory(tx, input.category, input.categoryEn || undefined, now) } : {}),
          ...(input.descriptionEn !== undefined ? { descriptionEn: input.descriptionEn || null } : {}),
          description: input.description,
          imageId,
          iconId,
          updatedAt: now,
        })
        .where(eq(businesses.id, id))
        .run();
      tx.delete(branches).where(eq(branches.businessId, id)).run();
      insertBranches(tx, id, input.branches);
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
  await consumeLimit('delete', admin.id);
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
