/**
 * What keeping notifications costs a write (issue 30 item 4): CPU time per call, in process, of a
 * reply (which notifies the comment's author and the thread's earlier repliers) and of a first
 * emoji reaction (which notifies the post's author), on a copy of a bench data set
 * (`npm run bench -- --data-dir DIR` builds one; this script never writes to DIR itself).
 *
 *   npx tsx scripts/bench/notification-cost.ts DIR [DRAIN_EVERY]
 *
 * prints the median µs of CPU per call and how many notification rows the calls wrote. The write
 * only queues an event (docs/decisions/020); the rows are written by drainNotificationEvents, which
 * this script runs after every DRAIN_EVERY calls (default 1: each write's fan-out on its own, the
 * worst case) and counts into `withFanOut` (`write` is the request alone). For the comparison
 * without notifications, empty the bodies of notifyReply and notifyReaction in
 * server/services/notifications/notifications.ts in a scratch checkout and run it there on the
 * same DIR; alternate the two a few times (CPU time, so other processes matter less). The script
 * runs unchanged on a checkout without the queue (it then drains nothing).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { closeDb } from '../../db/client';
import type { Actor } from '../../server/services/actor';
import { createReply } from '../../server/services/comments/replies';
import { rateComment } from '../../server/services/comments/comment-ratings';
import * as notificationsModule from '../../server/services/notifications/notifications';
import { benchDeps, copyDataSet } from './in-process';

// Absent before the queue (docs/decisions/020): the script also measures older checkouts.
const drain = (notificationsModule as { drainNotificationEvents?: (db: unknown, max?: number) => number }).drainNotificationEvents ?? (() => 0);
const drainEvery = Number(process.argv[3] ?? 1);

const source = process.argv[2];
if (!source) throw new Error('usage: notification-cost.ts DATA_DIR');
const { dir, db } = copyDataSet(source, 'recensera-notification-cost-');
const deps = benchDeps(db, dir);

const meta = JSON.parse(readFileSync(path.join(source, 'bench-meta.json'), 'utf8')) as { benchUsers: { id: string }[] };
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

/** µs of CPU per call: the calls alone, and with the fan-out of what they queued. */
async function cpuPerCall(n: number, call: (i: number) => Promise<unknown>): Promise<{ write: number; withFanOut: number; checkpoint: number }> {
  let writing = 0;
  let fanOut = 0;
  let checkpointing = 0;
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
  return { write: writing / n, withFanOut: (writing + fanOut) / n, checkpoint: checkpointing / n };
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
];

const before = notificationRows();
const out: Record<string, { write: number; withFanOut: number; checkpoint: number }> = {};
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
for (const [name, call] of cases) {
  await cpuPerCall(100, call); // warm-up
  const rounds: { write: number; withFanOut: number; checkpoint: number }[] = [];
  for (let r = 0; r < 5; r++) rounds.push(await cpuPerCall(300, call));
  out[name] = {
    write: median(rounds.map((r) => r.write)),
    withFanOut: median(rounds.map((r) => r.withFanOut)),
    checkpoint: median(rounds.map((r) => r.checkpoint)),
  };
}
console.log(JSON.stringify({ drainEvery, cpuMicrosPerCall: out, notificationRowsWritten: notificationRows() - before }));
closeDb(db);
rmSync(dir, { recursive: true, force: true });
