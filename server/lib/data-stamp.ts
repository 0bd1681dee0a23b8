import type { Db } from '../../db/client';

/** How stale a stamp may be after a write by another process (`npm run admin`, a restore). */
export const OTHER_WRITES_MS = 500;

type Stamper = { stamp: () => string; ownChanges: () => number; unshown: number };
const stampers = new WeakMap<Db, Stamper>();

function stamperOf(db: Db): Stamper {
  let stamper = stampers.get(db);
  if (!stamper) {
    const ownChanges = db.$client.prepare('select total_changes()').pluck();
    const otherCommits = db.$client.prepare('pragma data_version').pluck();
    let version = 0;
    let versionCheckedAt = -Infinity;
    const made: Stamper = {
      ownChanges: () => ownChanges.get() as number,
      unshown: 0,
      stamp: () => {
        const now = performance.now();
        if (now - versionCheckedAt >= OTHER_WRITES_MS) {
          version = otherCommits.get() as number;
          versionCheckedAt = now;
        }
        return `${(ownChanges.get() as number) - made.unshown}.${version}`;
      },
    };
    stamper = made;
    stampers.set(db, stamper);
  }
  return stamper;
}

/**
 * A value that changes whenever the database may have changed: SQLite's total_changes() of our
 * connection (every write we make, seen at once and costing a fraction of a microsecond to ask)
 * plus data_version, which moves when another connection commits; that one costs more to ask, so
 * it is looked at every OTHER_WRITES_MS. Anything derived from the data and kept in memory (the
 * public reply cache, the directory snapshot) is valid while the stamp it was built under holds.
 * Writes made through `unshownWrite` do not count.
 */
export function dataStamp(db: Db): string {
  return stamperOf(db).stamp();
}

/**
 * Runs a write that nothing kept under the stamp shows, without moving the stamp: the
 * maintenance timers' notification rows, watermarks, mail queue and expired sessions, which only
 * their signed-in owner reads (never kept). At scale 10 the mail job's favourite pull wrote one
 * small transaction every few milliseconds for minutes after a start; each emptied the public
 * cache and the directory snapshot, so visitors' lists and searches were built again and again
 * (issue 32: the most-replied feed at 0.18×, a town search's p99 318 ms).
 *
 * `write` must be synchronous and must write nothing that a public reply, page, search or the
 * directory shows (comments, replies, ratings, businesses, users' names and pictures, settings):
 * those stay stale until the next counted write.
 */
export function unshownWrite<T>(db: Db, write: () => T): T {
  const stamper = stamperOf(db);
  const before = stamper.ownChanges();
  try {
    return write();
  } finally {
    stamper.unshown += stamper.ownChanges() - before;
  }
}
