import type { Db } from '../../db/client';

/** How stale a stamp may be after a write by another process (`npm run admin`, a restore). */
export const OTHER_WRITES_MS = 500;

const stamps = new WeakMap<Db, () => string>();

/**
 * A value that changes whenever the database may have changed: SQLite's total_changes() of our
 * connection (every write we make, seen at once and costing a fraction of a microsecond to ask)
 * plus data_version, which moves when another connection commits; that one costs more to ask, so
 * it is looked at every OTHER_WRITES_MS. Anything derived from the data and kept in memory (the
 * public reply cache, the directory snapshot) is valid while the stamp it was built under holds.
 */
export function dataStamp(db: Db): string {
  let stamp = stamps.get(db);
  if (!stamp) {
    const ownChanges = db.$client.prepare('select total_changes()').pluck();
    const otherCommits = db.$client.prepare('pragma data_version').pluck();
    let version = 0;
    let versionCheckedAt = -Infinity;
    stamp = () => {
      const now = performance.now();
      if (now - versionCheckedAt >= OTHER_WRITES_MS) {
        version = otherCommits.get() as number;
        versionCheckedAt = now;
      }
      return `${ownChanges.get() as number}.${version}`;
    };
    stamps.set(db, stamp);
  }
  return stamp();
}
