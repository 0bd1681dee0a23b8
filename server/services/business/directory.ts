import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { branches, businesses, categories, favorites, images } from '../../../db/schema';
import type { Deps } from '../deps';
import { scopedStamp, starFiguresMovedSince } from '../../lib/data-stamp';
import { keepJson } from '../../lib/kept-json';
import { preparedStatements } from '../../lib/prepared';
import { svFold } from '../../lib/sv-fold';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { uploadUrl } from '../../lib/urls';
import { DIRECTORY_EXCERPT_CHARS, DIRECTORY_PAGE, DIRECTORY_PAGE_MAX, type DirectoryPageQuery, type DirectoryQuery } from '../../../shared/schemas/business';
import { DEFAULT_DIRECTORY_SORT, type DirectorySort } from '../../../shared/schemas/directory-constants';
import type { Actor } from '../actor';
import { selectRows, shownRate, withBranches, type Business, type Row } from './business';
import { businessMatches, searchWords, SEARCH_RANKS } from './business-search';

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

/** What the directory can be filtered by: the categories and branch locations businesses have. */
export type DirectoryFilters = {
  categories: Array<{ id: string; nameSv: string; nameEn: string; count: number }>;
  cities: Array<{ name: string; count: number }>;
};

/**
 * Each sort's ORDER BY, the suggestion box first; each matches an index of migration 0013
 * (businesses_dir_*_idx), so SQLite walks the index instead of sorting (directory-plans.test.ts).
 * A–Ö compares the stored title_sort key (SQLite's own collation puts Å, Ä, Ö among A and O);
 * equal keys keep the newest first. By rating is the Bayesian score (db/schema/businesses.ts).
 */
export function directoryOrderBy(sort: DirectorySort): SQL[] {
  const first = desc(businesses.isSuggestionBox);
  switch (sort) {
    case 'name':
      return [first, asc(businesses.titleSort), desc(businesses.createdAt), asc(businesses.id)];
    case 'rating':
      return [first, desc(businesses.bayesScore), asc(businesses.id)];
    case 'reviews':
      return [first, desc(businesses.ratingCount), asc(businesses.id)];
    case 'newest':
      return [first, desc(businesses.createdAt), asc(businesses.id)];
  }
}

/** The category id a filter names (Swedish or English name, any case), '' for none of the list. */
function categoryIdNamed(db: Db, name: string): string {
  const wanted = svFold(name.trim());
  const list = directoryStatements(db).categories.all();
  return (list.find((c) => svFold(c.nameSv) === wanted) ?? list.find((c) => svFold(c.nameEn) === wanted))?.id ?? '';
}

/**
 * The WHERE of a directory query without a search (a search is ranked: searchedRows); the branch
 * test probes branches_town_idx once per business.
 */
function directoryWhere(db: Db, input: DirectoryQuery): SQL | undefined {
  return and(
    input.category ? eq(businesses.categoryId, categoryIdNamed(db, input.category)) : undefined,
    input.city
      ? sql`exists(select 1 from ${branches} where ${branches.town} = ${townNamed(db, input.city)} and ${branches.businessId} = ${businesses.id})`
      : undefined,
  );
}

/**
 * Businesses with branches (REST `GET /api/business`, the management table): found by the search
 * (ranked: services/business/business-search.ts), filtered by category and city, in the asked order (A–Ö
 * by default). Open to everyone.
 */
export function listBusinesses(deps: Deps, actor: Actor, input: DirectoryQuery = {}): Business[] {
  if (searchWords(input.search).length > 0) return withBranches(deps.db, searchedRows(deps.db, actor, input, 0, Infinity).rows);
  return withBranches(deps.db, businessListQuery(deps.db, actor, input).all());
}

const ROWS_PER_STATEMENT = 500;

/**
 * The ids of a search's matches from `from`, at most `count`, and how many match in all: the
 * places come from the kept directory (ranked and filtered there, as the directory page gets
 * them), so no business is read.
 */
function searchedIds(db: Db, input: DirectoryQuery, from: number, count: number): { ids: string[]; total: number } {
  const snapshot = directorySnapshot(db);
  const places = matchingPlaces(db, snapshot, input);
  return { ids: places.slice(from, from + count).map((i) => snapshot.cards[i].id), total: places.length };
}

/** The rows of these businesses, in this order; a business deleted since the snapshot was kept is left out. */
function rowsOf(db: Db, actor: Actor, ids: string[]): Row[] {
  const byId = new Map<string, Row>();
  for (let i = 0; i < ids.length; i += ROWS_PER_STATEMENT)
    for (const row of selectRows(db, actor)
      .where(inArray(businesses.id, ids.slice(i, i + ROWS_PER_STATEMENT)))
      .all())
      byId.set(row.id, row);
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The rows of a search's matches from `from`, at most `count`. */
function searchedRows(db: Db, actor: Actor, input: DirectoryQuery, from: number, count: number): { rows: Row[]; total: number } {
  const { ids, total } = searchedIds(db, input, from, count);
  return { rows: rowsOf(db, actor, ids), total };
}

/**
 * A search of businessPage (REST `GET /api/business?search=`) as ids only, in their order, with
 * the next page's cursor (null on the last page); null without a search. A visitor's reply is
 * then made of documents kept per business (rest/business.ts), so a search reads no business it
 * has written before (docs/decisions/008).
 */
export function searchedBusinessIds(deps: Deps, input: DirectoryPageQuery): { ids: string[]; nextCursor: string | null } | null {
  if (searchWords(input.search).length === 0) return null;
  const from = input.cursor ? Number(input.cursor) : 0;
  const limit = input.limit ?? DIRECTORY_PAGE;
  const { ids, total } = searchedIds(deps.db, input, from, limit);
  return { ids, nextCursor: from + limit < total ? String(from + limit) : null };
}

/** These businesses with their branches as a visitor sees them, in this order (a deleted one left out). */
export function businessesByIds(deps: Deps, ids: string[]): Business[] {
  return withBranches(deps.db, rowsOf(deps.db, null, ids));
}

/**
 * A page of listBusinesses (REST `GET /api/business?limit=`): `limit` businesses from the place
 * `cursor` names, read along the sort's index with LIMIT/OFFSET (directory-plans.test.ts), and
 * the next page's cursor when there are more.
 */
export function businessPage(deps: Deps, actor: Actor, input: DirectoryPageQuery): { items: Business[]; nextCursor: string | null } {
  const from = input.cursor ? Number(input.cursor) : 0;
  const limit = input.limit ?? DIRECTORY_PAGE;
  if (searchWords(input.search).length > 0) {
    const found = searchedRows(deps.db, actor, input, from, limit);
    return { items: withBranches(deps.db, found.rows), nextCursor: from + limit < found.total ? String(from + limit) : null };
  }
  const rows = businessPageQuery(deps.db, actor, input).all();
  return { items: withBranches(deps.db, rows.slice(0, limit)), nextCursor: rows.length > limit ? String(from + limit) : null };
}

/** The query behind businessPage: one row past the page, to tell whether another follows. */
export function businessPageQuery(db: Db, actor: Actor, input: DirectoryPageQuery) {
  return businessListQuery(db, actor, input)
    .limit((input.limit ?? DIRECTORY_PAGE) + 1)
    .offset(input.cursor ? Number(input.cursor) : 0);
}

/** The query behind listBusinesses, built per call (its filters vary); exported for its query plans. */
export function businessListQuery(db: Db, actor: Actor, input: DirectoryQuery) {
  return selectRows(db, actor)
    .where(directoryWhere(db, input))
    .orderBy(...directoryOrderBy(input.sort ?? DEFAULT_DIRECTORY_SORT));
}

const picture = alias(images, 'picture');
const iconImage = alias(images, 'icon_image');

const orderOf = (db: Db, sort: DirectorySort) =>
  db
    .select({ id: businesses.id })
    .from(businesses)
    .orderBy(...directoryOrderBy(sort));

/** The directory's statements, unprepared (directory-plans.test.ts reads their query plans). */
export const directoryQueries = (db: Db) => ({
  all: db
    .select({
      id: businesses.id,
      title: businesses.title,
      categoryId: businesses.categoryId,
      category: categories.nameSv,
      categoryEn: categories.nameEn,
      excerpt: sql<string>`substr(${businesses.description}, 1, ${DIRECTORY_EXCERPT_CHARS})`,
      excerptCut: sql<boolean>`length(${businesses.description}) > ${DIRECTORY_EXCERPT_CHARS}`.mapWith(Boolean),
      excerptEn: sql<string | null>`substr(${businesses.descriptionEn}, 1, ${DIRECTORY_EXCERPT_CHARS})`,
      excerptEnCut: sql<boolean>`coalesce(length(${businesses.descriptionEn}), 0) > ${DIRECTORY_EXCERPT_CHARS}`.mapWith(Boolean),
      ratingCount: businesses.ratingCount,
      ratingSum: businesses.ratingSum,
      bayesScore: businesses.bayesScore,
      imageFile: picture.fileName,
      iconFile: iconImage.fileName,
      isSuggestionBox: businesses.isSuggestionBox,
    })
    .from(businesses)
    .leftJoin(categories, eq(categories.id, businesses.categoryId))
    .leftJoin(picture, eq(picture.id, businesses.imageId))
    .leftJoin(iconImage, eq(iconImage.id, businesses.iconId))
    .orderBy(...directoryOrderBy('name')),
  rating: orderOf(db, 'rating'),
  reviews: orderOf(db, 'reviews'),
  newest: orderOf(db, 'newest'),
  favoritesOf: db
    .select({ businessId: favorites.businessId })
    .from(favorites)
    .where(eq(favorites.userId, sql.placeholder('me'))),
  townsOf: db
    .selectDistinct({ businessId: branches.businessId, town: branches.town })
    .from(branches)
    .where(sql`${branches.town} <> ''`),
  towns: db.selectDistinct({ town: branches.town }).from(branches),
  positions: db
    .select({ businessId: branches.businessId, lat: branches.lat, lng: branches.lng })
    .from(branches)
    .where(sql`${branches.lat} is not null and ${branches.lng} is not null`),
  categories: db.select({ id: categories.id, nameSv: categories.nameSv, nameEn: categories.nameEn }).from(categories),
  // One business's star figures, when only they moved (patchedSnapshot).
  starsOf: db
    .select({ ratingCount: businesses.ratingCount, ratingSum: businesses.ratingSum, bayesScore: businesses.bayesScore })
    .from(businesses)
    .where(eq(businesses.id, sql.placeholder('id'))),
});

const directoryStatements = preparedStatements(directoryQueries);

type DirectorySnapshot = {
  stamp: string;
  /** In A–Ö order. */
  cards: readonly DirectoryCard[];
  categoryIds: Array<string | null>;
  /** Each card's Bayesian score (the by-rating order), null while it has no rating. */
  bayes: Array<number | null>;
  /** Each card's branch positions ([lat, lng]), for the directory's map and "Närmast mig", read when first asked for. */
  positions?: Array<Array<[number, number]>>;
  /** Each card's branch towns (the city filter), folded. */
  towns: Array<Set<string>>;
  /** Each other sort's order as places in `cards`, read when first asked for. */
  orders: Partial<Record<DirectorySort, number[]>>;
  /** The towns by folded name, as first written ("Malmö"), and the categories' names. */
  townNames: Map<string, string>;
  /** Each card's place in `cards` by business id, made when first asked for. */
  placeById?: Map<string, number>;
};
const directorySnapshots = new WeakMap<Db, DirectorySnapshot>();

/** How many directory snapshots were built from scratch, by database (directory.test.ts). */
const snapshotBuilds = new WeakMap<Db, number>();
export const directorySnapshotBuilds = (db: Db): number => snapshotBuilds.get(db) ?? 0;

/**
 * Every directory card in A–Ö order, as a visitor sees it (no favourites), kept in memory while
 * what the cards show is unchanged (`scopedStamp(db, 'businesses')`: no business, branch,
 * category or image written since, docs/decisions/008 and 001; a reaction, a reply or a renamed
 * user keeps it). A star rating moves only its business's figures: the kept cards then take that
 * business's again (`patchedSnapshot`) instead of being built anew, which took 86–289 ms of CPU at
 * 10,000 businesses. So a title search, a category and the other orders filter and arrange kept
 * cards instead of running a query, and a signed-in user's list only adds their favourites (one
 * indexed lookup).
 */
function directorySnapshot(db: Db): DirectorySnapshot {
  const stamp = scopedStamp(db, 'businesses');
  const kept = directorySnapshots.get(db);
  if (kept?.stamp === stamp) return kept;
  const moved = kept ? starFiguresMovedSince(db, kept.stamp) : null;
  const snapshot = kept && moved ? patchedSnapshot(db, kept, stamp, moved) : builtSnapshot(db, stamp);
  directorySnapshots.set(db, snapshot);
  return snapshot;
}

function builtSnapshot(db: Db, stamp: string): DirectorySnapshot {
  snapshotBuilds.set(db, directorySnapshotBuilds(db) + 1);
  const q = directoryStatements(db);
  const rows = q.all.all();
  const townsById = new Map<string, Set<string>>();
  const townNames = new Map<string, string>();
  for (const { businessId, town } of q.townsOf.all()) {
    const key = svFold(town);
    if (!townNames.has(key)) townNames.set(key, town);
    const set = townsById.get(businessId) ?? new Set<string>();
    set.add(key);
    townsById.set(businessId, set);
  }
  return {
    stamp,
    categoryIds: rows.map((r) => r.categoryId),
    bayes: rows.map((r) => r.bayesScore),
    towns: rows.map((r) => townsById.get(r.id) ?? new Set()),
    townNames,
    orders: { name: rows.map((_, i) => i) },
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
}

/**
 * `kept` brought up to `stamp` when only the star figures of the `moved` businesses changed since
 * (`starFiguresMovedSince`): their cards are read again, and each is moved to its new place in the
 * by-rating and most-reviewed orders kept so far; A–Ö and newest do not depend on ratings. A new
 * snapshot object: one handed out before stays as it was. Its result equals a snapshot built
 * from scratch (directory.test.ts compares them under every order).
 */
function patchedSnapshot(db: Db, kept: DirectorySnapshot, stamp: string, moved: Set<string>): DirectorySnapshot {
  kept.placeById ??= new Map(kept.cards.map((card, i) => [card.id, i]));
  const cards = kept.cards.slice();
  const bayes = kept.bayes.slice();
  const places: number[] = [];
  for (const id of moved) {
    const i = kept.placeById.get(id);
    const row = directoryStatements(db).starsOf.get({ id });
    // A business gone since could not have been named by a star rating alone; build anew to be sure.
    if (i === undefined || !row) return builtSnapshot(db, stamp);
    cards[i] = keepJson<DirectoryCard>({ ...cards[i], rate: shownRate(row), ratingCount: row.ratingCount });
    bayes[i] = row.bayesScore;
    places.push(i);
  }
  // Each order as directoryOrderBy sorts: the suggestion box first, then its key (largest first,
  // null last, as SQLite's DESC puts NULL), then the id (ids are ASCII: binary order is `<`).
  const byKey =
    (key: (i: number) => number | null) =>
    (a: number, b: number): number => {
      const box = Number(cards[b].isSuggestionBox) - Number(cards[a].isSuggestionBox);
      if (box !== 0) return box;
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return ka === null ? 1 : kb === null ? -1 : kb - ka;
      return cards[a].id < cards[b].id ? -1 : cards[a].id > cards[b].id ? 1 : 0;
    };
  const compare: Partial<Record<DirectorySort, (a: number, b: number) => number>> = {
    rating: byKey((i) => bayes[i]),
    reviews: byKey((i) => cards[i].ratingCount),
  };
  const orders = { ...kept.orders };
  for (const sort of ['rating', 'reviews'] as const) {
    const order = orders[sort];
    if (order) orders[sort] = reinserted(order, places, compare[sort]!);
  }
  return { ...kept, stamp, cards, bayes, orders };
}

/** `order` (sorted by `compare`) with `places` taken out and put back where `compare` puts them now. */
function reinserted(order: readonly number[], places: number[], compare: (a: number, b: number) => number): number[] {
  const taken = new Set(places);
  const result = order.filter((i) => !taken.has(i));
  for (const i of places) {
    let lo = 0;
    let hi = result.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(result[mid], i) < 0) lo = mid + 1;
      else hi = mid;
    }
    result.splice(lo, 0, i);
  }
  return result;
}

function orderIn(db: Db, snapshot: DirectorySnapshot, sort: DirectorySort): number[] {
  const kept = snapshot.orders[sort];
  if (kept) return kept;
  const place = new Map(snapshot.cards.map((card, i) => [card.id, i]));
  const ids = directoryStatements(db)[sort as Exclude<DirectorySort, 'name'>].all();
  // A business added between the two reads is left for the next snapshot (the stamp has moved).
  const order = ids.flatMap((r) => place.get(r.id) ?? []);
  snapshot.orders[sort] = order;
  return order;
}

/** A search's matches (business id → rank: title, category, town, description); null without one. */
function searchMatches(db: Db, input: DirectoryQuery): Map<string, number> | null {
  return searchWords(input.search).length > 0 ? businessMatches(db, input.search) : null;
}

/** The test of each filter the query sets, by name, so the filters' counts can leave their own out. */
function filterTests(db: Db, snapshot: DirectorySnapshot, input: DirectoryQuery, matches = searchMatches(db, input)) {
  const categoryId = input.category ? categoryIdNamed(db, input.category) : null;
  const town = input.city ? svFold(input.city.trim()) : null;
  const { cards, categoryIds, towns } = snapshot;
  return {
    search: matches ? (i: number) => matches.has(cards[i].id) : null,
    category: categoryId !== null ? (i: number) => categoryIds[i] === categoryId : null,
    city: town !== null ? (i: number) => towns[i].has(town) : null,
  };
}

type FilterTests = ReturnType<typeof filterTests>;

/** The places the tests keep, leaving out the test named `except`. */
function keptBy(order: number[], tests: FilterTests, except?: keyof FilterTests): number[] {
  const active = (Object.keys(tests) as Array<keyof FilterTests>).filter((k) => k !== except).flatMap((k) => tests[k] ?? []);
  // No filter: the kept order itself, nothing is scanned.
  return active.length === 0 ? order : order.filter((i) => active.every((keep) => keep(i)));
}

/**
 * The places in the snapshot's cards that the query keeps, in its order (A–Ö by default); a
 * search's matches ranked first (title, then category, town, description), each rank in that order.
 */
function matchingPlaces(db: Db, snapshot: DirectorySnapshot, input: DirectoryQuery): number[] {
  const matches = searchMatches(db, input);
  const kept = keptBy(orderIn(db, snapshot, input.sort ?? DEFAULT_DIRECTORY_SORT), filterTests(db, snapshot, input, matches));
  if (!matches) return kept;
  const ranked: number[][] = SEARCH_RANKS.map(() => []);
  for (const i of kept) ranked[matches.get(snapshot.cards[i].id) ?? SEARCH_RANKS.length - 1].push(i);
  return ranked.flat();
}

/** The town a city filter names, as stored (any case); the text itself when no branch is there. */
function townNamed(db: Db, city: string): string {
  const wanted = svFold(city.trim());
  return (
    directoryStatements(db)
      .towns.all()
      .find((t) => svFold(t.town) === wanted)?.town ?? city.trim()
  );
}

/** The shared cards at these places; only a signed-in user's favourite gets its own copy. */
function cardsAt(db: Db, snapshot: DirectorySnapshot, actor: Actor, places: readonly number[]): DirectoryCard[] {
  const favorites = actor
    ? new Set(
        directoryStatements(db)
          .favoritesOf.all({ me: actor.id })
          .map((f) => f.businessId),
      )
    : null;
  return places.map((i) => {
    const card = snapshot.cards[i];
    return favorites?.has(card.id) ? { ...card, isFavorite: true } : card;
  });
}

/**
 * The first directory cards the query keeps (at most DIRECTORY_PAGE_MAX, as REST `GET /api/business`
 * without `limit`), found by the search (ranked), filtered by category and city, in the asked order
 * (A–Ö by default). The directory page asks `directoryPage` for the rest. Until 2026-11-26 this was
 * every card: 4.9 MB at 10,000 businesses, and fifty visitors asking for it at once took the
 * server from 169 to 390 MB.
 */
export function listDirectory(deps: Deps, actor: Actor, input: DirectoryQuery = {}): DirectoryCard[] {
  const snapshot = directorySnapshot(deps.db);
  return cardsAt(deps.db, snapshot, actor, matchingPlaces(deps.db, snapshot, input).slice(0, DIRECTORY_PAGE_MAX));
}

/**
 * The cards of these businesses in this order, as the directory shows them ("Närmast mig": the
 * browser sorts the map's positions by distance and asks for the nearest a page at a time, so the
 * visitor's position never reaches the server and no reply holds every card). An id that names
 * no business is left out.
 */
export function directoryCards(deps: Deps, actor: Actor, ids: readonly string[]): DirectoryCard[] {
  const snapshot = directorySnapshot(deps.db);
  snapshot.placeById ??= new Map(snapshot.cards.map((card, i) => [card.id, i]));
  const placeById = snapshot.placeById;
  return cardsAt(
    deps.db,
    snapshot,
    actor,
    ids.flatMap((id) => placeById.get(id) ?? []),
  );
}

/** A business on the directory's map: its branches' positions. */
export type DirectoryPlace = { id: string; title: string; positions: Array<[number, number]> };

/**
 * The positions of every business the query keeps (the directory's map, and "Närmast mig", which
 * sorts by distance in the browser: the visitor's position never reaches the server). Businesses
 * without a positioned branch are left out.
 */
export function directoryPlaces(deps: Deps, input: DirectoryQuery = {}): DirectoryPlace[] {
  const snapshot = directorySnapshot(deps.db);
  if (!snapshot.positions) {
    const place = new Map(snapshot.cards.map((card, i) => [card.id, i]));
    const positions = snapshot.cards.map((): Array<[number, number]> => []);
    for (const r of directoryStatements(deps.db).positions.all()) {
      const i = place.get(r.businessId);
      if (i !== undefined && r.lat !== null && r.lng !== null) positions[i].push([r.lat, r.lng]);
    }
    snapshot.positions = positions;
  }
  const positions = snapshot.positions;
  return matchingPlaces(deps.db, snapshot, input).flatMap((i) =>
    positions[i].length ? [{ id: snapshot.cards[i].id, title: snapshot.cards[i].title, positions: positions[i] }] : [],
  );
}

/** One page of the directory: its cards (items), how many the query keeps in all, and the next page's cursor. */
export type DirectoryPage = { items: DirectoryCard[]; total: number; nextCursor: string | null };

/**
 * A page of `directoryPage`'s list: `limit` cards (DIRECTORY_PAGE by default) from `cursor` (the
 * previous page's nextCursor: the place in the list where the next page starts). The reply's size
 * is bounded by the limit whatever the number of businesses; without a filter the page is a slice
 * of the kept order, so its time does not grow with them either (docs/decisions/008).
 */
export function directoryPage(deps: Deps, actor: Actor, input: DirectoryPageQuery = {}): DirectoryPage {
  const snapshot = directorySnapshot(deps.db);
  const places = matchingPlaces(deps.db, snapshot, input);
  const from = input.cursor ? Number(input.cursor) : 0;
  const to = from + (input.limit ?? DIRECTORY_PAGE);
  return {
    items: cardsAt(deps.db, snapshot, actor, places.slice(from, to)),
    total: places.length,
    nextCursor: to < places.length ? String(to) : null,
  };
}

const swedishOrder = new Intl.Collator('sv', { sensitivity: 'base', numeric: true });

/**
 * What the directory can be filtered by (its chips and city list): the categories and the
 * normalised towns of the businesses the other filters keep, each with how many businesses it
 * holds, in Swedish order (categories by their Swedish name). A category's count follows the
 * search and the town, a town's the search and the category (issue 31.3); a chosen value stays
 * listed, with 0 when nothing matches. The suggestion box counts in neither.
 */
export function directoryFilters(deps: Deps, input: DirectoryQuery = {}): DirectoryFilters {
  const snapshot = directorySnapshot(deps.db);
  const tests = filterTests(deps.db, snapshot, input);
  const order = snapshot.orders.name as number[];
  const listed = (i: number) => !snapshot.cards[i].isSuggestionBox;
  const categoryCounts = new Map<string, number>();
  for (const i of keptBy(order, tests, 'category')) {
    const id = snapshot.categoryIds[i];
    if (id && listed(i)) categoryCounts.set(id, (categoryCounts.get(id) ?? 0) + 1);
  }
  const townCounts = new Map<string, number>();
  for (const i of keptBy(order, tests, 'city')) if (listed(i)) for (const town of snapshot.towns[i]) townCounts.set(town, (townCounts.get(town) ?? 0) + 1);
  const chosenTown = input.city ? svFold(input.city.trim()) : null;
  if (chosenTown && snapshot.townNames.has(chosenTown) && !townCounts.has(chosenTown)) townCounts.set(chosenTown, 0);
  const chosenCategory = input.category ? categoryIdNamed(deps.db, input.category) : '';
  if (chosenCategory && !categoryCounts.has(chosenCategory)) categoryCounts.set(chosenCategory, 0);
  const names = new Map(
    directoryStatements(deps.db)
      .categories.all()
      .map((c) => [c.id, c]),
  );
  return {
    categories: [...categoryCounts]
      .flatMap(([id, count]) => {
        const c = names.get(id);
        return c ? [{ id, nameSv: c.nameSv, nameEn: c.nameEn, count }] : [];
      })
      .sort((a, b) => swedishOrder.compare(a.nameSv, b.nameSv)),
    cities: [...townCounts].map(([key, count]) => ({ name: snapshot.townNames.get(key) ?? key, count })).sort((a, b) => swedishOrder.compare(a.name, b.name)),
  };
}

/**
 * Writes the A–Ö key of businesses that lack one: those written before migration 0013 added the
 * column, or by a script that does not know it. Run at start; a no-op once all have one.
 */
export function fillTitleSortKeys(db: Db): number {
  const missing = db.select({ id: businesses.id, title: businesses.title }).from(businesses).where(eq(businesses.titleSort, '')).all();
  if (missing.length === 0) return 0;
  db.transaction((tx) => {
    for (const row of missing)
      tx.update(businesses)
        .set({ titleSort: swedishSortKey(row.title) })
        .where(eq(businesses.id, row.id))
        .run();
  });
  return missing.length;
}
