import type { Db } from '../../db/client';

type Preparable = { prepare(): unknown };
export type PreparedOf<Q extends Record<string, Preparable>> = { [K in keyof Q]: ReturnType<Q[K]['prepare']> };

/**
 * Compiles a module's hot statements once per database handle (Drizzle builds and SQLite
 * prepares them on the first call) and hands out the same prepared statements afterwards.
 * better-sqlite3 runs everything on one connection, synchronously, so these statements also run
 * inside a `db.transaction(...)` that the caller has open.
 */
export function preparedStatements<Q extends Record<string, Preparable>>(build: (db: Db) => Q): (db: Db) => PreparedOf<Q> {
  const byDb = new WeakMap<Db, PreparedOf<Q>>();
  return (db) => {
    let found = byDb.get(db);
    if (!found) {
      found = Object.fromEntries(Object.entries(build(db)).map(([name, query]) => [name, query.prepare()])) as PreparedOf<Q>;
      byDb.set(db, found);
    }
    return found;
  };
}
