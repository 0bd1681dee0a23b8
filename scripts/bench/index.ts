/**
 * Recensera benchmark (issue 6). Builds a realistic data set, starts the production build on
 * it, drives reads and writes with autocannon from a separate process against the app and a
 * bare-Fastify baseline, checks every count column against a recount, weighs the front end,
 * runs Lighthouse and times image uploads. Prints one table; --out writes the same as JSON.
 *
 * Exit status: 0 when it ran (targets missed or not), 1 when the correctness check failed,
 * 2 when it could not run. See --help.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { checkCounts, type CheckResult } from './check';
import { measureFirstContent, measurePageWeights, runLighthouse, type FirstContent, type LighthouseScores, type PageWeight } from './frontend';
import { DB_FILE_NAME, generateDataset, readMeta, settleFavoriteWatermarks, type BenchMeta } from './generate';
import { benchImages, type ImageBench } from './images';
import type { BaselineBody } from './baseline-server';
import { KEPT_BODY_BYTES, type LoadJob, type LoadRequest, type LoadResult, type WriteRequest } from './load-runner';
import { multipartBody } from './multipart';
import {
  coresOf,
  cpuSnapshot,
  foreignCores,
  freePort,
  waitForQuiet,
  httpRequest,
  installExitHandlers,
  onCleanup,
  RssSampler,
  spawnTracked,
  stopChild,
  track,
  waitForOk,
} from './processes';
import { endpointTable, judge, metricTable, notesFor, rssTargetMb, targetText, TARGETS, type EndpointRow, type Group, type MetricRow } from './report';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../server-flags';
import { INDEX_DELAY_MS } from '../../server/services/comments/comment-search';
import { findRole, listProcedures, trpcGetPath, type Found } from './trpc-discovery';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

/**
 * What Chromium sends with every request. The reads are measured as a browser asks for them:
 * public replies go out compressed (the cache keeps each encoding once), others are compressed
 * per request, and the load generator reads what a visitor's browser would receive.
 */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Each measured page's first real content (issue 29.7): what the visitor came for. */
const FIRST_CONTENT = {
  home: { selector: 'main a[href^="/comment/"]', what: 'first review' },
  directory: { selector: 'main li a[href^="/business/"]', what: 'first business card' },
  'business page': { selector: '#comments article[id^="comment-"]', what: 'first review' },
  'comment page': { selector: 'main article[id^="comment-"]', what: 'the comment' },
} as const;

const HELP = `npm run bench -- [options]
  --scale N            data-set scale (1 = 1,000 businesses … 1,000,000 emoji ratings; default 1)
  --data-dir DIR       build the data set here, or reuse the one already here (default: a temp dir)
  --duration S         measured seconds per endpoint (default 10)
  --warmup S           warm-up seconds per endpoint (default 3)
  --connections N      autocannon connections (default 50)
  --accept-encoding S  Accept-Encoding of every load-tested GET (default: Chromium's,
                       '${BROWSER_ACCEPT_ENCODING}'; '' sends none, as before 2026-11-24)
  --out FILE           also write the results as JSON
  --dist DIR           production build to use/make (default: <temp>/dist)
  --no-build           use an existing build (--dist, else ./dist) instead of building
  --keep-rate-limits   do not set RATE_LIMITS=0 on the server
  --skip-frontend      no Playwright page weights and no Lighthouse
  --skip-lighthouse    page weights only
  --lighthouse-runs N  Lighthouse runs per page, scores from the median run (default 3)
  --skip-images        no upload timing
  --wait-idle S        on a shared machine, wait up to S s for other processes to go quiet
                       before the load phase (and up to 30 s before each endpoint)
  --only REGEX         load-test only endpoints whose name matches (others show as skipped)
  --keep               keep the temp dir (data set, build, server log)`;

type Args = {
  scale: number;
  acceptEncoding: string;
  dataDir: string | null;
  duration: number;
  warmup: number;
  connections: number;
  out: string | null;
  dist: string | null;
  build: boolean;
  disableRateLimits: boolean;
  frontend: boolean;
  lighthouse: boolean;
  lighthouseRuns: number;
  images: boolean;
  keep: boolean;
  scaleGiven: boolean;
  only: RegExp | null;
  waitIdleSec: number;
};

function parse(): Args {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' },
      'data-dir': { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'accept-encoding': { type: 'string' },
      out: { type: 'string' },
      dist: { type: 'string' },
      'no-build': { type: 'boolean' },
      'keep-rate-limits': { type: 'boolean' },
      'skip-frontend': { type: 'boolean' },
      'skip-lighthouse': { type: 'boolean' },
      'lighthouse-runs': { type: 'string' },
      'skip-images': { type: 'boolean' },
      keep: { type: 'boolean' },
      only: { type: 'string' },
      'wait-idle': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const positive = (name: string, raw: string | undefined, fallback: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`--${name} must be a number in (0, ${max}], got ${raw}`);
    return n;
  };
  return {
    scale: positive('scale', values.scale, 1, 10),
    scaleGiven: values.scale !== undefined,
    acceptEncoding: values['accept-encoding'] ?? BROWSER_ACCEPT_ENCODING,
    dataDir: values['data-dir'] ? path.resolve(values['data-dir']) : null,
    duration: positive('duration', values.duration, 10, 600),
    warmup: values.warmup === '0' ? 0 : positive('warmup', values.warmup, 3, 120),
    connections: Math.round(positive('connections', values.connections, 50, 1000)),
    out: values.out ? path.resolve(values.out) : null,
    dist: values.dist ? path.resolve(values.dist) : null,
    build: !values['no-build'],
    disableRateLimits: !values['keep-rate-limits'],
    frontend: !values['skip-frontend'],
    lighthouse: !values['skip-frontend'] && !values['skip-lighthouse'],
    lighthouseRuns: Math.max(1, Math.round(positive('lighthouse-runs', values['lighthouse-runs'], 3, 15))),
    images: !values['skip-images'],
    keep: Boolean(values.keep),
    only: values.only ? new RegExp(values.only, 'i') : null,
    waitIdleSec: values['wait-idle'] === undefined || values['wait-idle'] === '0' ? 0 : positive('wait-idle', values['wait-idle'], 0, 3600),
  };
}

class UsageError extends Error {}

/** The id of a business's newest comment (its page is one of the front-end rows); null when it has none. */
async function newestCommentOf(origin: string, businessId: string): Promise<string | null> {
  try {
    const res = await fetch(`${origin}/api/comment/${encodeURIComponent(businessId)}`);
    if (!res.ok) return null;
    const body = (await res.json()) as { _id: string; removed?: boolean }[] | { items?: { _id: string }[] };
    const list = Array.isArray(body) ? body : (body.items ?? []);
    return list[0]?._id ?? null;
  } catch {
    return null;
  }
}

/**
 * Waits (at most 10 s) until the server has written nothing for 10 × INDEX_DELAY_MS and no posted
 * comment waits for the batch search indexing. Requests the load runner had in flight when it
 * stopped still land for a moment after it, and a comment posted then is queued for up to
 * INDEX_DELAY_MS: checking earlier once reported such a comment as "left queued".
 * `PRAGMA data_version` changes whenever another connection commits.
 */
async function untilServerQuiet(sqlite: Database.Database): Promise<void> {
  const queued = sqlite.prepare('SELECT COUNT(*) FROM comments_fts_queue').pluck();
  const version = sqlite.prepare('PRAGMA data_version').pluck();
  const quietMs = 10 * INDEX_DELAY_MS;
  let last = version.get();
  let quietSince = Date.now();
  for (const start = Date.now(); Date.now() - start < 10_000;) {
    await sleep(100);
    const now = version.get();
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs && queued.get() === 0) return;
  }
}

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const mb = (kb: number) => kb / 1024;

function run(cmd: string, args: string[], cwd: string, logFile: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    track(
      execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        writeFileSync(logFile, `${stdout}\n${stderr}`);
        if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stderr.slice(-3000)}`));
        else resolve();
      }),
    );
  });
}

/** The load runner process: one job at a time over IPC. */
class Runner {
  readonly child: ChildProcess;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<void>;

  constructor() {
    this.child = track(
      fork(path.join(here, 'load-runner.ts'), [], { cwd: repoRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code) => reject(new Error(`load runner exited (code ${code}) before it was ready`)));
      this.child.on('message', (msg: { ready?: boolean; id?: number; result?: LoadResult; error?: string }) => {
        if (msg.ready) return resolve();
        const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!waiter) return;
        this.pending.delete(msg.id!);
        if (msg.result) waiter.resolve(msg.result);
        else waiter.reject(new Error(msg.error ?? 'load runner failed'));
      });
    });
    this.child.on('exit', () => {
      for (const w of this.pending.values()) w.reject(new Error('load runner exited'));
      this.pending.clear();
    });
  }

  load(origin: string, request: LoadRequest, a: Args): Promise<LoadResult> {
    const job: LoadJob = { id: this.nextId++, origin, connections: a.connections, durationSec: a.duration, warmupSec: a.warmup, request };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load job timed out`)), (a.duration + a.warmup) * 1000 + 60_000);
      this.pending.set(job.id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.child.send(job);
    });
  }

  async stop(): Promise<void> {
    this.child.disconnect?.();
    await stopChild(this.child, 2000);
  }
}

/** A reply's bytes as the server sent them, decoded (the probe asks as a browser does). */
function decodedBody(body: Buffer, encoding: string | null): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  if (encoding === 'zstd') throw new Error('the server answered in zstd, which this Node cannot decode');
  return body;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The cursor for the next feed page, wherever the REST reply puts it. */
function nextPagePath(reply: { headers: Record<string, string | string[] | undefined>; body: Buffer }, limit: number): string | null {
  const link = reply.headers.link;
  const linkText = Array.isArray(link) ? link.join(',') : link;
  const next = linkText && /<([^>]+)>\s*;\s*rel="?next"?/i.exec(linkText);
  if (next) return next[1].replace(/^https?:\/\/[^/]+/, '');
  const header = reply.headers['x-next-cursor'] ?? reply.headers['next-cursor'];
  let cursor: unknown = Array.isArray(header) ? header[0] : header;
  if (cursor === undefined) {
    const json = parseJson(reply.body) as Record<string, unknown> | undefined;
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      const pageInfo = json.pageInfo as Record<string, unknown> | undefined;
      cursor = json.nextCursor ?? json.cursor ?? json.next ?? pageInfo?.nextCursor ?? pageInfo?.endCursor;
    }
  }
  if ((typeof cursor !== 'string' && typeof cursor !== 'number') || cursor === '') return null;
  return `/api/comment?limit=${limit}&cursor=${encodeURIComponent(String(cursor))}`;
}

/** How many items a list reply holds (REST array, or tRPC result.data as an array or with one). */
function resultCount(body: Buffer): number | null {
  const json = parseJson(body) as { result?: { data?: unknown } } | unknown[] | undefined;
  const data = Array.isArray(json) ? json : json?.result?.data;
  if (Array.isArray(data)) return data.length;
  if (data && typeof data === 'object') {
    const list = Object.values(data).find(Array.isArray);
    if (list) return list.length;
  }
  return null;
}

function shortError(reply: { status: number; body: Buffer }): string {
  const json = parseJson(reply.body) as { message?: string; error?: { message?: string } } | undefined;
  const msg = json?.message ?? json?.error?.message ?? reply.body.toString('utf8').slice(0, 120);
  return `${reply.status}${msg ? ` ${msg}` : ''}`;
}

async function main(): Promise<number> {
  const args = parse();
  installExitHandlers();
  const work = mkdtempSync(path.join(os.tmpdir(), 'recensera-bench-'));
  if (args.keep) log(`work dir (kept): ${work}`);
  else onCleanup(() => rmSync(work, { recursive: true, force: true }));
  const notes: string[] = [];
  const unmeasured: string[] = [];

  // 1. Data set.
  const dataDir = args.dataDir ?? path.join(work, 'data');
  let meta: BenchMeta | null = args.dataDir ? readMeta(dataDir) : null;
  let built = false;
  if (meta) {
    log(`reusing data set in ${dataDir} (scale ${meta.scale}, built in ${(meta.timingsMs.total / 1000).toFixed(1)} s when made)`);
    if (args.scaleGiven && meta.scale !== args.scale) notes.push(`--scale ${args.scale} ignored: reused data set has scale ${meta.scale}`);
    const settle = new Database(path.join(dataDir, DB_FILE_NAME));
    try {
      const settled = settleFavoriteWatermarks(settle);
      if (settled > 0) log(`set the favourite-review watermark of ${settled} users (a data set made before the generator set it)`);
    } finally {
      settle.close();
    }
  } else {
    log(`building data set at scale ${args.scale} into ${dataDir} …`);
    meta = await generateDataset({ dataDir, scale: args.scale, log });
    built = true;
  }
  const dbFile = path.join(dataDir, DB_FILE_NAME);

  // 2. Production build.
  let dist = args.dist ?? path.join(work, 'dist');
  let buildMs: number | null = null;
  if (!args.build) {
    dist = args.dist ?? path.join(repoRoot, 'dist');
    if (!existsSync(path.join(dist, 'server', 'index.js'))) throw new UsageError(`--no-build: no build at ${dist} (server/index.js missing)`);
    log(`using existing build ${dist}`);
  } else {
    log(`building production bundle into ${dist} …`);
    const t = performance.now();
    await run('bash', ['scripts/build-to.sh', dist], repoRoot, path.join(work, 'build.log'), 15 * 60_000);
    buildMs = performance.now() - t;
  }

  // The bundle keeps packages external; outside the repo it finds them through a link inside
  // the build directory (never in a parent, where it would change other programs' resolution).
  if (path.relative(repoRoot, dist).startsWith('..')) {
    const link = path.join(dist, 'node_modules');
    if (!existsSync(link)) symlinkSync(path.join(repoRoot, 'node_modules'), link, 'dir');
  }

  // 3. The app server on the big database.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const serverLog = path.join(work, 'server.log');
  const logFd = openSync(serverLog, 'a');
  if (args.waitIdleSec > 0) await waitForQuiet(() => [process.pid], os.cpus().length, Math.min(60, args.waitIdleSec) * 1000);
  const startCpu = cpuSnapshot([process.pid]);
  const spawnedAt = performance.now();
  const server = spawnTracked(process.execPath, [...SERVER_NODE_FLAGS, path.join(dist, 'server', 'index.js')], {
    cwd: repoRoot,
    stdio: ['ignore', logFd, logFd],
    // The production environment (SERVER_ENV), unless the caller's own sets it otherwise (an A/B).
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: origin,
      CLIENT_DIR: path.join(dist, 'client'),
      MIGRATIONS_DIR: path.join(dist, 'db', 'migrations'),
      SMTP_URL: '',
      GOOGLE_CLIENT_ID: '',
      GOOGLE_CLIENT_SECRET: '',
      RATE_LIMITS: args.disableRateLimits ? '0' : '1',
      // autocannon's connections all come from one address (--connections may pass the cap of 64).
      CONNECTIONS_PER_IP: '0',
      // The spam rules go with the limits: 200 bench users post thousands of comments an hour,
      // each of which the repeated-text rule compares with all of its author's posts of the day.
      SPAM_RULES: args.disableRateLimits ? '0' : '1',
    },
  });
  const rss = new RssSampler(server.pid!);
  rss.start();
  try {
    await waitForOk(`${origin}/healthz`, server, 60_000);
  } catch (err) {
    throw new Error(`app server did not start: ${(err as Error).message}\n--- server log ---\n${readFileSync(serverLog, 'utf8').slice(-3000)}`, { cause: err });
  }
  const startupMs = performance.now() - spawnedAt;
  const startupOtherCores = foreignCores(startCpu, cpuSnapshot([process.pid, server.pid!]), os.cpus().length);
  const idleRssKb = rss.sample() ?? 0;
  log(`app up on ${origin} in ${Math.round(startupMs)} ms (RSS ${mb(idleRssKb).toFixed(0)} MB)`);
  if (args.disableRateLimits) log('per-user rate limits and spam rules DISABLED on the server (RATE_LIMITS=0, SPAM_RULES=0) for the write phase');

  // 4. Which endpoints exist, their reply sizes, the page-50 cursor.
  const popular = meta.popularBusinessId;
  const procedures = await listProcedures();
  const ctx = { businessId: popular, limit: 12 };
  const trpc: Record<string, Found> = {
    feed: findRole(procedures, 'feed', { ...ctx, search: '', fillText: false }),
    businessSearch: findRole(procedures, 'businessSearch', { ...ctx, search: meta.searchTerms.business, fillText: true }),
    commentSearch: findRole(procedures, 'commentSearch', { ...ctx, search: meta.searchTerms.comment, fillText: true }),
  };
  const trpcPath = (f: Found) => ('reason' in f ? null : trpcGetPath(f.path, f.input));
  const trpcNote = (f: Found) => ('reason' in f ? `not available: ${f.reason}` : `tRPC ${f.path} (input from ${f.how})`);

  const reads: { key: string; name: string; group: Group; path: string | null; note?: string }[] = [
    { key: 'feed', name: 'GET feed, All, first page', group: 'hot', path: '/api/comment?limit=12' },
    { key: 'mostReplied', name: 'GET feed, Most Replied', group: 'hot', path: '/api/comment/most-subcomments' },
    { key: 'topRated', name: 'GET feed, Top Rated', group: 'hot', path: '/api/comment/most-rated' },
    { key: 'feedPage50', name: 'GET feed, page 50 by cursor', group: 'hot', path: null },
    { key: 'directory', name: 'GET directory list', group: 'hot', path: '/api/business' },
    { key: 'directoryByRating', name: 'GET directory sorted by rating', group: 'hot', path: '/api/business?sort=rating' },
    // What the directory page asks for now: one page of cards (its size does not grow with the businesses).
    { key: 'directoryPage', name: 'GET directory, a page of 24', group: 'hot', path: '/api/business?limit=24' },
    { key: 'trpcDirectoryPage', name: "tRPC directory page (the page's own query)", group: 'hot', path: '/trpc/business.directoryPage' },
    { key: 'business', name: 'GET one business', group: 'hot', path: `/api/business/${popular}` },
    { key: 'businessComments', name: 'GET popular business comments', group: 'hot', path: `/api/comment/${popular}` },
    // The worst reviews with photos: per-star-level index walks with a residual photo test (services/comments/comment-sorts.ts).
    {
      key: 'businessCommentsSorted',
      name: 'GET popular business comments, 1–2 stars, photos, lowest first',
      group: 'hot',
      path: `/api/comment/${popular}?sort=lowest&stars=1,2&photos=1`,
    },
    { key: 'businessSearch', name: 'business title search (tRPC)', group: 'search', path: trpcPath(trpc.businessSearch), note: trpcNote(trpc.businessSearch) },
    // The directory box (issue 31.4): title, category, town and description, folded, ranked; one page.
    {
      key: 'directorySearch',
      name: 'GET directory search, a page of 24',
      group: 'search',
      path: `/api/business?search=${encodeURIComponent(meta.searchTerms.business)}&limit=24`,
    },
    // Search by what or where (issue 31.4): a category name and a town typed without its accents,
    // through both doors; the generated data set has every kind and town (words.ts).
    { key: 'directorySearchCategory', name: 'GET directory search by category ("snabbmat")', group: 'search', path: `/api/business?search=snabbmat&limit=24` },
    {
      key: 'directorySearchTown',
      name: 'GET directory search by town, no accents ("jonkoping")',
      group: 'search',
      path: `/api/business?search=jonkoping&limit=24`,
    },
    {
      key: 'trpcDirectorySearch',
      name: 'tRPC directory search by town ("jonkoping")',
      group: 'search',
      path: trpcGetPath('business.directoryPage', { search: 'jonkoping', limit: 24 }),
    },
    // The business page a visitor opens: facts, opening hours and owner answers (generate-facts.ts), served HTML.
    { key: 'businessPageHtml', name: 'GET business page HTML (facts, hours, owner answers)', group: 'hot', path: `/business/${popular}` },
    { key: 'commentSearch', name: 'comment search (tRPC)', group: 'search', path: trpcPath(trpc.commentSearch), note: trpcNote(trpc.commentSearch) },
    { key: 'trpcFeed', name: 'tRPC feed query', group: 'hot', path: trpcPath(trpc.feed), note: trpcNote(trpc.feed) },
  ];

  // Walk the cursor chain the way Load More does: 12 first, then 9 per page.
  const page50 = reads.find((r) => r.key === 'feedPage50')!;
  {
    let next: string | null = '/api/comment?limit=12';
    let pages = 0;
    let why = '';
    for (let i = 0; i < 49 && next; i++) {
      const reply = await httpRequest(origin + next);
      if (reply.status !== 200) {
        why = `page ${i + 1} answered ${shortError(reply)}`;
        next = null;
        break;
      }
      pages++;
      next = nextPagePath(reply, 9);
      if (!next) why = `no next cursor after page ${pages} (looked for Link rel=next, X-Next-Cursor, nextCursor/cursor in the body)`;
    }
    if (next && pages === 49) page50.path = next;
    else page50.note = `not available: ${why}`;
  }

  const rows: EndpointRow[] = [];
  // The baseline answers with each endpoint's own reply bytes, captured here: same size and same
  // content and encoding.
  const bodiesDir = path.join(work, 'baseline-bodies');
  mkdirSync(bodiesDir, { recursive: true });
  const bodies: Record<string, BaselineBody> = {};
  const getHeaders: Record<string, string> = args.acceptEncoding ? { 'accept-encoding': args.acceptEncoding } : {};
  for (const r of reads) {
    const row: EndpointRow = {
      name: r.name,
      group: r.group,
      method: 'GET',
      path: r.path,
      bytes: null,
      app: null,
      baseline: null,
      ratio: null,
      target: targetText(r.group),
      pass: null,
      note: r.note,
    };
    rows.push(row);
    if (!r.path) continue;
    if (args.only && !args.only.test(r.name)) {
      row.path = null;
      row.note = 'skipped (--only)';
      continue;
    }
    const probe = await httpRequest(origin + r.path, { headers: getHeaders });
    if (probe.status < 200 || probe.status > 299) {
      row.note = `not available: ${shortError(probe)}${r.note && !r.note.startsWith('not available') ? ` — ${r.note}` : ''}`;
      row.path = null;
      continue;
    }
    const encoding = typeof probe.headers['content-encoding'] === 'string' ? probe.headers['content-encoding'] : null;
    const json = decodedBody(probe.body, encoding);
    row.bytes = json.length;
    row.wire = { bytes: probe.body.length, encoding };
    bodies[r.key] = { file: path.join(bodiesDir, `${r.key}.body`), encoding };
    writeFileSync(bodies[r.key].file, probe.body);
    const items = resultCount(json);
    const sizes = encoding
      ? `reply ${probe.body.length.toLocaleString('en-US')} B ${encoding} (${json.length.toLocaleString('en-US')} B JSON)`
      : `reply ${json.length.toLocaleString('en-US')} B, not compressed`;
    row.note = [r.note, r.group === 'search' && (items === null ? 'result count unknown' : `${items} results for the term`), sizes].filter(Boolean).join('; ');
  }

  // 5. Baseline server and load runner, each its own process.
  const basePort = await freePort();
  const baseOrigin = `http://127.0.0.1:${basePort}`;
  const baseline = spawnTracked(process.execPath, ['--import', 'tsx', path.join(here, 'baseline-server.ts'), String(basePort), JSON.stringify(bodies)], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForOk(`${baseOrigin}/healthz`, baseline, 30_000);
  const runner = new Runner();
  await runner.ready;

  const ourPids = () => [process.pid, server.pid!, runner.child.pid!, baseline.pid!].filter(Boolean);
  /** Runs one load job and notes how many cores other processes took meanwhile. */
  const cores = os.cpus().length;
  // For the app's runs it also notes the cores the server and the load generator used: a server
  // well below one core means the load generator, not the server, set the pace.
  const measured = async (row: EndpointRow, target: string, request: LoadRequest, app = true) => {
    if (args.waitIdleSec > 0) await waitForQuiet(ourPids, cores, Math.min(30, args.waitIdleSec) * 1000);
    const before = cpuSnapshot(ourPids());
    const serverCores = coresOf(server.pid!);
    const loadCores = coresOf(runner.child.pid!);
    const result = await runner.load(target, request, args);
    const other = foreignCores(before, cpuSnapshot(ourPids()), cores);
    row.otherCores = Math.max(row.otherCores ?? 0, other);
    if (app) row.cores = { server: serverCores(), load: loadCores() };
    return result;
  };
  if (args.waitIdleSec > 0) {
    log(`waiting up to ${args.waitIdleSec} s for the machine to go quiet …`);
    const other = await waitForQuiet(ourPids, cores, args.waitIdleSec * 1000);
    log(`other processes now use ${other.toFixed(2)} cores`);
  }
  const loadStart = cpuSnapshot(ourPids());
  rss.beginWindow('load');
  // Each row's start says the server's RSS then and the peak so far, so a log tells which rows
  // raised the peak (issue 32 item 2).
  const loadLog = (text: string) => log(`${text} [server RSS ${mb(rss.sample() ?? 0).toFixed(0)} MB, peak so far ${mb(rss.peakKb).toFixed(0)} MB]`);
  for (const [i, r] of reads.entries()) {
    const row = rows[i];
    if (!row.path) continue;
    loadLog(`load: ${r.name} (${row.wire?.encoding ? `${row.wire.bytes} B ${row.wire.encoding}, ` : ''}${row.bytes} B JSON) …`);
    try {
      row.app = await measured(row, origin, { kind: 'get', path: row.path, headers: getHeaders });
      row.baseline = await measured(row, baseOrigin, { kind: 'get', path: `/b/${r.key}`, headers: getHeaders }, false);
      row.ratio = row.baseline.okPerSec > 0 ? row.app.okPerSec / row.baseline.okPerSec : null;
      row.pass = judge(row);
    } catch (err) {
      row.note = `failed to run: ${(err as Error).message}`;
    }
  }
  await stopChild(baseline, 2000);

  // 6. Writes, each probed once first so a missing route is "n/a", not a wall of 404s.
  const tokens = meta.benchUsers.map((u) => u.token);
  const bearer = { authorization: `Bearer ${tokens[0]}` };
  /**
   * Comments the replies go to (issue 30, item 4): the bench users' own comments, which the
   * comment write just posted, so each reply writes a notification for a user the bench can sign
   * in as (the notifications list row reads them), and the rating pool's popular comments.
   */
  const replyTargets = () => {
    const sqlite = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const ids = meta.benchUsers.map((u) => u.id);
      const own = sqlite
        .prepare(`SELECT id FROM comments WHERE user_id IN (${ids.map(() => '?').join(',')}) AND removed_at IS NULL ORDER BY created_at DESC LIMIT 2000`)
        .pluck()
        .all(...ids) as string[];
      return [...own, ...meta.ratingPool.slice(0, own.length || meta.ratingPool.length)];
    } finally {
      sqlite.close();
    }
  };
  let replyCommentIds = meta.ratingPool;
  const writes: {
    name: string;
    group: Group;
    path: string;
    request: () => LoadRequest;
    before?: () => void;
    probe: () => Promise<{ status: number; body: Buffer }>;
  }[] = [
    {
      name: 'POST comment emoji rating',
      group: 'rating',
      path: '/api/comment/addRate/{id}',
      request: () => ({ kind: 'rateComment', commentIds: meta.ratingPool, tokens }),
      probe: () =>
        httpRequest(`${origin}/api/comment/addRate/${encodeURIComponent(meta.ratingPool[0])}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ rate: 4 }),
        }),
    },
    {
      name: 'POST business rating',
      group: 'rating',
      path: '/api/business/addRate/{id}',
      request: () => ({ kind: 'rateBusiness', businessIds: meta.businessIds, tokens }),
      probe: () =>
        httpRequest(`${origin}/api/business/addRate/${encodeURIComponent(meta.businessIds[0])}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ rate: 4 }),
        }),
    },
    {
      name: 'POST new comment (no photo)',
      group: 'comment',
      path: '/api/comment/create/{businessId}',
      request: () => ({ kind: 'createComment', targets: meta.commentTargets, tokens }),
      probe: () => {
        const target = meta.commentTargets[0];
        const form = multipartBody([
          // A text of its own each run: the spam rules refuse a text its author posted in the last 24 h.
          { name: 'text', value: `Bänktest ${Date.now()}: personalen var trevlig.` },
          { name: 'businessLocation', value: target.locations[0] },
        ]);
        return httpRequest(`${origin}/api/comment/create/${encodeURIComponent(target.businessId)}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': form.contentType },
          body: form.body,
        });
      },
    },
    {
      name: 'POST reply (with a notification)',
      group: 'comment',
      path: '/api/comment/addSubComment/{commentId}',
      before: () => {
        replyCommentIds = replyTargets();
      },
      request: () => ({ kind: 'createReply', commentIds: replyCommentIds, tokens }),
      probe: () => {
        const form = multipartBody([{ name: 'text', value: `Bänksvar ${Date.now()}: håller med.` }]);
        return httpRequest(`${origin}/api/comment/addSubComment/${encodeURIComponent(replyCommentIds[0])}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': form.contentType },
          body: form.body,
        });
      },
    },
  ];
  for (const w of writes) {
    const row: EndpointRow = {
      name: w.name,
      group: w.group,
      method: 'POST',
      path: w.path,
      bytes: null,
      app: null,
      baseline: null,
      ratio: null,
      target: targetText(w.group),
      pass: null,
    };
    rows.push(row);
    if (args.only && !args.only.test(w.name)) {
      row.note = 'skipped (--only)';
      continue;
    }
    w.before?.();
    const probe = await w.probe();
    if (probe.status < 200 || probe.status > 299) {
      row.note = `not available: ${shortError(probe)}`;
      continue;
    }
    loadLog(`load: ${w.name} …`);
    try {
      row.app = await measured(row, origin, w.request());
      row.pass = judge(row);
    } catch (err) {
      row.note = `failed to run: ${(err as Error).message}`;
    }
  }
  // The bell's list, and the bell's count that every signed-in page asks for, for the bench user
  // the replies notified most (issue 30, item 4 and done-when 3): signed in, so never a kept
  // reply; no baseline row, the p99 is judged against the hot target.
  const signedInReads = [
    { name: 'GET notifications list (signed in)', path: '/api/notifications' },
    { name: 'tRPC bell count (notifications.unread, signed in)', path: '/trpc/notifications.unread' },
  ];
  for (const read of signedInReads) {
    const row: EndpointRow = {
      name: read.name,
      group: 'hot',
      method: 'GET',
      path: read.path,
      bytes: null,
      app: null,
      baseline: null,
      ratio: null,
      target: `p99≤${TARGETS.hotP99Ms}ms`,
      pass: null,
    };
    rows.push(row);
    if (args.only && !args.only.test(row.name)) row.note = 'skipped (--only)';
    else {
      const sqlite = new Database(dbFile, { readonly: true, fileMustExist: true });
      const ids = meta.benchUsers.map((u) => u.id);
      const most = sqlite
        .prepare(
          `SELECT user_id AS userId, count(*) AS n FROM notifications WHERE user_id IN (${ids.map(() => '?').join(',')}) GROUP BY user_id ORDER BY n DESC LIMIT 1`,
        )
        .get(...ids) as { userId: string; n: number } | undefined;
      sqlite.close();
      const user = most && meta.benchUsers.find((u) => u.id === most.userId);
      if (!user) row.note = 'not available: no bench user has notifications (did the reply row run?)';
      else {
        const headers = { ...getHeaders, authorization: `Bearer ${user.token}` };
        const probe = await httpRequest(origin + row.path!, { headers }).catch((err: Error) => ({ status: 0, headers: {}, body: Buffer.from(err.message) }));
        if (probe.status !== 200) row.note = `not available: ${probe.status === 0 ? probe.body.toString() : shortError(probe)}`;
        else {
          row.bytes = probe.body.length;
          loadLog(`load: ${row.name} (${most.n} notifications) …`);
          try {
            row.app = await measured(row, origin, { kind: 'get', path: row.path!, headers });
            row.pass = row.app.ok > 0 && row.app.p99 <= TARGETS.hotP99Ms;
            row.note = `${most.n} notifications; no baseline (a signed-in reply)`;
          } catch (err) {
            row.note = `failed to run: ${(err as Error).message}`;
          }
        }
      }
    }
  }
  // What one process sustains of a realistic mix (issue 32.7): 50 visitor reads to each write, the
  // reads spread over pages, lists and searches of many businesses, skewed so a few hundred take
  // most of them (a town's favourites), the writes the four rows above in turn.
  {
    const row: EndpointRow = {
      name: 'Mix 50:1 reads:writes (visitors, members)',
      group: 'mix',
      method: 'GET',
      path: 'pages, lists, searches; ratings, comments, replies',
      bytes: null,
      app: null,
      baseline: null,
      ratio: null,
      target: targetText('mix'),
      pass: null,
    };
    rows.push(row);
    if (args.only && !args.only.test(row.name)) row.note = 'skipped (--only)';
    else {
      const skewed = <T>(list: readonly T[], i: number) => list[Math.floor(list.length * ((i * 0.618034) % 1) ** 3)];
      const reads = Array.from({ length: 2000 }, (_, i) => {
        const business = encodeURIComponent(skewed(meta.businessIds, i));
        const paths = [
          `/business/${business}`,
          `/business/${business}`,
          `/api/comment/${business}`,
          `/api/business/${business}`,
          `/comment/${encodeURIComponent(skewed(meta.ratingPool, i))}`,
          '/api/comment?limit=12',
          '/',
          '/trpc/business.directoryPage',
          `/api/business?search=${encodeURIComponent(meta.searchTerms.business)}&limit=24`,
          '/api/comment/most-subcomments',
        ];
        return paths[i % paths.length];
      });
      replyCommentIds = replyTargets();
      const writes: WriteRequest[] = [
        { kind: 'rateComment', commentIds: meta.ratingPool, tokens },
        { kind: 'rateBusiness', businessIds: meta.businessIds, tokens },
        { kind: 'createComment', targets: meta.commentTargets, tokens },
        { kind: 'createReply', commentIds: replyCommentIds, tokens },
      ];
      loadLog(`load: ${row.name} …`);
      try {
        row.app = await measured(row, origin, { kind: 'mix', reads, headers: getHeaders, writes, readsPerWrite: 50 });
        row.pass = judge(row);
        const writesPerSec = row.app.okPerSec / 51;
        row.note = `${Math.round(row.app.okPerSec - writesPerSec).toLocaleString('en-US')} reads/s and ${Math.round(writesPerSec).toLocaleString('en-US')} writes/s; reads of ${meta.businessIds.length.toLocaleString('en-US')} businesses, skewed`;
      } catch (err) {
        row.note = `failed to run: ${(err as Error).message}`;
      }
    }
  }
  loadLog('load: done');
  const loadRssKb = rss.endWindow('load');
  const otherCoresDuringLoad = foreignCores(loadStart, cpuSnapshot(ourPids()), os.cpus().length);
  await runner.stop();

  // 7. Correctness: every derived column against a recount, after the concurrent writes.
  log('checking counts against recounts …');
  const sqlite = new Database(dbFile, { fileMustExist: true });
  sqlite.pragma('busy_timeout = 10000');
  let checks: CheckResult[];
  try {
    await untilServerQuiet(sqlite);
    checks = checkCounts(sqlite);
  } finally {
    sqlite.close();
  }
  const failedChecks = checks.filter((c) => c.mismatches > 0);
  if (failedChecks.length) {
    console.error('\n!!!!!!!! CORRECTNESS CHECK FAILED: stored counts differ from recounts !!!!!!!!');
    for (const c of failedChecks) console.error(`  ${c.name}: ${c.mismatches} of ${c.checked} rows wrong, e.g. ${JSON.stringify(c.examples.slice(0, 2))}`);
    console.error('!!!!!!!! (the run continues so the report is complete; exit status will be 1) !!!!!!!!\n');
  }

  // 8. Front end: the pages people land on from a search engine or a shared link.
  const commentId = await newestCommentOf(origin, popular);
  const pages = [
    { name: 'home', path: '/' },
    { name: 'directory', path: '/business' },
    { name: 'business page', path: `/business/${popular}` },
    ...(commentId ? [{ name: 'comment page', path: `/comment/${encodeURIComponent(commentId)}` }] : []),
  ];
  if (!commentId) unmeasured.push('comment page: the popular business has no comment to open');
  let weights: PageWeight[] = [];
  let lighthouse: LighthouseScores[] = [];
  let firstContent: FirstContent[] = [];
  if (args.frontend) {
    log('front end: page weights (Playwright, system Chromium) …');
    try {
      weights = await measurePageWeights(origin, path.join(dist, 'client'), pages);
    } catch (err) {
      unmeasured.push(`page weights: ${(err as Error).message.split('\n')[0]}`);
    }
    log('front end: first content visible (Playwright, desktop and throttled phone) …');
    try {
      firstContent = await measureFirstContent(
        origin,
        pages.map((p) => ({ ...p, ...FIRST_CONTENT[p.name as keyof typeof FIRST_CONTENT] })),
        args.lighthouseRuns,
      );
    } catch (err) {
      unmeasured.push(`first content visible: ${(err as Error).message.split('\n')[0]}`);
    }
    if (args.lighthouse) {
      log('front end: Lighthouse (mobile) …');
      lighthouse = await runLighthouse(
        pages.map((p) => ({ name: p.name, url: origin + p.path })),
        args.lighthouseRuns,
      );
    } else unmeasured.push('Lighthouse: skipped (--skip-lighthouse)');
  } else unmeasured.push('front end: skipped (--skip-frontend)');

  // 9. Images.
  let images: ImageBench | null = null;
  if (args.images) {
    log('images: 12 MP uploads …');
    try {
      images = await benchImages(origin, tokens.length > 1 ? tokens.slice(1) : tokens, rss);
    } catch (err) {
      unmeasured.push(`image uploads: ${(err as Error).message}`);
    }
  } else unmeasured.push('image uploads: skipped (--skip-images)');

  // 10. Sizes and shutdown.
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  const walBytes = size(`${dbFile}-wal`);
  rss.stop();
  await stopChild(server, 10_000);
  const dbBytes = size(dbFile);
  const peakRssKb = rss.peakKb;

  // Report.
  const metrics: MetricRow[] = [];
  const homeWeight = weights.find((w) => w.page === 'home');
  metrics.push({
    name: 'RSS peak under load (reads + writes)',
    value: `${mb(loadRssKb).toFixed(0)} MB`,
    target: `≤ ${rssTargetMb(meta.scale)} MB`,
    pass: loadRssKb ? mb(loadRssKb) <= rssTargetMb(meta.scale) : null,
  });
  metrics.push({
    name: 'start-up (spawn → /healthz 200)',
    value: `${Math.round(startupMs)} ms`,
    target: `≤ ${TARGETS.startupMs} ms`,
    pass: startupMs <= TARGETS.startupMs,
    note: startupOtherCores > 0.2 ? `other processes used ${startupOtherCores.toFixed(2)} cores meanwhile` : undefined,
  });
  for (const w of weights) {
    metrics.push({
      name: `${w.page}: JS gzip (${w.jsFiles} files)`,
      value: `${(w.jsGzipBytes / 1024).toFixed(1)} KB`,
      target: w === homeWeight ? `≤ ${TARGETS.homeJsGzipKb} KB` : '-',
      pass: w === homeWeight ? w.jsGzipBytes / 1024 <= TARGETS.homeJsGzipKb && !w.error : null,
      note: w.error,
    });
    metrics.push({ name: `${w.page}: CSS gzip (${w.cssFiles} files)`, value: `${(w.cssGzipBytes / 1024).toFixed(1)} KB`, target: '-', pass: null });
  }
  for (const f of firstContent) {
    metrics.push({
      name: `${f.page}: ${f.what} visible (desktop / phone)`,
      value: f.desktopMs === null || f.phoneMs === null ? `could not run: ${f.error}` : `${f.desktopMs} / ${f.phoneMs} ms`,
      target: '-',
      pass: null,
      note: [`runs: desktop ${f.desktopRuns.join(', ')}; phone (Lighthouse mobile throttling) ${f.phoneRuns.join(', ')}`, f.error].filter(Boolean).join('; '),
    });
  }
  for (const l of lighthouse) {
    if (l.performance === null) {
      metrics.push({
        name: `${l.page}: Lighthouse mobile`,
        value: `could not run: ${l.error}`,
        target: `perf ≥ ${TARGETS.lighthousePerf}, a11y ${TARGETS.lighthouseA11y}, SEO ${TARGETS.lighthouseSeo}`,
        pass: null,
      });
      continue;
    }
    metrics.push({
      name: `${l.page}: Lighthouse perf / a11y / best-pr. / SEO`,
      value: `${l.performance} / ${l.accessibility} / ${l.bestPractices} / ${l.seo}`,
      target: `perf ≥ ${TARGETS.lighthousePerf}, a11y ${TARGETS.lighthouseA11y}, SEO ${TARGETS.lighthouseSeo}`,
      pass: l.performance >= TARGETS.lighthousePerf && l.accessibility === TARGETS.lighthouseA11y && l.seo === TARGETS.lighthouseSeo,
      note: [
        l.error,
        `FCP ${Math.round(l.fcpMs ?? 0)} ms, LCP ${Math.round(l.lcpMs ?? 0)} ms, TBT ${Math.round(l.tbtMs ?? 0)} ms, CLS ${(l.cls ?? 0).toFixed(3)}`,
        l.performanceRuns && `median of ${l.performanceRuns.length} runs, performance per run ${l.performanceRuns.join(', ')}`,
        l.failedRuns?.length && `${l.failedRuns.length} more run(s) gave no scores: ${l.failedRuns.join('; ')}`,
      ]
        .filter(Boolean)
        .join('; '),
    });
  }
  if (images) {
    metrics.push({
      name: `12 MP JPEG upload (${(images.photoBytes / 1e6).toFixed(1)} MB), median of ${images.single.ms.length}`,
      value: images.single.medianMs === null ? 'n/a' : `${Math.round(images.single.medianMs)} ms`,
      target: `≤ ${TARGETS.uploadMs} ms`,
      pass: images.single.medianMs === null ? null : images.single.medianMs <= TARGETS.uploadMs,
      note: images.error ?? `runs: ${images.single.ms.map((m) => Math.round(m)).join(', ')} ms`,
    });
    const okParallel = images.parallel.statuses.filter((s) => s === 200 || s === 201).length;
    metrics.push({
      name: `RSS peak, ${images.parallel.count} parallel uploads`,
      value: `${mb(images.parallel.rssPeakKb).toFixed(0)} MB`,
      target: `≤ ${TARGETS.uploadRssMb} MB`,
      pass: okParallel ? mb(images.parallel.rssPeakKb) <= TARGETS.uploadRssMb : null,
      note: `${okParallel}/${images.parallel.count} ok in ${Math.round(images.parallel.wallMs)} ms`,
    });
  }
  metrics.push({
    name: 'RSS: idle after start / peak whole run',
    value: `${mb(idleRssKb).toFixed(0)} / ${mb(peakRssKb).toFixed(0)} MB`,
    target: '-',
    pass: null,
  });
  metrics.push({
    name: 'database file (+ WAL before shutdown)',
    value: `${(dbBytes / 1e6).toFixed(0)} MB (+ ${(walBytes / 1e6).toFixed(0)} MB)`,
    target: '-',
    pass: null,
  });
  metrics.push({
    name: built ? 'data set build time' : 'data set build time (when made)',
    value: `${(meta.timingsMs.total / 1000).toFixed(1)} s`,
    target: '-',
    pass: null,
    note: `${Object.entries(meta.timingsMs)
      .filter(([k]) => k !== 'total')
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`)
      .join(', ')}`,
  });
  if (buildMs !== null) metrics.push({ name: 'production build time', value: `${(buildMs / 1000).toFixed(1)} s`, target: '-', pass: null });
  metrics.push({
    name: 'correctness: counts = recounts after writes',
    value: failedChecks.length ? `${failedChecks.length} of ${checks.length} checks FAILED` : `${checks.length} checks ok`,
    target: 'all equal',
    pass: failedChecks.length === 0,
  });

  for (const row of rows)
    if (row.pass === null && row.note?.startsWith('not available')) unmeasured.push(`${row.name}: ${row.note.replace(/^not available: /, '')}`);
  const c = meta.counts;
  const header = [
    `Recensera bench — scale ${meta.scale}: ${c.businesses.toLocaleString('en-US')} businesses (${c.branches} branches), ${c.users.toLocaleString('en-US')} users, ${c.comments.toLocaleString('en-US')} comments, ${c.replies.toLocaleString('en-US')} replies, ${c.emojiRatings.toLocaleString('en-US')} emoji ratings, ${c.starRatings.toLocaleString('en-US')} star ratings, ${c.favorites.toLocaleString('en-US')} favourites, ${c.commentPhotos} comments with photos`,
    `autocannon: ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s per endpoint, separate process, keeps the first ${KEPT_BODY_BYTES / 1024} KB of each reply body (counts the rest); machine: ${os.cpus().length} cores, node ${process.version}`,
    args.disableRateLimits
      ? 'RATE LIMITS: per-user limits DISABLED on the server (RATE_LIMITS=0) so writes spread over 200 bench users measure the app, not the 120/min and 6/min caps'
      : 'RATE LIMITS: left ON (--keep-rate-limits); 429s count as non-2xx',
    `other processes on this machine used ${otherCoresDuringLoad.toFixed(2)} of ${os.cpus().length} cores on average during the load phase${otherCoresDuringLoad > 0.2 ? ' — THE MACHINE WAS SHARED; throughput and latency are understated' : ''}`,
  ];
  const output = [
    '',
    ...header,
    '',
    endpointTable(rows),
    '',
    metricTable(metrics),
    '',
    ...[...notesFor(rows), ...metrics.filter((m) => m.note).map((m) => `${m.name}: ${m.note}`), ...notes].map((n) => `note: ${n}`),
    ...unmeasured.map((u) => `not measured: ${u}`),
    ...checks.map(
      (ch) =>
        `check ${ch.mismatches ? 'FAILED' : 'ok'}: ${ch.name} (${ch.checked.toLocaleString('en-US')} rows${ch.mismatches ? `, ${ch.mismatches} wrong` : ''})`,
    ),
    '',
  ].join('\n');
  console.log(output);

  if (args.out) {
    mkdirSync(path.dirname(args.out), { recursive: true });
    writeFileSync(
      args.out,
      JSON.stringify(
        {
          scale: meta.scale,
          counts: meta.counts,
          dataSetTimingsMs: meta.timingsMs,
          buildMs,
          load: { connections: args.connections, warmupSec: args.warmup, durationSec: args.duration },
          machine: { cores: os.cpus().length, node: process.version },
          rateLimitsDisabled: args.disableRateLimits,
          startupMs,
          startupOtherCores,
          rss: { idleKb: idleRssKb, underLoadPeakKb: loadRssKb, wholeRunPeakKb: peakRssKb },
          otherCoresDuringLoad,
          dbBytes,
          walBytes,
          tRPC: trpc,
          endpoints: rows,
          metrics,
          pageWeights: weights,
          firstContent,
          lighthouse,
          images,
          correctness: { ok: failedChecks.length === 0, checks },
          notMeasured: unmeasured,
          notes,
        },
        null,
        2,
      ),
    );
    log(`results written to ${args.out}`);
  }
  if (failedChecks.length) {
    console.error('CORRECTNESS CHECK FAILED — see "check FAILED" lines above. Exit status 1.');
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) console.error(`${err.message}\n\n${HELP}`);
    else console.error(`bench could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  },
);
