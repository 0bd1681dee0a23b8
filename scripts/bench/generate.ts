/**
 * Builds the bench data set into DATA_DIR/recensera.sqlite: migrated with the app's own
 * migrations, then filled with raw prepared statements in large transactions (test-data set-up,
 * not a code path under test). Every count and average column is computed here from the rows
 * generated, so the correctness check can hold the app's write path to the same recounts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import sharp from 'sharp';
import { closeDb, migrateDb, openDb } from '../../db/client';
import { swedishSortKey } from '../../server/lib/sv-sort-key';
import { indexQueuedComments } from '../../server/services/comments/comment-search';
import { createSession } from '../../server/services/accounts/sessions';
import { fillBusinessSearch } from '../../server/services/business/business-search';
import { runUpgradeTasks } from '../../server/services/ops/upgrade-tasks';
import { createRng, picker, randInt, randomId, shuffleInPlace, ZipfSampler, type Rng } from './random';
import * as words from './words';
import { addFactsAndOwnerReplies } from './generate-facts';

export const FULL_COUNTS = {
  businesses: 1_000,
  users: 20_000,
  comments: 200_000,
  replies: 600_000,
  emojiRatings: 1_000_000,
  starRatings: 200_000,
  favorites: 100_000,
} as const;

export type Counts = { -readonly [K in keyof typeof FULL_COUNTS]: number };

/** Below these a tiny scale would not have enough distinct (user, item) pairs to be meaningful. */
const FLOORS: Counts = { businesses: 5, users: 50, comments: 100, replies: 200, emojiRatings: 300, starRatings: 50, favorites: 30 };

export function targetCounts(scale: number): Counts {
  const out = {} as Counts;
  for (const key of Object.keys(FULL_COUNTS) as (keyof Counts)[]) out[key] = Math.max(FLOORS[key], Math.round(FULL_COUNTS[key] * scale));
  return out;
}

export const DB_FILE_NAME = 'recensera.sqlite';
export const META_FILE_NAME = 'bench-meta.json';
const BENCH_USERS = 200;
const RATING_POOL = 20_000;
const COMMENT_TARGETS = 200;
const PHOTO_SHARE = 0.05;
const DAY = 86_400_000;
/** FTS5's own default for `hashsize` (FTS5_DEFAULT_HASHSIZE in SQLite's fts5Int.h). */
const FTS5_DEFAULT_HASHSIZE = 1024 * 1024;

export type BenchUser = { id: string; token: string };

/** Everything the bench needs to know about a data set; saved beside it so --data-dir can reuse it. */
export type BenchMeta = {
  version: 1;
  scale: number;
  seed: number;
  counts: Counts & { branches: number; images: number; commentPhotos: number };
  timingsMs: Record<string, number>;
  benchUsers: BenchUser[];
  popularBusinessId: string;
  popularCommentId: string;
  /** Existing comments (none by a bench user) the rating phase spreads its writes over. */
  ratingPool: string[];
  businessIds: string[];
  commentTargets: { businessId: string; locations: string[] }[];
  searchTerms: { business: string; comment: string };
};

export type GenerateOptions = {
  dataDir: string;
  scale: number;
  seed?: number;
  log?: (message: string) => void;
};

type Stats = { count: Int32Array; sum: Int32Array; rated: Int32Array };
const newStats = (n: number): Stats => ({ count: new Int32Array(n), sum: new Int32Array(n), rated: new Int32Array(n * 5) });

type Ratings = { target: Int32Array; user: Int32Array; rate: Uint8Array; createdAt: Float64Array; n: number };

/**
 * Distinct (target, user) pairs drawn by popularity; authorOf excludes self-ratings. The number
 * of attempts is bounded, so a tiny scale with saturated targets yields fewer rows, not a hang.
 */
function drawRatings(
  rng: Rng,
  wanted: number,
  sampleTarget: () => number,
  users: number,
  authorOf: Int32Array | null,
  quality: Float32Array,
  createdOf: (target: number) => number,
  now: number,
): Ratings {
  const out: Ratings = {
    target: new Int32Array(wanted),
    user: new Int32Array(wanted),
    rate: new Uint8Array(wanted),
    createdAt: new Float64Array(wanted),
    n: 0,
  };
  const seen = new Set<number>();
  const maxAttempts = wanted * 30;
  for (let attempt = 0; attempt < maxAttempts && out.n < wanted; attempt++) {
    const t = sampleTarget();
    const u = Math.floor(rng() * users);
    if (authorOf && authorOf[t] === u) continue;
    const key = t * users + u;
    if (seen.has(key)) continue;
    seen.add(key);
    const rate = Math.min(5, Math.max(1, Math.round(quality[t] + (rng() - 0.5) * 3)));
    const from = createdOf(t);
    out.target[out.n] = t;
    out.user[out.n] = u;
    out.rate[out.n] = rate;
    out.createdAt[out.n] = Math.floor(from + rng() * (now - from));
    out.n++;
  }
  return out;
}

function tally(r: Ratings, stats: Stats): void {
  for (let i = 0; i < r.n; i++) {
    const t = r.target[i];
    stats.count[t]++;
    stats.sum[t] += r.rate[i];
    stats.rated[t * 5 + r.rate[i] - 1]++;
  }
}

/** The tables the generator fills in bulk: their secondary indexes are built after the rows are in. */
const BULK_TABLES = ['users', 'businesses', 'branches', 'comments', 'replies', 'comment_ratings', 'reply_ratings', 'business_ratings', 'favorites'];

type SavedIndex = { name: string; sql: string };

/**
 * Drops the secondary indexes of the bulk-filled tables and returns their SQL, in schema order.
 * Filling a table with every index live inserts each row into every B-tree in random key order,
 * which at scale 10 no page cache holds; CREATE INDEX afterwards sorts once and writes each
 * index in order. Primary keys and UNIQUE constraints (sqlite_autoindex_*, no SQL of their own)
 * stay, so duplicates still fail. Triggers stay too: the only insert trigger queues comments
 * for the search index, which indexQueuedComments then fills as the server does.
 */
export function dropSecondaryIndexes(sqlite: Database.Database, tables: readonly string[] = BULK_TABLES): SavedIndex[] {
  const saved = sqlite
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')}) ORDER BY rowid`,
    )
    .all(...tables) as SavedIndex[];
  for (const { name } of saved) sqlite.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  return saved;
}

export function createIndexes(sqlite: Database.Database, saved: readonly SavedIndex[], log: (message: string) => void = () => {}): void {
  for (const { name, sql } of saved) {
    const t = performance.now();
    sqlite.exec(sql);
    const ms = performance.now() - t;
    if (ms > 2_000) log(`  index ${name}: ${(ms / 1000).toFixed(1)} s`);
  }
}

/** Runs rows through one statement in transactions of `chunk`; one huge transaction would hold everything in memory. */
function bulk(sqlite: Database.Database, sql: string, n: number, row: (i: number) => unknown[], chunk = 200_000): void {
  const stmt = sqlite.prepare(sql);
  const insertRange = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) stmt.run(row(i));
  });
  for (let from = 0; from < n; from += chunk) insertRange(from, Math.min(n, from + chunk));
}

type ImageRow = { id: string; fileName: string; kind: string; width: number; height: number; bytes: number };

async function writeWebp(uploads: string, svg: string, width: number, height: number, kind: string, rng: Rng): Promise<ImageRow> {
  const data = await sharp(Buffer.from(svg)).resize(width, height).webp({ quality: 75 }).toBuffer();
  const fileName = `${createHash('sha256').update(data).digest('hex')}.webp`;
  writeFileSync(path.join(uploads, fileName), data);
  return { id: randomId(rng), fileName, kind, width, height, bytes: data.length };
}

const colour = (rng: Rng) => `hsl(${randInt(rng, 0, 359)},${randInt(rng, 35, 80)}%,${randInt(rng, 30, 70)}%)`;

/** A handful of real small WebP files: comment photos and business icons. */
async function makeImages(uploads: string, rng: Rng): Promise<{ photos: ImageRow[]; icons: ImageRow[] }> {
  mkdirSync(uploads, { recursive: true });
  const photos: ImageRow[] = [];
  for (let i = 0; i < 8; i++) {
    const shapes = Array.from(
      { length: 12 },
      () => `<circle cx="${randInt(rng, 0, 800)}" cy="${randInt(rng, 0, 600)}" r="${randInt(rng, 20, 160)}" fill="${colour(rng)}" fill-opacity="0.6"/>`,
    ).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour(rng)}"/><stop offset="1" stop-color="${colour(rng)}"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/>${shapes}</svg>`;
    photos.push(await writeWebp(uploads, svg, 800, 600, 'comment', rng));
  }
  const icons: ImageRow[] = [];
  for (let i = 0; i < 6; i++) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><rect width="128" height="128" rx="24" fill="${colour(rng)}"/><rect x="32" y="32" width="64" height="64" rx="${randInt(rng, 0, 32)}" fill="${colour(rng)}"/></svg>`;
    icons.push(await writeWebp(uploads, svg, 128, 128, 'icon', rng));
  }
  return { photos, icons };
}

/** The kind word most titles contain, lower-cased as a visitor would type it: the title-search term. */
function commonKindWord(titles: string[]): string {
  let best = words.kinds[0].word;
  let bestCount = -1;
  for (const { word } of words.kinds) {
    const n = titles.filter((t) => t.includes(` ${word}`)).length;
    if (n > bestCount) [best, bestCount] = [word, n];
  }
  return best.toLocaleLowerCase('sv-SE');
}

export async function generateDataset(options: GenerateOptions): Promise<BenchMeta> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 20240602;
  const rng = createRng(seed);
  const pick = picker(rng);
  const counts = targetCounts(options.scale);
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  let mark = t0;
  let cpuMark = process.cpuUsage();
  // Wall time per phase, and this process's CPU time beside it: on a shared machine they differ.
  const lap = (name: string) => {
    const t = performance.now();
    timings[name] = Math.round(t - mark);
    mark = t;
    const cpu = process.cpuUsage(cpuMark);
    cpuMark = process.cpuUsage();
    log(`  ${name}: ${(timings[name] / 1000).toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`);
  };

  mkdirSync(options.dataDir, { recursive: true });
  const dbFile = path.join(options.dataDir, DB_FILE_NAME);
  if (existsSync(dbFile)) throw new Error(`${dbFile} exists already; the generator only fills a fresh DATA_DIR`);
  const now = Date.now();
  const U = counts.users;
  const B = counts.businesses;
  const C = counts.comments;
  const R = counts.replies;

  // Users. Index U.. are the bench writers, who own no generated rows.
  const userIds = Array.from({ length: U + BENCH_USERS }, () => randomId(rng));
  const userFirst = Array.from({ length: U }, () => pick(words.firstNames));
  const userLast = Array.from({ length: U }, () => pick(words.lastNames));
  const userCreated = Float64Array.from({ length: U }, () => now - 3 * 365 * DAY + rng() * 365 * DAY);

  // Businesses: index 0 is the suggestion box; the rest have unique invented titles.
  const titles: string[] = [];
  for (const p of words.namePrefixes) for (const k of words.kinds) for (const s of words.nameSuffixes) titles.push(`${p} ${k.word}${s}`);
  shuffleInPlace(rng, titles);
  const bizIds = Array.from({ length: B }, () => randomId(rng));
  const bizTitle: string[] = ['Lägg till ny'];
  const bizCategory: string[] = ['Förslag'];
  for (let i = 1; i < B; i++) {
    const title = titles[(i - 1) % titles.length] + (i - 1 >= titles.length ? ` ${Math.floor((i - 1) / titles.length) + 1}` : '');
    bizTitle.push(title);
    bizCategory.push(words.kinds.find((k) => title.includes(` ${k.word}`))?.category ?? 'Övrigt');
  }
  const bizLocations: string[][] = [['Hela Sverige']];
  for (let i = 1; i < B; i++) {
    const towns = [...words.towns];
    shuffleInPlace(rng, towns);
    bizLocations.push(towns.slice(0, randInt(rng, 1, 6)));
  }
  const branchCount = bizLocations.reduce((n, l) => n + l.length, 0);
  // The suggestion box collects suggestions, not reviews, so it is left out of the popularity draw.
  const bizZipf = new ZipfSampler(rng, B - 1, 1.0, 5);
  const sampleBiz = () => bizZipf.sample() + 1;
  const authorZipf = new ZipfSampler(rng, U, 0.8, 30);

  // Comments.
  const cIds = Array.from({ length: C }, () => randomId(rng));
  const cBiz = new Int32Array(C);
  const cUser = new Int32Array(C);
  const cLoc = new Uint8Array(C);
  const cCreated = new Float64Array(C);
  const cPhoto = new Int8Array(C).fill(-1);
  const cSentences = new Uint8Array(C);
  const quality = (n: number) => Float32Array.from({ length: n }, () => 1.5 + rng() * 3.5);
  for (let i = 0; i < C; i++) {
    const b = sampleBiz();
    cBiz[i] = b;
    cUser[i] = authorZipf.sample();
    cLoc[i] = Math.floor(rng() * bizLocations[b].length);
    cCreated[i] = Math.floor(now - 730 * DAY * rng());
    cSentences[i] = randInt(rng, 1, 4);
    if (rng() < PHOTO_SHARE) cPhoto[i] = randInt(rng, 0, 7);
  }
  // Comments are inserted oldest first, as a live site inserts them, so rowid order is posting order.
  cCreated.sort();
  const commentZipf = new ZipfSampler(rng, C, 1.0, 10);

  // Replies, skewed to popular comments.
  const rIds = Array.from({ length: R }, () => randomId(rng));
  const rComment = new Int32Array(R);
  const rUser = new Int32Array(R);
  const rCreated = new Float64Array(R);
  const replyCount = new Int32Array(C);
  for (let i = 0; i < R; i++) {
    const c = commentZipf.sample();
    rComment[i] = c;
    rUser[i] = authorZipf.sample();
    rCreated[i] = Math.floor(cCreated[c] + rng() * (now - cCreated[c]) * 0.25);
    replyCount[c]++;
  }
  const replyZipf = new ZipfSampler(rng, R, 1.0, 10);

  // Emoji ratings: 40% on comments, 60% on replies.
  const commentRatingsWanted = Math.round(counts.emojiRatings * 0.4);
  const commentRatings = drawRatings(
    rng,
    commentRatingsWanted,
    () => commentZipf.sample(),
    U,
    cUser,
    quality(C),
    (t) => cCreated[t],
    now,
  );
  const rAuthor = rUser;
  const replyRatings = drawRatings(
    rng,
    counts.emojiRatings - commentRatingsWanted,
    () => replyZipf.sample(),
    U,
    rAuthor,
    quality(R),
    (t) => rCreated[t],
    now,
  );
  const cStats = newStats(C);
  tally(commentRatings, cStats);
  const rStats = newStats(R);
  tally(replyRatings, rStats);

  const bizCreated = Float64Array.from({ length: B }, () => now - 4 * 365 * DAY + rng() * 365 * DAY);
  const starRatings = drawRatings(rng, counts.starRatings, sampleBiz, U, null, quality(B), (t) => bizCreated[t], now);
  const bStats = newStats(B);
  tally(starRatings, bStats);
  // Each comment's copy of its author's stars for the business (comments.author_rate), as the services keep it.
  const starOf = new Map<number, number>();
  for (let i = 0; i < starRatings.n; i++) starOf.set(starRatings.target[i] * U + starRatings.user[i], starRatings.rate[i]);
  const favorites = drawRatings(rng, counts.favorites, sampleBiz, U, null, quality(B), (t) => bizCreated[t], now);
  const favCount = new Int32Array(U);
  for (let i = 0; i < favorites.n; i++) favCount[favorites.user[i]]++;
  const commentCount = new Int32Array(B);
  for (let i = 0; i < C; i++) commentCount[cBiz[i]]++;
  lap('generateInMemory');

  const images = await makeImages(path.join(options.dataDir, 'uploads'), rng);
  lap('images');

  const db = openDb(dbFile);
  migrateDb(db);
  const sqlite = db.$client;
  lap('migrate');
  // Fresh throwaway file: no journal on disk and no fsync while loading; a crash means generating
  // again. Not journal_mode OFF: better-sqlite3 opens in defensive mode, which refuses OFF and
  // silently stays in WAL, so every page went through the WAL (for the search index's one big
  // transaction, a WAL as large as the comments) and was written twice. Rows are appended to new
  // pages, which a rollback journal does not copy.
  if (sqlite.pragma('journal_mode = MEMORY', { simple: true }) !== 'memory') throw new Error('could not leave WAL mode while loading');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('cache_size = -1000000');
  const indexes = dropSecondaryIndexes(sqlite);

  const allImages = [...images.photos, ...images.icons];
  bulk(
    sqlite,
    'INSERT INTO images (id, file_name, kind, mime, width, height, bytes, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)',
    allImages.length,
    (i) => {
      const im = allImages[i];
      return [im.id, im.fileName, im.kind, 'image/webp', im.width, im.height, im.bytes, now - 365 * DAY];
    },
  );

  bulk(
    sqlite,
    // favorite_reviews_at: every reader has seen the reviews of their favourites up to now, as
    // migration 0025 set it for a running site's users; a null watermark would make the mail job's
    // first runs pull up to 50 old reviews for each of the 200k readers (settleFavoriteWatermarks).
    `INSERT INTO users (id, email, password_hash, first_name, last_name, is_admin, is_banned, email_confirmed, is_demo, language, favorites_count, favorite_reviews_at, created_at, updated_at)
     VALUES (?, ?, NULL, ?, ?, 0, 0, 1, 0, ?, ?, ?, ?, ?)`,
    U + BENCH_USERS,
    (i) =>
      i < U
        ? [userIds[i], `anvandare${i}@exempel.se`, userFirst[i], userLast[i], i % 10 === 0 ? 'en' : 'sv', favCount[i], now, userCreated[i], userCreated[i]]
        : [userIds[i], `bench-${i - U}@exempel.se`, 'Bänk', `Skribent ${i - U}`, 'sv', 0, now, now - DAY, now - DAY],
  );
  lap('insertUsers');

  // Categories: the list migration 0008 wrote, plus any of the generator's own it lacks.
  const categoryIdOf = new Map<string, string>();
  for (const name of new Set(bizCategory)) {
    const known = sqlite.prepare('SELECT id FROM categories WHERE name_sv = ?').get(name) as { id: string } | undefined;
    const id = known?.id ?? randomId(rng);
    if (!known) sqlite.prepare('INSERT INTO categories (id, name_sv, name_en, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(id, name, name, now, now);
    categoryIdOf.set(name, id);
  }
  bulk(
    sqlite,
    `INSERT INTO businesses (id, title, title_search, title_sort, category_id, description, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, image_id, icon_id, is_suggestion_box, comment_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
    B,
    (i) => [
      bizIds[i],
      bizTitle[i],
      bizTitle[i].toLocaleLowerCase('sv-SE'),
      swedishSortKey(bizTitle[i]),
      categoryIdOf.get(bizCategory[i]),
      words.descriptionText(pick, bizTitle[i], bizCategory[i]),
      bStats.count[i],
      bStats.sum[i],
      bStats.rated[i * 5],
      bStats.rated[i * 5 + 1],
      bStats.rated[i * 5 + 2],
      bStats.rated[i * 5 + 3],
      bStats.rated[i * 5 + 4],
      i === 0 || rng() < 0.9 ? images.icons[i % images.icons.length].id : null,
      i === 0 ? 1 : 0,
      commentCount[i],
      bizCreated[i],
      bizCreated[i],
    ],
  );
  const branchRows: [string, string, string, string, number][] = [];
  // Each business's branch ids by position: a comment links to the branch it names (migration 0014).
  const branchIdsOf: string[][] = [];
  for (let b = 0; b < B; b++) {
    branchIdsOf.push([]);
    bizLocations[b].forEach((town, position) => {
      const id = randomId(rng);
      branchIdsOf[b].push(id);
      branchRows.push([id, bizIds[b], town, `${pick(words.streets)} ${randInt(rng, 1, 120)}`, position]);
    });
  }
  bulk(sqlite, 'INSERT INTO branches (id, business_id, location, address, position) VALUES (?, ?, ?, ?, ?)', branchRows.length, (i) => branchRows[i]);
  lap('insertBusinesses');

  const avg = (s: Stats, i: number) => (s.count[i] === 0 ? null : s.sum[i] / s.count[i]);
  bulk(
    sqlite,
    `INSERT INTO comments (id, business_id, user_id, business_location, branch_id, text, image_id, reply_count, rating_count, rating_avg, rated_1, rated_2, rated_3, rated_4, rated_5, author_rate, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    C,
    (i) => [
      cIds[i],
      bizIds[cBiz[i]],
      userIds[cUser[i]],
      bizLocations[cBiz[i]][cLoc[i]],
      branchIdsOf[cBiz[i]][cLoc[i]],
      words.commentText(pick, cSentences[i]),
      cPhoto[i] >= 0 ? images.photos[cPhoto[i]].id : null,
      replyCount[i],
      cStats.count[i],
      avg(cStats, i),
      cStats.rated[i * 5],
      cStats.rated[i * 5 + 1],
      cStats.rated[i * 5 + 2],
      cStats.rated[i * 5 + 3],
      cStats.rated[i * 5 + 4],
      starOf.get(cBiz[i] * U + cUser[i]) ?? null,
      cCreated[i],
      cCreated[i],
    ],
  );
  lap('insertComments');

  // The insert trigger queued every comment for the search index (migration 0005); the server's
  // own batch indexing then fills comments_fts in one statement.
  // FTS5 flushes its pending terms to a new segment (and merges segments) each time they pass
  // `hashsize`, 1 MB by default; a bigger one while loading writes fewer, larger segments. The
  // setting is stored in the index's config table (which only FTS5 may write), so the default is
  // set again afterwards.
  // (FTS5 takes the value as a literal only; bound, it fails.)
  sqlite.exec(`INSERT INTO comments_fts (comments_fts, rank) VALUES ('hashsize', ${256 * 1024 * 1024})`);
  indexQueuedComments(db);
  sqlite.exec(`INSERT INTO comments_fts (comments_fts, rank) VALUES ('hashsize', ${FTS5_DEFAULT_HASHSIZE})`);
  lap('searchIndex');

  bulk(
    sqlite,
    `INSERT INTO replies (id, comment_id, business_id, user_id, text, image_id, rating_count, rating_avg, rated_1, rated_2, rated_3, rated_4, rated_5, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    R,
    (i) => [
      rIds[i],
      cIds[rComment[i]],
      bizIds[cBiz[rComment[i]]],
      userIds[rUser[i]],
      words.replyText(pick, rng() < 0.6),
      rStats.count[i],
      avg(rStats, i),
      rStats.rated[i * 5],
      rStats.rated[i * 5 + 1],
      rStats.rated[i * 5 + 2],
      rStats.rated[i * 5 + 3],
      rStats.rated[i * 5 + 4],
      rCreated[i],
      rCreated[i],
    ],
  );
  lap('insertReplies');

  bulk(sqlite, 'INSERT INTO comment_ratings (comment_id, user_id, rate, created_at) VALUES (?, ?, ?, ?)', commentRatings.n, (i) => [
    cIds[commentRatings.target[i]],
    userIds[commentRatings.user[i]],
    commentRatings.rate[i],
    commentRatings.createdAt[i],
  ]);
  bulk(sqlite, 'INSERT INTO reply_ratings (reply_id, user_id, rate, created_at) VALUES (?, ?, ?, ?)', replyRatings.n, (i) => [
    rIds[replyRatings.target[i]],
    userIds[replyRatings.user[i]],
    replyRatings.rate[i],
    replyRatings.createdAt[i],
  ]);
  lap('insertEmojiRatings');

  bulk(sqlite, 'INSERT INTO business_ratings (business_id, user_id, rate, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', starRatings.n, (i) => [
    bizIds[starRatings.target[i]],
    userIds[starRatings.user[i]],
    starRatings.rate[i],
    starRatings.createdAt[i],
    starRatings.createdAt[i],
  ]);
  bulk(sqlite, 'INSERT INTO favorites (user_id, business_id, created_at) VALUES (?, ?, ?)', favorites.n, (i) => [
    userIds[favorites.user[i]],
    bizIds[favorites.target[i]],
    favorites.createdAt[i],
  ]);
  lap('insertStarsAndFavorites');
  // Branch facts, owners and their answers (issue 31): generate-facts.ts.
  const facts = addFactsAndOwnerReplies(sqlite, { businessIds: bizIds, userIds: userIds.slice(0, U), popularBusinessId: bizIds[bizZipf.atRank(0) + 1] });
  log(`facts: ${facts.ownedBusinesses} owned businesses, ${facts.ownerReplies} owner replies`);
  lap('insertFactsAndOwners');

  createIndexes(sqlite, indexes, log);
  lap('createIndexes');
  // What the server does at its first start on a freshly migrated file: the upgrade tasks the
  // migrations queued (the rows written here already have their branches; towns get split) and
  // the directory's search rows. Done here, the bench's start-up is a start on a site in use.
  runUpgradeTasks(db);
  fillBusinessSearch(db);
  lap('upgradeTasksAndBusinessSearch');

  sqlite.pragma('foreign_keys = ON');
  const benchUsers: BenchUser[] = [];
  sqlite.transaction(() => {
    for (let i = U; i < U + BENCH_USERS; i++) benchUsers.push({ id: userIds[i], token: createSession(db, userIds[i], now).token });
  })();
  // A site that has run for a while has planner statistics (the app runs PRAGMA optimize on close).
  sqlite.exec('ANALYZE');
  lap('analyze');
  sqlite.pragma('journal_mode = WAL');
  closeDb(db);
  timings.total = Math.round(performance.now() - t0);

  const poolIdx = new Set<number>();
  for (let r = 0; r < Math.min(200, C); r++) poolIdx.add(commentZipf.atRank(r));
  for (let guard = 0; poolIdx.size < Math.min(RATING_POOL, C) && guard < RATING_POOL * 10; guard++) poolIdx.add(Math.floor(rng() * C));
  const targetIdx = new Set<number>();
  for (let r = 0; r < Math.min(COMMENT_TARGETS, B - 1); r++) targetIdx.add(bizZipf.atRank(r) + 1);

  const meta: BenchMeta = {
    version: 1,
    scale: options.scale,
    seed,
    counts: {
      businesses: B,
      users: U,
      comments: C,
      replies: R,
      emojiRatings: commentRatings.n + replyRatings.n,
      starRatings: starRatings.n,
      favorites: favorites.n,
      branches: branchCount,
      images: allImages.length,
      commentPhotos: cPhoto.reduce((n, p) => n + (p >= 0 ? 1 : 0), 0),
    },
    timingsMs: timings,
    benchUsers,
    popularBusinessId: bizIds[bizZipf.atRank(0) + 1],
    popularCommentId: cIds[commentZipf.atRank(0)],
    ratingPool: [...poolIdx].map((i) => cIds[i]),
    businessIds: bizIds.slice(1),
    commentTargets: [...targetIdx].map((b) => ({ businessId: bizIds[b], locations: bizLocations[b] })),
    searchTerms: { business: commonKindWord(bizTitle.slice(1)), comment: words.commentSearchTerm },
  };
  writeFileSync(path.join(options.dataDir, META_FILE_NAME), JSON.stringify(meta));
  log(`data set built in ${(timings.total / 1000).toFixed(1)} s`);
  return meta;
}

export function readMeta(dataDir: string): BenchMeta | null {
  const file = path.join(dataDir, META_FILE_NAME);
  if (!existsSync(file) || !existsSync(path.join(dataDir, DB_FILE_NAME))) return null;
  const meta = JSON.parse(readFileSync(file, 'utf8')) as BenchMeta;
  return meta.version === 1 ? meta : null;
}

/**
 * Data sets made before the generator set `users.favorite_reviews_at` leave it null: every
 * reader's first pull (services/notifications/favorite-reviews.ts) then turns up to 50 old
 * reviews into notices, and the mail job works that off for every reader after a start. Sets it
 * to the newest review's time, as migration 0025 did for a running site's users. Returns the rows
 * changed (0 on a data set that has it).
 */
export function settleFavoriteWatermarks(sqlite: Database.Database): number {
  const hasColumn = (sqlite.prepare(`SELECT count(*) AS n FROM pragma_table_info('users') WHERE name = 'favorite_reviews_at'`).get() as { n: number }).n > 0;
  if (!hasColumn) return 0;
  const newest = (sqlite.prepare('SELECT max(created_at) AS at FROM comments').get() as { at: number | null }).at ?? Date.now();
  return sqlite.prepare('UPDATE users SET favorite_reviews_at = ? WHERE favorite_reviews_at IS NULL').run(newest).changes;
}
