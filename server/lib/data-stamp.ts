import type { Db } from '../../db/client';

/** How stale a stamp may be after a write by another process (`npm run admin`, a restore). */
export const OTHER_WRITES_MS = 500;

/**
 * What a kept thing depends on:
 * - `all`: the data (the default, and what any kept thing that does not say otherwise is kept under);
 * - `businesses`: only what the directory and the business lists show (businesses but their
 *   comment count, branches, categories, images), whose version migration 0035's triggers move
 *   on any such write, by any connection;
 * - `business:<id>`: one business's own page, comments and replies: moved by any write except
 *   those declared (`businessWrite`) for other businesses or for the search index only.
 */
export type StampScope = 'all' | 'businesses' | `business:${string}`;

type Stamper = {
  stamp: () => string;
  businesses: () => string;
  business: (id: string) => string;
  ownChanges: () => number;
  unshown: number;
  /** Group commits rolled back: the `businesses` version is read again after one. */
  rollbacks: number;
  /** Changes made by declared writes (`businessWrite`, `searchIndexWrite`). */
  declared: number;
  /** Per business, the changes declared for it. */
  byBusiness: Map<string, number>;
  /** `businesses()` with data_version asked now, not up to OTHER_WRITES_MS ago. */
  freshBusinesses: () => string;
  /** Star-figure writes (`starFiguresWrite`): the `businesses` stamp before → after, and the business. */
  starLinks: Map<string, { to: string; businessId: string }>;
};
const stampers = new WeakMap<Db, Stamper>();

function stamperOf(db: Db): Stamper {
  let stamper = stampers.get(db);
  if (!stamper) {
    const ownChanges = db.$client.prepare('select total_changes()').pluck();
    const otherCommits = db.$client.prepare('pragma data_version').pluck();
    const businessesVersion = db.$client.prepare("select version from kept_versions where scope = 'businesses'").pluck();
    let version = 0;
    let versionCheckedAt = -Infinity;
    const otherVersion = () => {
      const now = performance.now();
      if (now - versionCheckedAt >= OTHER_WRITES_MS) {
        version = otherCommits.get() as number;
        versionCheckedAt = now;
      }
      return version;
    };
    // The businesses' version is read again only when a write of ours or another's commit may have moved it.
    let businessesReadAt = '';
    let businesses = '';
    const made: Stamper = {
      ownChanges: () => ownChanges.get() as number,
      unshown: 0,
      rollbacks: 0,
      declared: 0,
      byBusiness: new Map(),
      starLinks: new Map(),
      freshBusinesses: () => {
        versionCheckedAt = -Infinity;
        return made.businesses();
      },
      stamp: () => `${(ownChanges.get() as number) - made.unshown}.${otherVersion()}`,
      business: (id) => `${(ownChanges.get() as number) - made.unshown - made.declared}.${made.byBusiness.get(id) ?? 0}.${otherVersion()}`,
      businesses: () => {
        // A rollback takes the version back without a change of ours to count: it is named too.
        const at = `${ownChanges.get() as number}.${made.rollbacks}.${otherVersion()}`;
        if (at !== businessesReadAt) {
          businesses = `b${(businessesVersion.get() as number | undefined) ?? 'none'}.${version}`;
          businessesReadAt = at;
        }
        return businesses;
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
 * The stamp of a scope: `dataStamp` for `all`; for `businesses` a value that moves only when a
 * business, branch, category or image is written (by us or another connection: SQL triggers of
 * migration 0035 move its version in the same transaction) or another connection commits
 * anything, so a reaction, a reply, a new comment without stars or a renamed user keep what is
 * kept under it (the directory snapshot, the business lists and their documents). A kept thing
 * may use it only if everything it shows comes from those tables.
 */
export function scopedStamp(db: Db, scope: StampScope): string {
  const stamper = stamperOf(db);
  if (scope === 'all') return stamper.stamp();
  if (scope === 'businesses') return stamper.businesses();
  return stamper.business(scope.slice(BUSINESS_PREFIX.length));
}

const BUSINESS_PREFIX = 'business:';

/** The scope of one business's own pages and lists (`business:<id>`). */
export const businessScope = (businessId: string): StampScope => `${BUSINESS_PREFIX}${businessId}`;

function declaredWrite<T>(db: Db, write: (touches: (businessId: string) => void) => T, searchOnly: boolean): T {
  const stamper = stamperOf(db);
  const before = stamper.ownChanges();
  const unshownBefore = stamper.unshown;
  const named = new Set<string>();
  try {
    return write((businessId) => named.add(businessId));
  } finally {
    // Changes an `unshownWrite` inside made are taken out already: each change is counted once,
    // so the stamps only ever grow and never come back to a value something was kept under.
    const changes = stamper.ownChanges() - before - (stamper.unshown - unshownBefore);
    // A write that named no business (it failed first, or forgot) stays a write of everything.
    if (changes > 0 && (searchOnly || named.size > 0)) {
      stamper.declared += changes;
      for (const id of named) stamper.byBusiness.set(id, (stamper.byBusiness.get(id) ?? 0) + changes);
    }
  }
}

/**
 * Runs a synchronous write that changes only what the businesses it names (`touches(id)`, called
 * inside) show on their own pages and lists, besides the site-wide lists (the feed, searches,
 * profiles: everything kept under `all` still goes): an emoji rating, a star rating, a new
 * comment or reply. Whatever is kept under another business's scope (its page, its comments, its
 * REST document) stays. A write that names no business moves every scope, as an undeclared one
 * does; what it writes to businesses, branches, categories or images moves `businesses` anyway
 * (the triggers).
 *
 * A write may be declared only if every row it writes is shown, if at all, only by the named
 * businesses' pages and by lists kept under `all`: not a user's name or picture (shown beside
 * their posts on every business), not site settings, not another business's posts.
 */
export function businessWrite<T>(db: Db, write: (touches: (businessId: string) => void) => T): T {
  return declaredWrite(db, write, false);
}

/** How many star-figure writes are remembered, and followed at most from a kept thing's stamp. */
const STAR_LINKS_KEPT = 512;

/**
 * Runs a synchronous write that changes, of everything the `businesses` scope covers, only the
 * star figures (rating_sum, rating_count, stars_1..5, and with them the Bayesian score) of the one
 * business named: a star rating given, changed or taken back, with the ratings a rating burst holds
 * at that business. The `businesses` stamp moves as for any write (migration 0035's triggers);
 * what is kept under it may instead bring itself up to date by reading that business again
 * (`starFiguresMovedSince`): at 10,000 businesses the directory's cards cost 86–289 ms to build
 * anew, and the bench's Mix rated a business eight times a second.
 *
 * Anything else the write changes in that scope (a title, a branch, another business's figures)
 * would be missed by such a reader: name it here only for writes that cannot.
 */
export function starFiguresWrite<T>(db: Db, businessId: string, write: () => T): T {
  const stamper = stamperOf(db);
  // Asked afresh: another process's commit since the last look would otherwise fall inside the link.
  const before = stamper.freshBusinesses();
  const result = write();
  const after = stamper.businesses();
  if (after !== before) {
    if (stamper.starLinks.size >= STAR_LINKS_KEPT) stamper.starLinks.clear();
    stamper.starLinks.set(before, { to: after, businessId });
  }
  return result;
}

/**
 * The businesses whose star figures alone moved since the `businesses` stamp `stamp` (an empty set
 * when it is still the stamp), or null when anything else in that scope may have moved too: a
 * write not made through `starFiguresWrite`, another process's commit, or more than
 * STAR_LINKS_KEPT such writes. A thing kept under `stamp` is then up to date once it has read
 * those businesses again.
 */
export function starFiguresMovedSince(db: Db, stamp: string): Set<string> | null {
  const stamper = stamperOf(db);
  const now = stamper.businesses();
  const moved = new Set<string>();
  let at = stamp;
  for (let steps = 0; at !== now; steps++) {
    const link = stamper.starLinks.get(at);
    if (!link || steps >= STAR_LINKS_KEPT) return null;
    moved.add(link.businessId);
    at = link.to;
  }
  return moved;
}

/**
 * Runs a synchronous write to the comment search index only (its queue and FTS rows): searches are
 * kept under `all`, which it moves; no business's own kept pages and lists show the index.
 */
export function searchIndexWrite<T>(db: Db, write: () => T): T {
  return declaredWrite(db, write, true);
}

/**
 * Changes SQLite makes at a COMMIT itself: FTS5 (the comment and business search indexes) writes
 * the terms it held in memory to its own tables then. Nothing a read sees changes: this
 * connection's searches read those pending terms already, and the write that queued them moved
 * the stamp. With group commit (lib/group-commit.ts) that COMMIT runs after the write has
 * returned, so its changes would otherwise count as a write of everything; they are left out,
 * as an `unshownWrite`'s are.
 */
export function countCommitChanges(db: Db, changes: number): void {
  if (changes > 0) stamperOf(db).unshown += changes;
}

/**
 * After writes whose changes were counted and then undone together (a group commit's COMMIT that
 * failed and rolled back, lib/group-commit.ts): what was built from them and kept since goes.
 * Every scope moves on; the stamps only grow.
 */
export function moveStampAfterRollback(db: Db): void {
  const stamper = stamperOf(db);
  stamper.unshown -= 1;
  stamper.rollbacks += 1;
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
