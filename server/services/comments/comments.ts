import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { businessRatings, businesses, comments, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { businessWrite } from '../../lib/data-stamp';
import { AppError } from '../../lib/errors';
import { svFold } from '../../lib/sv-fold';
import { inTransaction, keptLimit, keptParam, preparedStatements } from '../../lib/prepared';
import { newId } from '../../lib/ids';
import {
  BUSINESS_PAGE,
  FEED_FIRST_PAGE,
  FEED_MORE_PAGE,
  FEED_TOP,
  MODERATION_PAGE,
  type BusinessCommentsInput,
  type CommentCard,
  type CommentCreateInput,
  type CommentUpdateInput,
  type FeedInput,
  type ModerationInput,
  type Page,
  type PageInput,
  type ReplyCard,
} from '../../../shared/schemas/comments';
import { requireActive, requireActiveFor, requireModerator, type Actor } from '../actor';
import { rateAlongsidePost } from '../business/business-ratings';
import { decodeCursor, pageOf } from './comment-pages';
import { placeKeyOf, requireBranchOf, resolvePlace } from './comment-branches';
import { isPlainNewest, listSortedComments } from './comment-sorts';
import { ftsQueryOf, indexQueuedComments, isFtsQueryError, scheduleQueuedIndexing, searchedRowids } from './comment-search';
import { releaseImages } from './images';
import { resolvePostImage, writeWithImage, type WithUpload } from './post-images';
import { recordModAction } from '../moderation/mod-log';
import { editPost } from './post-edit';
import { checkNewPost } from '../moderation/spam';
import {
  businessCards,
  businessColumns,
  cardOf,
  cards,
  icon,
  p,
  rowid,
  toCommentCard,
  viewerOf,
  visible,
  type BusinessHead,
  type CardRow,
  type PostRow,
  type Viewer,
} from './comment-cards';

export { businessCards, cardOf, rowid, toCommentCard, viewerOf, visible, type BusinessHead, type PostRow, type Viewer } from './comment-cards';
import { replyPreviews } from './replies';

const newestFirst = [desc(comments.createdAt), desc(comments.id)] as const;
// comments_business_idx is (business_id, created_at) and SQLite appends the rowid to it.
const newestFirstInBusiness = [desc(comments.createdAt), desc(rowid)] as const;
const feedAfter = sql`(${comments.createdAt}, ${comments.id}) < (${p.t}, ${p.k})`;
const businessAfter = sql`(${comments.createdAt}, ${rowid}) < (${p.t}, ${p.k})`;
const inBusiness = eq(comments.businessId, p.businessId);
// The branch filter (?branch=): the branch is checked to be the business's first (requireBranchOf),
// so the lists walk comments_branch_idx (branch_id, created_at, rowid) alone.
const inBranch = eq(comments.branchId, p.branch);
// Another place typed by authors (?place=, issue 29.4), by its key: comments_place_idx
// (business_id, place_key, created_at, rowid).
const inPlace = and(inBusiness, eq(comments.placeKey, sql.placeholder('place')));

/**
 * The list queries the app runs, with placeholders. Exported so the query-plan test checks
 * exactly these statements against a large database.
 */
export function commentQueries(db: Db) {
  return {
    feedAll: cards(db)
      .where(visible)
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    feedAllAfter: cards(db)
      .where(and(feedAfter, visible))
      .orderBy(...newestFirst)
      .limit(keptLimit(p.limit)),
    mostReplied: cards(db)
      // A literal 0, the very term of the partial comments_most_replied_idx (a bound value would not prove it).
      .where(and(sql`${comments.replyCount} > 0`, visible))
      .orderBy(desc(comments.replyCount), desc(comments.createdAt))
      .limit(keptLimit(p.limit)),
    topRated: cards(db)
      // The Bayesian score (db/schema/comments.ts), ties by number of reactions, then newest.
      .where(and(isNotNull(comments.bayesScore), visible))
      .orderBy(desc(comments.bayesScore), desc(comments.ratingCount), desc(comments.createdAt))
      .limit(keptLimit(p.limit)),
    // A join, so planned in full: the id as a keptParam, or SQLite compiled it again on every run.
    businessHead: db
      .select(businessColumns)
      .from(businesses)
      .leftJoin(icon, eq(icon.id, businesses.iconId))
      .where(sql`${businesses.id} = ${keptParam(p.businessId)}`),
    business: businessCards(db)
      .where(and(inBusiness, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    businessAfter: businessCards(db)
      .where(and(inBusiness, businessAfter, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    // Search results are newest first by posting order (rowid), which FTS5 walks directly.
    businessSearch: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`${p.limit}`), visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    businessSearchAfter: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`${p.limit}`, sql`${p.k}`), visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    branch: businessCards(db)
      .where(and(inBranch, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    branchAfter: businessCards(db)
      .where(and(inBranch, businessAfter, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    // With the branch, the search cannot stop FTS5 at the page (the next matches may be other
    // branches'): it reads all matches in the business (LIMIT -1 is none) and keeps the branch's.
    branchSearch: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`-1`), inBranch, visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    branchSearchAfter: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`-1`, sql`${p.k}`), inBranch, visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    place: businessCards(db)
      .where(and(inPlace, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    placeAfter: businessCards(db)
      .where(and(inPlace, businessAfter, visible))
      .orderBy(...newestFirstInBusiness)
      .limit(keptLimit(p.limit)),
    // As with a branch: all matches in the business, the place's kept.
    placeSearch: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`-1`), inPlace, visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    placeSearchAfter: businessCards(db)
      .where(and(searchedRowids(sql`${p.query}`, sql`-1`, sql`${p.k}`), inPlace, visible))
      .orderBy(desc(rowid))
      .limit(keptLimit(p.limit)),
    // The id as a keptParam: the join is planned in full, and a bare `id = ?` made SQLite compile the
    // statement again on every run (a new comment's reply reads it).
    byId: cards(db).where(and(sql`${comments.id} = ${keptParam(p.id)}`, visible)),
  };
}

const prepared = preparedStatements(commentQueries);
type Prepared = ReturnType<typeof prepared>;

export function getCommentCard(db: Db, actor: Actor, id: string): CommentCard {
  const row = prepared(db).byId.get({ ...viewerOf(actor), id });
  if (!row) throw new AppError('NOT_FOUND', 'commentNotFound');
  return toCommentCard(row);
}

/** One comment as a card (the /comment/{id} page). */
export function getComment(deps: Deps, actor: Actor, id: string): CommentCard {
  return getCommentCard(deps.db, actor, id);
}

const feedKey = (r: CardRow): [number, string] => [r.createdAt, r.id];
const businessKey = (r: PostRow): [number, number] => [r.createdAt, r.rowid];

/**
 * The home feed. All Comments: newest first, 12 then 9 per Load More, by cursor. MOST REPLIED:
 * the 12 with most replies (newest first among equals); TOP RATED: the 12 with the highest
 * average emoji rate, ties by number of ratings, then date (docs/product.md §4). Comments nobody has
 * replied to or rated have no place in those two.
 */
export function listFeed(deps: Deps, actor: Actor, input: FeedInput): Page<CommentCard> {
  const q = prepared(deps.db);
  const viewer = viewerOf(actor);
  if (input.filter === 'mostReplied') return { items: q.mostReplied.all({ ...viewer, limit: FEED_TOP }).map(toCommentCard), nextCursor: null };
  if (input.filter === 'topRated') return { items: q.topRated.all({ ...viewer, limit: FEED_TOP }).map(toCommentCard), nextCursor: null };
  const cursor = decodeCursor(input.cursor, 'string');
  const limit = cursor ? FEED_MORE_PAGE : FEED_FIRST_PAGE;
  return latestComments(deps.db, viewer, cursor, limit);
}

function latestComments(db: Db, viewer: Viewer, cursor: { t: number; k: string } | null, limit: number): Page<CommentCard> {
  const q = prepared(db);
  const rows = cursor ? q.feedAllAfter.all({ ...viewer, limit: limit + 1, t: cursor.t, k: cursor.k }) : q.feedAll.all({ ...viewer, limit: limit + 1 });
  return pageOf(rows, limit, feedKey, toCommentCard);
}

/** Newest first with any page size (REST GET /comment: ?limit, ?cursor). */
export function listLatestComments(deps: Deps, actor: Actor, input: PageInput): Page<CommentCard> {
  return latestComments(deps.db, viewerOf(actor), decodeCursor(input.cursor, 'string'), input.limit ?? FEED_FIRST_PAGE);
}

const writes = preparedStatements((db: Db) => ({
  insert: db.insert(comments).values({
    id: p.id,
    businessId: p.businessId,
    userId: sql.placeholder('userId'),
    businessLocation: sql.placeholder('businessLocation'),
    branchId: sql.placeholder('branchId'),
    placeKey: sql.placeholder('placeKey'),
    text: sql.placeholder('text'),
    imageId: sql.placeholder('imageId'),
    // The author's stars so far, while they count (held or banned: none); a rating given with this
    // comment updates it in the same transaction.
    authorRate: sql`(select ${businessRatings.rate} from ${businessRatings} where ${businessRatings.businessId} = ${p.businessId} and ${businessRatings.userId} = ${sql.placeholder('userId')} and ${businessRatings.counted} = 1)`,
    createdAt: p.t,
    updatedAt: p.t,
  }),
  countOne: db
    .update(businesses)
    .set({ commentCount: sql`${businesses.commentCount} + 1` })
    .where(eq(businesses.id, p.businessId)),
}));

/** The business comments are posted to or listed for, with what its cards show of it; 404 when there is none. */
export function requireBusiness(db: Db, businessId: string): BusinessHead {
  const head = prepared(db).businessHead.get({ businessId });
  if (!head) throw new AppError('NOT_FOUND', 'businessNotFound');
  return head;
}

/**
 * One business's comments, newest first, by cursor; with `search`, only those whose branch
 * location, text or author name contain words starting with the typed ones.
 */
export function listBusinessComments(deps: Deps, actor: Actor, input: BusinessCommentsInput): Page<CommentCard> {
  const { db } = deps;
  const head = requireBusiness(db, input.businessId);
  if (input.branch) requireBranchOf(db, input.businessId, input.branch);
  // One branch or one other place: both at once name no comment.
  if (input.branch && input.place) throw new AppError('BAD_INPUT', 'invalidInput', { place: 'commentPlaceWithBranch' });
  // Another order or a filter: comment-sorts.ts walks that order's index (the search included).
  if (!isPlainNewest(input)) return listSortedComments(db, viewerOf(actor), head, input);
  const q = prepared(db);
  const limit = input.limit ?? BUSINESS_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const base = { ...viewerOf(actor), limit: limit + 1, businessId: input.businessId, ...(cursor ? { t: cursor.t, k: cursor.k } : {}) };
  const query = input.search ? ftsQueryOf(input.businessId, input.search) : null;
  if (input.search && !query) return { items: [], nextCursor: null };
  // Comments posted in the last moments wait in a queue (migration 0005): index them first.
  if (query) indexQueuedComments(db);
  let rows: PostRow[];
  try {
    if (input.branch) rows = branchRows(q, { ...base, branch: input.branch }, query, cursor !== null);
    else if (input.place) rows = placeRows(q, { ...base, place: placeKeyOf(input.place) }, query, cursor !== null);
    else if (query) rows = cursor ? q.businessSearchAfter.all({ ...base, query }) : q.businessSearch.all({ ...base, query });
    else rows = cursor ? q.businessAfter.all(base) : q.business.all(base);
  } catch (err) {
    // ftsQueryOf quotes every word, so this is a safety net: bad search text is a 400, never a 500.
    if (query && isFtsQueryError(err)) throw new AppError('BAD_INPUT', 'invalidInput', { search: 'invalidInput' });
    throw err;
  }
  return pageOf(rows, limit, businessKey, (r) => cardOf(r, head));
}

/** The branch filter's statements: by branch, with or without the search, first page or after a cursor. */
function branchRows(q: Prepared, params: Record<string, unknown>, query: string | null, after: boolean): PostRow[] {
  if (query) return after ? q.branchSearchAfter.all({ ...params, query }) : q.branchSearch.all({ ...params, query });
  return after ? q.branchAfter.all(params) : q.branch.all(params);
}

/** The same for another place (?place=). */
function placeRows(q: Prepared, params: Record<string, unknown>, query: string | null, after: boolean): PostRow[] {
  if (query) return after ? q.placeSearchAfter.all({ ...params, query }) : q.placeSearch.all({ ...params, query });
  return after ? q.placeAfter.all(params) : q.place.all(params);
}

export type ModerationRow = CommentCard & { replies: ReplyCard[] };

/** Replies a moderation row carries; a comment with more offers the rest through listReplies. */
export const MODERATION_REPLIES = 20;

/**
 * Comment moderation: every comment newest first, 50 a page, each with its newest replies. With
 * `q` (issue 29, item 13), only comments whose text, author name ("first last") or business
 * title contains it, folded by Swedish rules (sv_fold, db/client.ts; businesses.title_search
 * holds the folded title). The search filters the same newest-first walk of comments_created_at_idx
 * and stops at the page, with no sort (comment-moderation.test.ts checks the plan); like the
 * users page, no index serves a match inside a word, which stays cheap at a town's scale.
 */
export function listForModeration(deps: Deps, actor: Actor, input: ModerationInput): Page<ModerationRow> {
  const admin = requireModerator(actor);
  const cursor = decodeCursor(input.cursor, 'string');
  const needle = input.q ? svFold(input.q.trim()) : '';
  const page = needle
    ? searchedForModeration(deps.db, viewerOf(admin), needle, cursor, MODERATION_PAGE)
    : latestComments(deps.db, viewerOf(admin), cursor, MODERATION_PAGE);
  const previews = replyPreviews(
    deps.db,
    admin,
    page.items.map((c) => c._id),
    MODERATION_REPLIES,
  );
  return { items: page.items.map((c) => ({ ...c, replies: previews.get(c._id) ?? [] })), nextCursor: page.nextCursor };
}

/** The moderation search's statement (exported for its plan test); `needle` is already folded. */
export function moderationSearchQuery(db: Db, withCursor: boolean) {
  const needle = sql.placeholder('needle');
  const matches = sql`(instr(sv_fold(${comments.text}), ${needle}) > 0
    or instr(sv_fold(${users.firstName} || ' ' || ${users.lastName}), ${needle}) > 0
    or instr(${businesses.titleSearch}, ${needle}) > 0)`;
  return cards(db)
    .where(and(matches, withCursor ? feedAfter : undefined, visible))
    .orderBy(...newestFirst)
    .limit(keptLimit(p.limit));
}

const moderationSearch = preparedStatements((db: Db) => ({ first: moderationSearchQuery(db, false), after: moderationSearchQuery(db, true) }));

function searchedForModeration(db: Db, viewer: Viewer, needle: string, cursor: { t: number; k: string } | null, limit: number): Page<CommentCard> {
  const q = moderationSearch(db);
  const rows = (cursor ? q.after : q.first).all({ ...viewer, needle, limit: limit + 1, ...(cursor ? { t: cursor.t, k: cursor.k } : {}) });
  return pageOf(rows, limit, feedKey, toCommentCard);
}

/**
 * Posts a comment on a business; the business's comment count moves in the same transaction.
 * A new comment is the bench's costliest write (issue 32 item 3), so each check runs once: the
 * business is looked up before the spam rules (404 first) and, in the transaction, its count
 * moves first, which tells whether it still exists; the place is resolved in the transaction,
 * and before it too only when a picture is to be stored (a 400 before any picture is written).
 */
export async function createComment(deps: Deps, actor: Actor, input: WithUpload<CommentCreateInput>): Promise<CommentCard> {
  const author = requireActiveFor(actor, 'commentLoginRequired');
  await deps.limits.consume('post', author.id);
  if (input.rate !== undefined) await deps.limits.consume('rate', author.id);
  const { db } = deps;
  requireBusiness(db, input.businessId);
  checkNewPost(deps, author.id, input.text);
  // A place that is missing or not the business's is a 400 before any picture is stored.
  if (input.imageBytes && input.imageBytes.length > 0) resolvePlace(db, input.businessId, input);
  const image = await resolvePostImage(deps, author.id, 'comment', input);
  const id = newId();
  await writeWithImage(deps, image.stored, () =>
    // Shown by the business's own pages, the directory when stars come with it (its triggers) and
    // the site-wide lists (data-stamp.ts).
    businessWrite(db, (touches) =>
      inTransaction(db, () => {
        touches(input.businessId);
        const w = writes(db);
        // The business may have gone while the picture was stored: no row counted, a 404 (rolled back).
        if (w.countOne.run({ businessId: input.businessId }).changes === 0) throw new AppError('NOT_FOUND', 'businessNotFound');
        const place = resolvePlace(db, input.businessId, input);
        w.insert.run({
          id,
          businessId: input.businessId,
          userId: author.id,
          businessLocation: place.businessLocation,
          branchId: place.branchId,
          placeKey: place.placeKey,
          text: input.text,
          imageId: image.imageId ?? null,
          t: Date.now(),
        });
        // Stars given with the comment: the rating widget's rules, in this transaction; they also
        // set author_rate on this new comment.
        if (input.rate !== undefined) rateAlongsidePost(deps, db, input.businessId, author.id, input.rate);
        // The business's followers hear of it when they next read their notifications
        // (fan-out on read, services/notifications/favorite-reviews.ts): nothing is written for them here.
      }),
    ),
  );
  scheduleQueuedIndexing(db);
  return getCommentCard(db, actor, id);
}

type OwnedRow = { id: string; userId: string; imageId: string | null; businessId: string; text: string };

export function findComment(db: Db, id: string): OwnedRow {
  const row = db
    .select({ id: comments.id, userId: comments.userId, imageId: comments.imageId, businessId: comments.businessId, text: comments.text })
    .from(comments)
    .where(eq(comments.id, id))
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'commentNotFound');
  return row;
}

/** The author edits text and picture (post-edit.ts); nobody else may, admins neither. */
export async function updateComment(deps: Deps, actor: Actor, input: WithUpload<CommentUpdateInput>): Promise<CommentCard> {
  const movesPlace = input.branchId !== undefined || input.businessLocation !== undefined;
  const { rate } = input;
  await editPost(deps, actor, 'comment', input, {
    limits: rate !== undefined ? (authorId: string) => deps.limits.consume('rate', authorId) : undefined,
    // A place that is not the business's is a 400 before any picture is stored.
    check: movesPlace ? (businessId) => void resolvePlace(deps.db, businessId, input) : undefined,
    set: movesPlace ? (_tx, businessId) => resolvePlace(deps.db, businessId, input) : undefined,
    // New stars with the edit: the author's rating of the business, as from the rating widget.
    alongside: rate !== undefined ? (tx, businessId, authorId) => void rateAlongsidePost(deps, tx, businessId, authorId, rate) : undefined,
  });
  return getCommentCard(deps.db, actor, input.id);
}

/**
 * Deletes a comment with its replies and all their ratings (foreign-key cascades), moves the
 * business's comment count in the same transaction, then releases the pictures nothing else uses.
 */
export async function destroyComment(deps: Deps, row: OwnedRow, alongside?: (tx: DbOrTx) => void): Promise<void> {
  const imageIds = deps.db.transaction((tx) => {
    alongside?.(tx);
    const replyImages = tx
      .select({ imageId: replies.imageId })
      .from(replies)
      .where(and(eq(replies.commentId, row.id), isNotNull(replies.imageId)))
      .all()
      .map((r) => r.imageId);
    const gone = tx.delete(comments).where(eq(comments.id, row.id)).returning({ imageId: comments.imageId, hiddenAt: comments.hiddenAt }).all();
    if (gone.length === 0) throw new AppError('NOT_FOUND', 'commentNotFound');
    // A hidden comment has already left the count (reports.ts).
    if (gone[0].hiddenAt === null) {
      tx.update(businesses)
        .set({ commentCount: sql`max(${businesses.commentCount} - 1, 0)` })
        .where(eq(businesses.id, row.businessId))
        .run();
    }
    return [gone[0].imageId, ...replyImages];
  });
  await releaseImages(deps, imageIds);
}

/** The author deletes their own comment (DELETE /comment/delete/{id}). */
export async function deleteComment(deps: Deps, actor: Actor, id: string): Promise<void> {
  const author = requireActive(actor);
  await deps.limits.consume('delete', author.id);
  const row = findComment(deps.db, id);
  if (row.userId !== author.id) throw new AppError('FORBIDDEN', 'commentNotYours');
  await destroyComment(deps, row);
}

/** A moderator or admin removes any comment (moderation, DELETE /comment/{id}). */
export async function removeComment(deps: Deps, actor: Actor, id: string): Promise<void> {
  const admin = requireModerator(actor);
  await deps.limits.consume('delete', admin.id);
  const row = findComment(deps.db, id);
  await destroyComment(deps, row, (tx) => recordModAction(tx, admin, { action: 'remove', targetKind: 'comment', targetId: id, excerpt: row.text }));
}
