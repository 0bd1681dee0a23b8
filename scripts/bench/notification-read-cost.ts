/**
 * What a member's bell and notifications list cost the server (issue 30, done-when 3): CPU time
 * per call, in process, of `GET /api/notifications` and of the bell's `notifications.unread`
 * (Fastify's inject: routing, the session lookup, the catch-up, the queries, serialization and
 * compression; no sockets), and of their parts alone (the session lookup, the catch-up, the list,
 * the count), for the bench user with the most notifications, on a copy of a bench data set
 * (`npm run bench -- --data-dir DIR` builds one; this script never writes to DIR itself).
 *
 *   npx tsx scripts/bench/notification-read-cost.ts DIR [--rounds 5] [--calls 1000] [--only REGEX] [--cpu-prof FILE]
 *
 * prints the median µs of CPU per call of each case (and its rounds). CPU time, so other
 * processes on a shared machine matter less than they do to wall time; alternate A and B runs a
 * few times all the same. `--cpu-prof FILE` writes a V8 CPU profile of the measured rounds of the
 * first case run (name one with --only).
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeDb } from '../../db/client';
import { startCheckpointer } from '../../db/checkpointer';
import { buildApp } from '../../server/app';
import { validateSessionToken } from '../../server/services/accounts/sessions';
import { drainNotificationEvents, listNotifications, unreadCount } from '../../server/services/notifications/notifications';
import { pullFavoriteReviews } from '../../server/services/notifications/favorite-reviews';
import { benchDeps, copyDataSet, roundsProfiler } from './in-process';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '1000' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const source = positionals[0];
if (!source) throw new Error('usage: notification-read-cost.ts DATA_DIR [--rounds N] [--calls N] [--only REGEX] [--cpu-prof FILE]');
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const only = values.only ? new RegExp(values.only, 'i') : null;

const { dir, dbFile, db } = copyDataSet(source, 'recensera-read-cost-');
const checkpointer = startCheckpointer(db, dbFile);
const deps = benchDeps(db, dir);
const app = await buildApp(deps, { logger: false });
await app.ready();

// The bench's choice (scripts/bench/index.ts): the bench user with the most notifications.
const meta = JSON.parse(readFileSync(path.join(source, 'bench-meta.json'), 'utf8')) as { benchUsers: { id: string; token: string }[] };
const ids = meta.benchUsers.map((u) => u.id);
const most = db.$client
  .prepare(
    `select user_id as userId, count(*) as n from notifications where user_id in (${ids.map(() => '?').join(',')}) group by user_id order by n desc limit 1`,
  )
  .get(...ids) as { userId: string; n: number } | undefined;
if (!most) throw new Error('no bench user has notifications (run the bench reply row on DIR first)');
const user = meta.benchUsers.find((u) => u.id === most.userId)!;
const unreadRows = db.$client.prepare('select count(*) from notifications where user_id = ? and read_at is null').pluck().get(user.id) as number;
const favouriteCount = db.$client.prepare('select count(*) from favorites where user_id = ?').pluck().get(user.id) as number;
console.log(`user ${user.id}: ${most.n} notifications (${unreadRows} unread), ${favouriteCount} favourites`);
const actor = validateSessionToken(db, user.token)!.actor;
const headers = { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br, gzip' };

async function get(url: string): Promise<void> {
  const res = await app.inject({ method: 'GET', url, headers });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
}

const cases: [string, () => unknown][] = [
  ['list (REST)', () => get('/api/notifications')],
  ['unread (tRPC)', () => get('/trpc/notifications.unread')],
  ['list (service)', () => listNotifications(deps, actor, {})],
  ['unread (service)', () => unreadCount(deps, actor)],
  ['session lookup', () => validateSessionToken(db, user.token)],
  [
    'catch-up',
    () => {
      drainNotificationEvents(db);
      pullFavoriteReviews(db, user.id, Date.now());
    },
  ],
  ['healthz (Fastify alone)', () => app.inject({ method: 'GET', url: '/healthz' })],
  [
    'unread (service) after a turn',
    async () => {
      await new Promise((resolve) => setImmediate(resolve));
      unreadCount(deps, actor);
    },
  ],
];

async function cpuPerCall(n: number, call: () => unknown): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

const profiler = await roundsProfiler(values['cpu-prof']);
const out: Record<string, { median: number; perCpuSecond: number; rounds: number[] }> = {};
for (const [name, call] of cases) {
  if (only && !only.test(name)) continue;
  await cpuPerCall(Math.min(calls, 300), call); // warm-up
  await profiler.start();
  const measured: number[] = [];
  for (let r = 0; r < rounds; r++) measured.push(Math.round(await cpuPerCall(calls, call)));
  await profiler.stop();
  const median = [...measured].sort((a, b) => a - b)[Math.floor(rounds / 2)];
  out[name] = { median, perCpuSecond: Math.round(1e6 / median), rounds: measured };
  console.log(`${name.padEnd(24)} ${String(median).padStart(6)} µs CPU/call  (${Math.round(1e6 / median)} per CPU-s; rounds ${measured.join(', ')})`);
}
const changes = db.$client.prepare('select total_changes()').pluck().get() as number;
console.log(
  JSON.stringify({
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    totalChanges: changes,
    cpuMicrosPerCall: out,
  }),
);
profiler.save();
await app.close();
await checkpointer.stop();
closeDb(db);
rmSync(dir, { recursive: true, force: true });
