/**
 * What the bench's write rows cost the server (issue 32 item 3, issue 30 item 4): CPU time per
 * call, in process, of a new comment, an emoji reaction and a star rating, each through the
 * service and through the whole REST request, and of a reply through REST (Fastify's inject:
 * routing, the session lookup, multipart or JSON parsing, the reply's shaping and serialization;
 * no sockets), with the notices the calls queued written after each round (as the server's timer
 * does) and the mail job then run on them (the bench's rows see little of it: the server runs it
 * every 15 s), on a copy of a bench data set (`npm run bench -- --data-dir DIR` builds one; this
 * script never writes to DIR itself).
 *
 *   npx tsx scripts/bench/write-cost.ts DIR [--rounds 5] [--calls 300] [--only REGEX] [--keep-copy] [--cpu-prof FILE]
 *
 * prints the median µs of CPU per call of each case (and its rounds), with the server settings
 * of the bench (RATE_LIMITS=0, SPAM_RULES=0; BENCH_SPAM_RULES=1 turns the spam rules and rating-burst
 * checks on, BENCH_USERS_AGE_DAYS=N dates the bench users' accounts N days back in the copy). CPU time, so other processes on a shared machine
 * matter less than they do to wall time; alternate A and B runs a few times all the same. Per
 * CPU-second a case sustains 1,000,000 / µs calls, the most one Node process can serve.
 * `--cpu-prof FILE` writes a V8 CPU profile of the measured rounds only (no start-up, no warm-up),
 * for Chrome DevTools or `scripts/bench/profile-summary.ts FILE`.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeDb } from '../../db/client';
import { startCheckpointer } from '../../db/checkpointer';
import { buildApp } from '../../server/app';
import { createComment } from '../../server/services/comments/comments';
import { rateComment } from '../../server/services/comments/comment-ratings';
import { rateBusiness } from '../../server/services/business/business-ratings';
import { benchActors, benchDeps, copyDataSet, roundsProfiler, runMailJob } from './in-process';
import { multipartBody } from './multipart';
import * as notificationsModule from '../../server/services/notifications/notifications';

// The notices of the replies and reactions the calls queued (docs/decisions/020) are part of their
// cost: written after each round as the server's timer would, in batches of up to 1,000. Looked up
// by name so that the script also measures a checkout without the queue.
const drain = (notificationsModule as { drainNotificationEvents?: (db: unknown, max?: number) => number }).drainNotificationEvents ?? (() => 0);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '300' },
    only: { type: 'string' },
    'keep-copy': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const source = positionals[0];
if (!source) throw new Error('usage: write-cost.ts DATA_DIR [--rounds N] [--calls N] [--only REGEX] [--keep-copy]');
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const only = values.only ? new RegExp(values.only, 'i') : null;

const { dir, dbFile, db } = copyDataSet(source, 'recensera-write-cost-');
// As the server does (server/index.ts): the WAL is copied into the file by a worker thread, whose
// CPU time counts here too (process.cpuUsage is the whole process's).
const checkpointer = startCheckpointer(db, dbFile);
const deps = benchDeps(db, dir);
const app = await buildApp(deps, { logger: false });
await app.ready();

type Meta = {
  benchUsers: { id: string; token: string }[];
  ratingPool: string[];
  businessIds: string[];
  commentTargets: { businessId: string; locations: string[] }[];
};
const meta = JSON.parse(readFileSync(path.join(source, 'bench-meta.json'), 'utf8')) as Meta;
// BENCH_USERS_AGE_DAYS=N dates the bench users' accounts N days back in the copy: with
// BENCH_SPAM_RULES=1, 30 measures established raters, 1 young ones (the rating-burst checks).
if (process.env.BENCH_USERS_AGE_DAYS) {
  const joined = Date.now() - Number(process.env.BENCH_USERS_AGE_DAYS) * 86_400_000;
  const date = db.$client.prepare('update users set created_at = ? where id = ?');
  for (const { id } of meta.benchUsers) date.run(joined, id);
}
const actors = benchActors(
  db,
  meta.benchUsers.map((u) => u.id),
);

// The same spread as the bench's load runner (scripts/bench/load-runner.ts), drawn from a fixed
// sequence so that A and B make the same calls.
let seed = 42;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
const rate = () => 1 + Math.floor(next() * 5);
let serial = 0;
const commentText = () => `Bänktest ${process.pid}-${++serial}: personalen var trevlig och kön gick snabbt. Kommer gärna tillbaka.`;

async function inject(options: { url: string; headers: Record<string, string>; payload: string | Buffer }): Promise<void> {
  const res = await app.inject({ method: 'POST', ...options });
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${options.url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
}

const cases: [string, () => Promise<unknown>][] = [
  [
    'new comment (service)',
    () => {
      const t = pick(meta.commentTargets);
      return createComment(deps, pick(actors), { businessId: t.businessId, text: commentText(), businessLocation: pick(t.locations) });
    },
  ],
  [
    'new comment (REST)',
    () => {
      const t = pick(meta.commentTargets);
      const form = multipartBody([
        { name: 'text', value: commentText() },
        { name: 'businessLocation', value: pick(t.locations) },
      ]);
      return inject({
        url: `/api/comment/create/${encodeURIComponent(t.businessId)}`,
        headers: { 'content-type': form.contentType, authorization: `Bearer ${pick(meta.benchUsers).token}` },
        payload: form.body,
      });
    },
  ],
  ['emoji reaction (service)', () => rateComment(deps, pick(actors), { id: pick(meta.ratingPool), rate: rate() })],
  [
    'emoji reaction (REST)',
    () =>
      inject({
        url: `/api/comment/addRate/${encodeURIComponent(pick(meta.ratingPool))}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(meta.benchUsers).token}` },
        payload: JSON.stringify({ rate: rate() }),
      }),
  ],
  [
    // To the rating pool's reviews, as the bench's reply row also does: popular threads, whose
    // earlier repliers (up to 50 a reply) and author hear of it, at once by mail by default.
    'reply (REST)',
    () => {
      const form = multipartBody([{ name: 'text', value: `Bänksvar ${process.pid}-${++serial}: håller med.` }]);
      return inject({
        url: `/api/comment/addSubComment/${encodeURIComponent(pick(meta.ratingPool))}`,
        headers: { 'content-type': form.contentType, authorization: `Bearer ${pick(meta.benchUsers).token}` },
        payload: form.body,
      });
    },
  ],
  ['star rating (service)', () => rateBusiness(deps, pick(actors), pick(meta.businessIds), rate())],
  [
    'star rating (REST)',
    () =>
      inject({
        url: `/api/business/addRate/${encodeURIComponent(pick(meta.businessIds))}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(meta.benchUsers).token}` },
        payload: JSON.stringify({ rate: rate() }),
      }),
  ],
];

/** CPU µs per call spent writing the calls' notices (part of cpuPerCall's figure), per round. */
const noticeMicros: number[] = [];
/** CPU µs per call the mail job then spends on those notices (part of cpuPerCall's figure), per round. */
const mailMicros: number[] = [];

async function cpuPerCall(n: number, call: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const d0 = process.cpuUsage();
  while (drain(db, 1_000) > 0);
  const d = process.cpuUsage(d0);
  noticeMicros.push((d.user + d.system) / n);
  // The mail job, as the server's maintenance timer runs it (MAIL_SLICE_ROWS at a time), on what
  // the round's notices left for it: whom to mail, digests held, the outbox.
  const m0 = process.cpuUsage();
  runMailJob(deps);
  const m = process.cpuUsage(m0);
  mailMicros.push((m.user + m.system) / n);
  // The search indexing a new comment schedules (INDEX_DELAY_MS later) is part of its cost.
  await new Promise((resolve) => setTimeout(resolve, 250));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

// The profiler runs only around the measured rounds (it is paused through start-up and warm-ups).
const profiler = await roundsProfiler(values['cpu-prof']);

const out: Record<string, { median: number; perCpuSecond: number; rounds: number[]; notices: number; mail: number }> = {};
for (const [name, call] of cases) {
  if (only && !only.test(name)) continue;
  await cpuPerCall(100, call); // warm-up
  await profiler.start();
  const measured: number[] = [];
  noticeMicros.length = 0;
  mailMicros.length = 0;
  for (let r = 0; r < rounds; r++) measured.push(Math.round(await cpuPerCall(calls, call)));
  const notices = Math.round([...noticeMicros].sort((a, b) => a - b)[Math.floor(rounds / 2)]);
  const mail = Math.round([...mailMicros].sort((a, b) => a - b)[Math.floor(rounds / 2)]);
  await profiler.stop();
  const median = [...measured].sort((a, b) => a - b)[Math.floor(rounds / 2)];
  out[name] = { median, perCpuSecond: Math.round(1e6 / median), rounds: measured, notices, mail };
  console.log(
    `${name.padEnd(26)} ${String(median).padStart(6)} µs CPU/call  (${Math.round(1e6 / median)} per CPU-s; rounds ${measured.join(', ')}; notices' batch ${notices}, mail job ${mail} µs/call)`,
  );
}
console.log(
  JSON.stringify({
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    cpuMicrosPerCall: out,
    rssMb: Math.round(process.memoryUsage().rss / 1048576),
    heapTotalMb: Math.round(process.memoryUsage().heapTotal / 1048576),
  }),
);
profiler.save();
await app.close();
await checkpointer.stop();
closeDb(db);
if (values['keep-copy']) console.log(`copy kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
