import { setImmediate as atTurnEnd } from 'node:timers';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';

/**
 * Group commit (docs/decisions/023): the server's write transactions that run in one turn of the
 * event loop share one SQLite COMMIT, and no reply leaves before the COMMIT that holds what it
 * read or wrote.
 *
 * A write used to pay for a COMMIT of its own: writing its pages to the WAL and the WAL index, and
 * the checkpointer copying them back. A reaction's statements take ~60 µs, its commit twice that;
 * fifty clients reacting at once wrote the same index pages fifty times.
 *
 * How: the first transaction of a turn (better-sqlite3's `transaction()`, which Drizzle's
 * `db.transaction` and lib/prepared.ts `inTransaction` both use) opens `BEGIN IMMEDIATE` first,
 * and a `setImmediate` commits it at the end of the turn. Inside that group every transaction
 * runs as better-sqlite3 runs a nested one: a SAVEPOINT, rolled back alone when its work throws,
 * so a request that fails leaves nothing, as before, and the others of its group are kept. The
 * `onSend` hook (installGroupCommitBarrier) holds every reply while a group is open until that
 * group has committed: a client never sees a write that is not yet on disk. If the COMMIT itself
 * fails (a full disk), the group is rolled back and the replies waiting on it fail with the error.
 *
 * Off with GROUP_COMMIT=0 (server/env.ts): then nothing here is installed and every transaction
 * commits on its own. Only the server's connection groups; the CLI's, the checkpointer's and
 * migrations' do not (migrations run before the app is built).
 */
export type GroupCommit = {
  /** The open group's commit, or null when no group is open. */
  pending(): Promise<void> | null;
  /** Commits the open group now (shutdown, a test). */
  flush(): void;
  /** How many groups and transactions ran (tests, the bench). */
  stats(): { groups: number; transactions: number };
  /** Flushes and puts the connection's own `transaction()` back. */
  uninstall(): void;
};

const installed = new WeakMap<Database.Database, GroupCommit & { join(): void }>();

/**
 * For lib/prepared.ts `inTransaction`, which keeps one transaction function per connection made
 * with better-sqlite3's own `transaction()`: joins (or opens) the connection's group first. Does
 * nothing on a connection without group commit.
 */
export function joinGroup(sqlite: Database.Database): void {
  installed.get(sqlite)?.join();
}

/** Commits the connection's open group now, if it has one (a test that then opens a second connection). */
export function flushGroup(sqlite: Database.Database): void {
  installed.get(sqlite)?.flush();
}

export type GroupCommitOptions = {
  /** A failed COMMIT (logged by the server). */
  onError?: (err: unknown) => void;
  /**
   * Rows SQLite changed at the COMMIT itself: FTS5 writes the terms it held in memory to its own
   * tables then (lib/data-stamp.ts countCommitChanges).
   */
  onCommitChanges?: (changes: number) => void;
};

export function installGroupCommit(sqlite: Database.Database, options: GroupCommitOptions = {}): GroupCommit {
  const { onError = () => {}, onCommitChanges = () => {} } = options;
  const existing = installed.get(sqlite);
  if (existing) return existing;
  const totalChanges = sqlite.prepare('SELECT total_changes()').pluck();
  let open: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | null = null;
  let groups = 0;
  let transactions = 0;

  const commit = () => {
    const group = open;
    if (!group) return;
    open = null;
    try {
      // A statement error SQLite answers with a rollback of its own (SQLITE_FULL, SQLITE_IOERR)
      // may already have ended the transaction.
      if (sqlite.inTransaction) {
        const before = totalChanges.get() as number;
        sqlite.exec('COMMIT');
        onCommitChanges((totalChanges.get() as number) - before);
      }
      group.resolve();
    } catch (err) {
      if (sqlite.inTransaction) {
        try {
          sqlite.exec('ROLLBACK');
        } catch {
          // The connection already rolled back.
        }
      }
      onError(err);
      group.reject(err);
    }
  };

  const join = () => {
    transactions++;
    if (open || sqlite.inTransaction) return;
    sqlite.exec('BEGIN IMMEDIATE');
    groups++;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be waiting (a write outside a request): a failed commit is reported by onError.
    promise.catch(() => {});
    open = { promise, resolve, reject };
    // node:timers' own function, not the global one a test's fake timers replace: a group must
    // commit at the end of its turn whatever the test does with its clocks.
    atTurnEnd(commit);
  };

  // An own property over the prototype's method (better-sqlite3's own, which uninstall uncovers).
  Object.defineProperty(sqlite, 'transaction', {
    configurable: true,
    writable: true,
    value: function transaction(fn: (...args: never[]) => unknown) {
      const tx = Database.prototype.transaction.call(sqlite, fn);
      const variant =
        (name: 'default' | 'deferred' | 'immediate' | 'exclusive') =>
        (...args: unknown[]) => {
          join();
          return tx[name](...args);
        };
      return Object.assign(variant('default'), {
        deferred: variant('deferred'),
        immediate: variant('immediate'),
        exclusive: variant('exclusive'),
        default: variant('default'),
        database: sqlite,
      });
    },
  });

  const control = {
    join,
    pending: () => open?.promise ?? null,
    flush: commit,
    stats: () => ({ groups, transactions }),
    uninstall() {
      commit();
      delete (sqlite as { transaction?: unknown }).transaction;
      installed.delete(sqlite);
    },
  };
  installed.set(sqlite, control);
  return control;
}

/**
 * Holds each reply until the group open when it is sent has committed (registered first, so the
 * public cache keeps only committed replies). A callback hook: no promise for the common case
 * of no open group.
 */
export function installGroupCommitBarrier(app: FastifyInstance, group: GroupCommit): void {
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const pending = group.pending();
    if (!pending) return done(null, payload);
    pending.then(
      () => done(null, payload),
      (err: unknown) => done(err as Error),
    );
  });
}
