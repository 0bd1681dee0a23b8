import { and, asc, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { comments } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { keptLimit } from '../../lib/prepared';
import { BUSINESS_PAGE, STAR_LEVELS, type BusinessCommentsInput, type CommentCard, type CommentSort, type Page } from '../../../shared/schemas/comments';
import { ftsQueryOf, indexQueuedComments, isFtsQueryError, matchesSearch } from './comment-search';
import { placeKeyOf } from './comment-branches';
import { businessCards, cardOf, visible, type BusinessHead, type PostRow, type Viewer } from './comment-cards';

const rowid = sql<number>`${comments}.rowid`;

/**
 * A business's comments in any of the orders of issue 19, narrowed by the author's stars, by
 * "with photos" and by the comment search, paged by keyset cursors.
 *
 * Every order is one or more *walks*: a statement whose ORDER BY is exactly an index of the
 * business's comments read in one direction (business_id equal, the rest of the index in
 * order), so SQLite reads rows in order and stops at the page size: no sort, no temporary
 * B-tree. Each index ends in created_at, and SQLite appends the rowid, which breaks every tie,
 * so each cursor names one row exactly and pages never overlap or skip.
 * - newest / oldest: comments_business_idx (business_id, created_at). With star levels: one walk
 *   per level on comments_business_stars_idx (business_id, author_rate = L, created_at), merged
 *   here by (created_at, rowid): IN (…) over several levels would need a temp B-tree to put the
 *   levels' rows back in date order, which grows with the business; k walks of one page each do not.
 * - highest / lowest stars: one walk per level of comments_business_stars_idx, the levels
 *   concatenated from 5 down (or 1 up), each level newest first, and the comments whose author
 *   has no rating last. A mixed order (stars ascending, dates descending) in one statement would
 *   need a sort; per-level walks do not, and the star filter simply picks the levels.
 * - helpful: comments_business_helpful_idx (business_id, rating_avg, rating_count, created_at)
 *   downwards, then the comments nobody rated (rating_avg null) newest first along
 *   comments_business_idx: the helpful index is partial (migration 0031) and holds only rated
 *   comments, so a new comment adds no entry to it (issue 32 item 3).
 * - replied: comments_business_replied_idx (business_id, reply_count, created_at) downwards, partial
 *   in the same way (reply_count > 0), then the comments without replies newest first along
 *   comments_business_idx: the same order as one walk, where they tie at 0 and go by date.
 * Other conditions are residual tests on the rows a walk reads (star levels in the last two,
 * photos, search, hidden posts); their `+` keeps SQLite from picking another index for them
 * and sorting. A selective filter thus reads more rows per page, bounded by the business.
 *
 * The branch filter and the other-place filter (?place=) are more residuals here; the plain newest list walks its own index for it
 * (comments_branch_authors_idx, in comments.ts).
 */

type Dir = 'asc' | 'desc';
/** One index walk: fixed conditions, the ordered keys (all one direction, ending in created_at and rowid). */
type Walk = { id: string; where: SQL[]; keys: readonly Key[]; dir: Dir };
type Key = 'authorRate' | 'ratingAvg' | 'ratingCount' | 'replyCount' | 'createdAt' | 'rowid';

const keyColumn: Record<Key, SQL | typeof comments.createdAt> = {
  authorRate: sql`${comments.authorRate}`,
  ratingAvg: sql`${comments.ratingAvg}`,
  ratingCount: sql`${comments.ratingCount}`,
  replyCount: sql`${comments.replyCount}`,
  createdAt: comments.createdAt,
  rowid,
};

const byDate = ['createdAt', 'rowid'] as const;

const levelWalk = (level: number | null, dir: Dir): Walk => ({
  id: `stars${level ?? 0}${dir}`,
  where: [level === null ? isNull(comments.authorRate) : eq(comments.authorRate, level)],
  keys: byDate,
  dir,
});

/** How an order reads: walks one after the other (`phases`), or merged by date (`merge`). */
type Plan = { kind: 'phases'; walks: Walk[] } | { kind: 'merge'; walks: Walk[]; dir: Dir };

function planOf(sort: CommentSort, stars: readonly number[] | undefined): Plan {
  const levels = stars ? [...new Set(stars)] : null;
  switch (sort) {
    case 'newest':
    case 'oldest': {
      const dir = sort === 'newest' ? 'desc' : 'asc';
      if (!levels) return { kind: 'phases', walks: [{ id: `date${dir}`, where: [], keys: byDate, dir }] };
      return { kind: 'merge', dir, walks: levels.sort().map((l) => levelWalk(l, dir)) };
    }
    case 'highest':
    case 'lowest': {
      const order = sort === 'highest' ? [...STAR_LEVELS].reverse() : [...STAR_LEVELS];
      const chosen = levels ? order.filter((l) => levels.includes(l)) : order;
      const walks = chosen.map((l) => levelWalk(l, 'desc'));
      // Comments whose author gave no stars come last in both orders; a star filter leaves them out.
      if (!levels) walks.push(levelWalk(null, 'desc'));
      return { kind: 'phases', walks };
    }
    case 'helpful':
      return {
        kind: 'phases',
        walks: [
          { id: 'helpful', where: [isNotNull(comments.ratingAvg)], keys: ['ratingAvg', 'ratingCount', ...byDate], dir: 'desc' },
          // The rest, all at rating_count 0, newest first; `+`: the date walk, not another index.
          { id: 'unrated', where: [sql`+${comments.ratingAvg} is null`], keys: byDate, dir: 'desc' },
        ],
      };
    case 'replied':
      return {
        kind: 'phases',
        walks: [
          // A literal 0, the very term of the partial index (a bound value would not prove it).
          { id: 'replied', where: [sql`${comments.replyCount} > 0`], keys: ['replyCount', ...byDate], dir: 'desc' },
          { id: 'unreplied', where: [sql`+${comments.replyCount} = 0`], keys: byDate, dir: 'desc' },
        ],
      };
  }
}

/** The default list (newest, no filter) keeps its own prepared statements in comments.ts. */
export const isPlainNewest = (input: BusinessCommentsInput) => (input.sort ?? 'newest') === 'newest' && !input.stars && !input.photos;

type Residuals = { stars: readonly number[] | null; photos: boolean; branch: boolean; place?: boolean; query: string | null };

/**
 * Tests on the rows a walk reads. `+` makes a term unusable for an index, so the walk's own
 * index stays the plan (SQLite would otherwise start from, say, comments_image_idx and sort).
 */
function residuals(r: Residuals): SQL[] {
  const out: SQL[] = [visible];
  if (r.stars) out.push(sql`+${comments.authorRate} in ${r.stars}`);
  if (r.photos) out.push(sql`+${comments.imageId} is not null`);
  if (r.branch) out.push(sql`+${comments.branchId} = ${sql.placeholder('branch')}`);
  if (r.place) out.push(sql`+${comments.placeKey} = ${sql.placeholder('place')}`);
  // Every match in the business (the words carry its key), as a set the walk probes.
  if (r.query !== null) out.push(matchesSearch(r.query));
  return out;
}

const p = {
  businessId: sql.placeholder('businessId'),
  limit: sql.placeholder('limit'),
};
const afterValue = (i: number) => sql.placeholder(`a${i}`);

/** The statement of one walk, as the app runs it; exported for the query-plan test. */
export function walkQuery(db: Db, walk: Walk, after: boolean, r: Residuals) {
  const keys = walk.keys.map((k) => keyColumn[k]);
  const cmp = walk.dir === 'desc' ? sql`<` : sql`>`;
  const cursor = after
    ? sql`(${sql.join(keys, sql`, `)}) ${cmp} (${sql.join(
        keys.map((_, i) => afterValue(i)),
        sql`, `,
      )})`
    : undefined;
  const order = walk.dir === 'desc' ? desc : asc;
  return businessCards(db)
    .where(and(eq(comments.businessId, p.businessId), ...walk.where, cursor, ...residuals(r)))
    .orderBy(...keys.map((k) => order(k)))
    .limit(keptLimit(p.limit));
}

type Compiled = ReturnType<ReturnType<typeof walkQuery>['prepare']>;
const compiled = new WeakMap<Db, Map<string, Compiled>>();

/** Each walk's statement is compiled once per shape (walk, cursor, filters) and kept. */
function statementOf(db: Db, walk: Walk, after: boolean, r: Residuals): Compiled {
  let byShape = compiled.get(db);
  if (!byShape) compiled.set(db, (byShape = new Map<string, Compiled>()));
  // The search text is bound at run time; only whether there is one shapes the statement.
  const shape = `${walk.id}|${after ? 1 : 0}|${r.stars?.join('') ?? ''}|${r.photos ? 1 : 0}|${r.branch ? 1 : 0}|${r.place ? 1 : 0}|${r.query === null ? 0 : 1}`;
  let found = byShape.get(shape);
  if (!found) {
    found = walkQuery(db, walk, after, { ...r, query: r.query === null ? null : (sql.placeholder('query') as unknown as string) }).prepare();
    byShape.set(shape, found);
  }
  return found;
}

/** The sort key of a row along a walk's keys. */
const keyOf = (walk: Walk, row: PostRow): number[] => walk.keys.map((k) => (k === 'rowid' ? row.rowid : (row[k] ?? 0)));

/** The cursor: which walk the page ended in and that row's key along it. */
type SortCursor = { walk: number; key: number[] };

function encode(c: SortCursor): string {
  return Buffer.from(JSON.stringify([c.walk, ...c.key])).toString('base64url');
}

function decode(value: string | undefined, plan: Plan): SortCursor | null {
  if (value === undefined || value === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('BAD_INPUT', 'cursorInvalid');
  }
  if (!Array.isArray(parsed) || !parsed.every((n) => typeof n === 'number' && Number.isFinite(n))) throw new AppError('BAD_INPUT', 'cursorInvalid');
  const [walk, ...key] = parsed as number[];
  const target = plan.kind === 'merge' ? plan.walks[0] : plan.walks[walk];
  if (!Number.isInteger(walk) || !target || (plan.kind === 'merge' && walk !== 0) || key.length !== target.keys.length) {
    throw new AppError('BAD_INPUT', 'cursorInvalid');
  }
  return { walk, key };
}

function run(db: Db, walk: Walk, after: number[] | null, r: Residuals, values: Record<string, unknown>, limit: number): PostRow[] {
  const params: Record<string, unknown> = { ...values, limit };
  after?.forEach((v, i) => (params[`a${i}`] = v));
  return statementOf(db, walk, after !== null, r).all(params);
}

/** Runs an order's walks until a page and one more row are read. */
function readPage(db: Db, plan: Plan, cursor: SortCursor | null, r: Residuals, values: Record<string, unknown>, limit: number) {
  const want = limit + 1;
  const rows: { row: PostRow; walk: number }[] = [];
  if (plan.kind === 'phases') {
    for (let w = cursor?.walk ?? 0; w < plan.walks.length && rows.length < want; w++) {
      const after = cursor && w === cursor.walk ? cursor.key : null;
      for (const row of run(db, plan.walks[w], after, r, values, want - rows.length)) rows.push({ row, walk: w });
    }
    return rows;
  }
  // Merge by (created_at, rowid): each level's walk gives at most a page, the best `want` of them win.
  const all = plan.walks.flatMap((walk) => run(db, walk, cursor?.key ?? null, r, values, want));
  const sign = plan.dir === 'desc' ? -1 : 1;
  all.sort((a, b) => sign * (a.createdAt - b.createdAt || a.rowid - b.rowid));
  return all.slice(0, want).map((row) => ({ row, walk: 0 }));
}

/** A business's comments in the chosen order and filters (not the plain newest list; see isPlainNewest). */
export function listSortedComments(db: Db, viewer: Viewer, head: BusinessHead, input: BusinessCommentsInput): Page<CommentCard> {
  const plan = planOf(input.sort ?? 'newest', input.stars);
  const limit = input.limit ?? BUSINESS_PAGE;
  const cursor = decode(input.cursor, plan);
  const query = input.search ? ftsQueryOf(input.businessId, input.search) : null;
  if (input.search && !query) return { items: [], nextCursor: null };
  // Comments posted in the last moments wait in a queue (migration 0005): index them first.
  if (query) indexQueuedComments(db);
  const r: Residuals = {
    stars: input.stars && !plan.walks.some((w) => w.id.startsWith('stars')) ? [...input.stars].sort() : null,
    photos: input.photos ?? false,
    branch: input.branch !== undefined,
    place: input.place !== undefined,
    query,
  };
  const values = {
    ...viewer,
    businessId: input.businessId,
    query,
    branch: input.branch ?? null,
    place: input.place === undefined ? null : placeKeyOf(input.place),
  };
  let rows: { row: PostRow; walk: number }[];
  try {
    rows = readPage(db, plan, cursor, r, values, limit);
  } catch (err) {
    if (query && isFtsQueryError(err)) throw new AppError('BAD_INPUT', 'invalidInput', { search: 'invalidInput' });
    throw err;
  }
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const more = rows.length > limit;
  return {
    items: shown.map(({ row }) => cardOf(row, head)),
    nextCursor: more && last ? encode({ walk: last.walk, key: keyOf(plan.walks[last.walk], last.row) }) : null,
  };
}

/** The walks of an order, for the query-plan test. */
export const walksOf = (sort: CommentSort, stars?: number[]) => planOf(sort, stars).walks;
