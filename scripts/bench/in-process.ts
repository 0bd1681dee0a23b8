/**
 * What the in-process cost scripts (write-cost, notification-cost, notification-read-cost,
 * fts-batch-cost) share: the services' deps on a copy of a bench data set, with the bench's
 * server settings (RATE_LIMITS=0, SPAM_RULES=0, no mail sent), and a V8 CPU profiler that runs
 * only around the measured rounds.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateDb, openDb, type Db } from '../../db/client';
import { loadEnv } from '../../server/env';
import type { Actor } from '../../server/services/actor';
import type { Deps } from '../../server/services/deps';
import { createRateLimits } from '../../server/services/rate-limits';
import * as mailsModule from '../../server/services/notifications/notification-mails';
import * as maintenanceModule from '../../server/services/ops/maintenance';

/** A copy of the data set in `source` (its database file; an empty uploads folder) in a new temporary folder, opened and migrated: the script never writes to `source`. */
export function copyDataSet(source: string, prefix: string): { dir: string; dbFile: string; db: Db } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbFile = path.join(dir, 'recensera.sqlite');
  copyFileSync(path.join(source, 'recensera.sqlite'), dbFile);
  mkdirSync(path.join(dir, 'uploads'));
  const db = openDb(dbFile);
  migrateDb(db);
  return { dir, dbFile, db };
}

/**
 * Deps for `db`, a copy of a bench data set in `dir`: no limits, no spam rules (BENCH_SPAM_RULES=1
 * turns them on, to measure the rating-burst checks), an outbox that sends nothing, and no group
 * commit (BENCH_GROUP_COMMIT=1 turns it on): the scripts call one write after another, and a
 * service call awaited in a loop never ends its event-loop turn, so every call would share one
 * COMMIT and none would pay for its own (docs/decisions/023).
 */
export function benchDeps(db: Db, dir: string): Deps {
  const spamRules = process.env.BENCH_SPAM_RULES === '1' ? '1' : '0';
  const groupCommit = process.env.BENCH_GROUP_COMMIT === '1' ? '1' : '0';
  return {
    db,
    env: loadEnv({
      DATA_DIR: dir,
      PUBLIC_URL: 'http://localhost:8000',
      LOG_LEVEL: 'silent',
      DEMO_DATA: '0',
      SPAM_RULES: spamRules,
      RATE_LIMITS: '0',
      GROUP_COMMIT: groupCommit,
    }),
    outbox: { enqueue: () => '', deliverDue: async () => {}, stop() {} },
    limits: createRateLimits({ enabled: false }),
    paths: { data: dir, uploads: path.join(dir, 'uploads'), outbox: dir, client: path.join(dir, 'no-client'), backups: dir },
  };
}

/**
 * `--cpu-prof FILE`: a profiler paused through start-up and warm-ups, started and stopped around
 * each case's measured rounds; `save()` writes the first case's profile (name one case with
 * `--only` to profile it). Without a file every call does nothing.
 */
export async function roundsProfiler(file: string | undefined) {
  const session = file ? new Session() : null;
  const profiles: unknown[] = [];
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  return {
    start: async () => {
      if (session) await session.post('Profiler.start');
    },
    stop: async () => {
      if (session) profiles.push((await session.post('Profiler.stop')).profile);
    },
    save: () => {
      if (!session || !file) return;
      writeFileSync(file, JSON.stringify(profiles[0]));
      session.disconnect();
    },
  };
}

/** The bench users as a request's actor gives them to the services (members, Swedish, their account's age). */
export function benchActors(db: Db, ids: readonly string[]): NonNullable<Actor>[] {
  const user = db.$client.prepare('select id, email, first_name, last_name, created_at from users where id = ?');
  return ids.map((id) => {
    const u = user.get(id) as Record<string, string>;
    return {
      id: u.id,
      email: u.email,
      firstName: u.first_name,
      lastName: u.last_name,
      isAdmin: false,
      isModerator: false,
      isBanned: false,
      language: 'sv',
      // As the session lookup gives it to a request's actor.
      joinedAt: Number(u.created_at),
    };
  });
}

// Looked up by name, as the scripts look up the notification queue: they also measure checkouts
// from before the mail job ran in slices (or before it existed); there this does nothing.
const mails = mailsModule as {
  queueNotificationMails?: (deps: Deps, now?: number, batch?: number) => number;
  mailQueueHasMore?: (db: Db) => boolean;
};
const mailSlice = (maintenanceModule as { MAIL_SLICE_ROWS?: number }).MAIL_SLICE_ROWS;

/**
 * The notification mail job on everything due, as the server's maintenance timer runs it
 * (MAIL_SLICE_ROWS rows a slice, until the queue has no more): whom to mail, digests held, the
 * outbox. The server runs it every 15 s, so a bench row sees little of it; the in-process
 * scripts count it (docs/decisions/020, "The mail job's share").
 */
export function runMailJob(deps: Deps): void {
  const { queueNotificationMails, mailQueueHasMore } = mails;
  if (!queueNotificationMails || !mailQueueHasMore || mailSlice === undefined) return;
  do queueNotificationMails(deps, Date.now(), mailSlice);
  while (mailQueueHasMore(deps.db));
}
