import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { branches, businessRatings, businesses, categories, favorites, images, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { svFold } from '../../lib/sv-fold';
import { branchCommentCountsOf, branchRatingsOf, otherPlacesOf, type BranchRating, type OtherPlace } from './branch-ratings';
import { uploadUrl } from '../../lib/urls';
import type { Actor } from '../actor';
import { shownRate, starCountsOf, type StarCounts } from './business-ratings';
import { heldRatingCount } from '../moderation/rating-bursts';
import { shownLastName } from '../accounts/names';
import { parseOpeningHours, type BranchFacts } from './business-facts';

// A business as its page and the REST API show it. The lists are services/business/directory.ts, the
// admin's changes services/business/business-admin.ts.

/** A branch: its name as comments give it (`location`), its street address and its facts. */
export type Branch = { id: string; location: string; address: string | null } & BranchFacts;

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
  /** Its website and phone number (issue 31.1), null when not given. */
  website: string | null;
  phone: string | null;
  /** The average of the star ratings; null while nobody has rated (docs/product.md §4). */
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

/** A branch on the business page: with its own rating (services/business/branch-ratings.ts). */
export type DetailBranch = Branch & BranchRating & { commentCount: number };

export type BusinessDetail = Omit<Business, 'branches'> & {
  branches: DetailBranch[];
  /** The other places its public comments name (issue 29.4): the branch filter lists them too. */
  places: OtherPlace[];
  /** The acting user's own star rating, if any. */
  myRate: number | null;
  /** The breakdown: how many ratings gave 1 … 5 stars (index 0 is one star). */
  starCounts: StarCounts;
  /** Ratings an open rating burst holds out of the figures: "n ratings awaiting review". */
  heldRatings: number;
  /** How many written reviews (comments) it has: "7 betyg · 1 recension" (issue 29.1). */
  commentCount: number;
  /** The member whose suggestion it came from (issue 31.5), named as they chose; null otherwise. */
  suggestedBy: { id: string; firstName: string; lastName: string } | null;
};

/**
 * The search key of a title: lower case by Swedish rules ('ÅHLÉNS' → 'åhléns'), in composed
 * form so a title typed with combining accents matches one typed without. businesses.title_search
 * holds exactly this; anything that writes a title (the seed included) must use it.
 */
export function titleSearchOf(title: string): string {
  return svFold(title);
}

export { shownRate };

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

const rowColumns = (actor: Actor) => ({
  id: businesses.id,
  title: businesses.title,
  categoryId: categories.id,
  category: categories.nameSv,
  categoryEn: categories.nameEn,
  description: businesses.description,
  descriptionEn: businesses.descriptionEn,
  website: businesses.website,
  phone: businesses.phone,
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

export type Row = {
  id: string;
  title: string;
  categoryId: string | null;
  category: string | null;
  categoryEn: string | null;
  description: string;
  descriptionEn: string | null;
  website: string | null;
  phone: string | null;
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

export function selectRows(db: Db, actor: Actor) {
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
    .select({
      id: branches.id,
      businessId: branches.businessId,
      location: branches.location,
      address: branches.address,
      town: branches.town,
      area: branches.area,
      postalCode: branches.postalCode,
      lat: branches.lat,
      lng: branches.lng,
      phone: branches.phone,
      openingHours: branches.openingHours,
    })
    .from(branches)
    .where(inArray(branches.businessId, ids))
    .orderBy(branches.businessId, branches.position)
    .all();
  for (const { businessId, openingHours, ...r } of rows) {
    const list = byBusiness.get(businessId) ?? [];
    list.push({ ...r, openingHours: parseOpeningHours(openingHours) });
    byBusiness.set(businessId, list);
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
    website: row.website,
    phone: row.phone,
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

export function withBranches(db: Db, rows: Row[]): Business[] {
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
  const ratings = branchRatingsOf(deps.db, id);
  const counts = branchCommentCountsOf(deps.db, id);
  const branchList = (branchesOf(deps.db, [id]).get(id) ?? []).map((b) => ({
    ...b,
    ...(ratings.get(b.id) ?? { rate: null, ratingCount: 0 }),
    commentCount: counts.get(b.id) ?? 0,
  }));
  const counted = deps.db
    .select({ n: businesses.commentCount, suggesterId: users.id, firstName: users.firstName, lastName: shownLastName(users) })
    .from(businesses)
    .leftJoin(users, eq(users.id, businesses.suggestedBy))
    .where(eq(businesses.id, id))
    .get();
  const suggestedBy = counted?.suggesterId ? { id: counted.suggesterId, firstName: counted.firstName ?? '', lastName: counted.lastName } : null;
  return {
    ...toBusiness(row, []),
    branches: branchList,
    places: otherPlacesOf(deps.db, id),
    myRate,
    starCounts: starCountsOf(deps.db, id),
    heldRatings: heldRatingCount(deps.db, id),
    commentCount: counted?.n ?? 0,
    suggestedBy,
  };
}
