/**
 * What keeping notifications costs a write (issue 30 item 4): CPU time per call, in process, of a
 * reply (which notifies the comment's author and the thread's earlier repliers) and of a first
 * emoji reaction (which notifies the post's author), on a copy of a bench data set
 * (`npm run bench -- --data-dir DIR` builds one; this script never writes to DIR itself).
 *
 *   npx tsx scripts/bench/notification-cost.ts DIR [DRAIN_EVERY] [--rounds 5] [--calls 300] [--only REGEX] [--cpu-prof FILE]
 *
 * prints the median µs of CPU per call and how many notification rows the calls wrote, for the
 * service calls and for the whole REST requests (`reply (REST)`, `first reaction (REST)`: Fastify's
 * inject with the bench users' bearer tokens, as the bench's rows send them). The write
 * only queues an event (docs/decisions/020); the rows are written by drainNotificationEvents, which
 * this script runs after every DRAIN_EVERY calls (default 1: each write's fan-out on its own, the
 * worst case) and counts into `withFanOut` (`write` is the request alone); `withMail` adds the
 * mail job's run, once a round, on the rows the fan-out wrote (whom to mail, digests held, the
 * outbox). For the comparison without notifications, empty the bodies of notifyReply and
 * notifyReaction in server/services/notifications/notifications.ts in a scratch checkout and run
 * it there on the same DIR; alternate the two a few times (CPU time, so other processes matter
 * less). The script runs unchanged on a checkout without the queue (it then drains nothing) or
 * without the sliced mail job (it then mails nothing).
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeDb } from '../../db/client';
import { startCheckpointer } from '../../db/checkpointer';
import { buildApp } from '../../server/app';
import type { Actor } from '../../server/services/actor';
import { createReply } from '../../server/services/comments/replies';
import { rateComment } from '../../server/services/comments/comment-ratings';
import * as notificationsModule from '../../server/services/notifications/notifications';
import { benchDeps, copyDataSet, roundsProfiler, runMailJob } from './in-process';
import { multipartBody } from './multipart';

// Absent before the queue (docs/decisions/020): the script also measures older checkouts.
const drain = (notificationsModule as { drainNotificationEvents?: (db: unknown, max?: number) => number }).drainNotificationEvents ?? (() => 0);
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '300' }, only: { type: 'string' }, 'cpu-prof': { type: 'string' } },
});
const drainEvery = Number(positionals[1] ?? 1);
const only = values.only ? new RegExp(values.only, 'i') : null;

const source = positionals[0];
if (!source) throw new Error('usage: notification-cost.ts DATA_DIR [DRAIN_EVERY] [--rounds N] [--calls N] [--only REGEX]');
const { dir, dbFile, db } = copyDataSet(source, 'recensera-notification-cost-');
const deps = benchDeps(db, dir);
// As the server (server/index.ts): the WAL is copied into the file by a worker thread (its CPU
// time counts: process.cpuUsage is the whole process's), so no write pays for an autocheckpoint.
const checkpointer = startCheckpointer(db, dbFile);
const app = await buildApp(deps, { logger: false });
await app.ready();

const meta = JSON.parse(readFileSync(path.join(source, 'bench-meta.json'), 'utf8')) as { benchUsers: { id: string; token: string }[] };
const actors: NonNullable<Actor>[] = meta.benchUsers.map(({ id }) => {
  const u = db.$client.prepare('select id, email, first_name, last_name from users where id = ?').get(id) as Record<string, string>;
  return { id: u.id, email: u.email, firstName: u.first_name, lastName: u.last_name, isAdmin: false, isModerator: false, isBanned: false, language: 'sv' };
});
// Threads with repliers (a reply notifies the author and each other replier) and comments nobody
// in the bench has reacted to yet (a first reaction notifies the author).
const threads = db.$client.prepare('select id from comments where reply_count between 3 and 30 order by rowid limit 400').pluck().all() as string[];
const posts = db.$client.prepare('select id from comments where rating_count = 0 order by rowid limit 4000').pluck().all() as string[];
const notificationRows = () => (db.$client.prepare('select count(*) from notifications').pluck().get() as number) ?? 0;

const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

type Cost = { write: number; withFanOut: number; checkpoint: number; withMail: number };

/**
 * µs of CPU per call: the calls alone, with the fan-out of what they queued, and with the mail
 * job then run on the round's rows (as the server's timer runs it, MAIL_SLICE_ROWS a slice).
 */
async function cpuPerCall(n: number, call: (i: number) => Promise<unknown>): Promise<Cost> {
  let writing = 0;
  let fanOut = 0;
  let checkpointing = 0;
  let mailing = 0;
  for (let i = 0; i < n; i++) {
    const c0 = cpu();
    await call(i);
    const c1 = cpu();
    writing += c1 - c0;
    if ((i + 1) % drainEvery === 0 || i === n - 1) {
      let drained = 0;
      for (let n = drain(db); n > 0; n = drain(db)) drained += n;
      // The server checkpoints in a worker thread (db/checkpointer.ts); without it here, SQLite's
      // autocheckpoint would make the next write pay for the fan-out's pages. Counted as fan-out.
      const c2 = cpu();
      if (drained > 0) db.$client.pragma('wal_checkpoint(PASSIVE)');
      fanOut += cpu() - c1;
      checkpointing += cpu() - c2;
    }
  }
  // The mail job once after the round, as the server's timer runs it every 15 s on what
  // accumulated (run after each call, its fixed cost per run would count hundreds of times).
  const c3 = cpu();
  runMailJob(deps);
  mailing += cpu() - c3;
  return { write: writing / n, withFanOut: (writing + fanOut) / n, checkpoint: checkpointing / n, withMail: (writing + fanOut + mailing) / n };
}

async function inject(options: { url: string; headers: Record<string, string>; payload: string | Buffer }): Promise<void> {
  const res = await app.inject({ method: 'POST', ...options });
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${options.url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
}

let replyNo = 0;
let rateNo = 0;
const cases: [string, (i: number) => Promise<unknown>][] = [
  [
    'reply',
    () => {
      const i = replyNo++;
      return createReply(deps, actors[i % actors.length], { commentId: threads[i % threads.length], text: `Svar nummer ${i} i tråden.` });
    },
  ],
  [
    'first reaction',
    () => {
      const i = rateNo++;
      return rateComment(deps, actors[i % actors.length], { id: posts[i % posts.length], rate: 1 + (i % 5) });
    },
  ],
  [
    'reply (REST)',
    () => {
      const i = replyNo++;
      const form = multipartBody([{ name: 'text', value: `Svar nummer ${i} i tråden.` }]);
      return inject({
        url: `/api/comment/addSubComment/${encodeURIComponent(threads[i % threads.length])}`,
        headers: { 'content-type': form.contentType, authorization: `Bearer ${meta.benchUsers[i % meta.benchUsers.length].token}` },
        payload: form.body,
      });
    },
  ],
  [
    'first reaction (REST)',
    () => {
      const i = rateNo++;
      return inject({
        url: `/api/comment/addRate/${encodeURIComponent(posts[i % posts.length])}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${meta.benchUsers[i % meta.benchUsers.length].token}` },
        payload: JSON.stringify({ rate: 1 + (i % 5) }),
      });
    },
  ],
];

const before = notificationRows();
const out: Record<string, Cost> = {};
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
// The profiler runs only around the measured rounds (name one case with --only to profile it).
const profiler = await roundsProfiler(values['cpu-prof']);
for (const [name, call] of cases) {
  if (only && !only.test(name)) continue;
  await cpuPerCall(100, call); // warm-up
  const rounds: Cost[] = [];
  await profiler.start();
  for (let r = 0; r < Number(values.rounds); r++) rounds.push(await cpuPerCall(Number(values.calls), call));
  await profiler.stop();
  out[name] = {
    write: median(rounds.map((r) => r.write)),
    withFanOut: median(rounds.map((r) => r.withFanOut)),
    checkpoint: median(rounds.map((r) => r.checkpoint)),
    withMail: median(rounds.map((r) => r.withMail)),
  };
}
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(JSON.stringify({ drainEvery, load, cpuMicrosPerCall: out, notificationRowsWritten: notificationRows() - before }));
profiler.save();
await app.close();
await checkpointer.stop();
closeDb(db);
rmSync(dir, { recursive: true, force: true });
