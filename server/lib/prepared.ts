import Database from 'better-sqlite3';
import { Column, fillPlaceholders, is, SQL, sql, type Placeholder } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { joinGroup } from './group-commit';

type Preparable = { prepare(): unknown };
export type PreparedOf<Q extends Record<string, Preparable>> = { [K in keyof Q]: ReturnType<Q[K]['prepare']> };

/**
 * The LIMIT of a prepared statement: `(? + 0)` instead of Drizzle's `limit ?`. SQLite (3.53, as
 * better-sqlite3 ships it) plans a bare `LIMIT ?` with the value bound at the time and marks the
 * statement expired whenever that parameter is bound again, so every run compiled the whole
 * statement anew on every call. An expression is not read while planning, and the compiled
 * statement is kept (docs/decisions/003 has the measurements).
 */
export function keptLimit(value: number | Placeholder): number {
  // Drizzle writes an SQL chunk given as LIMIT as it is; its type only names numbers and placeholders.
  return sql`(${value} + 0)` as unknown as number;
}

const transactionRunners = new WeakMap<Db, (work: () => unknown) => unknown>();

/**
 * Runs `work` in one transaction on `db`'s connection (a savepoint inside a transaction already
 * open), like `db.transaction(() => work())`, for the most frequent writes. Drizzle's
 * `db.transaction` builds a transaction object per call, with a relational query builder for
 * every table of the schema, and better-sqlite3 a new wrapper function: about a tenth of a
 * reaction's CPU time in a profile. This wrapper is made once per database handle. The work
 * uses `db` itself (one connection, so its statements run inside this transaction).
 */
export function inTransaction<T>(db: Db, work: () => T): T {
  let run = transactionRunners.get(db);
  if (!run) {
    // better-sqlite3's own transaction(), not group commit's wrapper: joinGroup below does its part.
    run = Database.prototype.transaction.call(db.$client, (w: () => unknown) => w());
    transactionRunners.set(db, run);
  }
  // With group commit (lib/group-commit.ts) this opens or joins the turn's group; the work then
  // runs as a savepoint inside it.
  joinGroup(db.$client);
  return run(work) as T;
}

/**
 * A compared value as `+?` instead of `?`. In a statement SQLite plans in full (a join, an
 * aggregate; a single-table lookup by a unique key takes a shortcut) the planner looks at the
 * values bound to `column = ?` terms, and SQLite (3.54, as better-sqlite3 ships it) then compiles
 * the statement anew whenever such a parameter is bound again: the session lookup, a join of
 * two primary-key lookups, took 27 µs a run instead of 3 µs (docs/decisions/003). A unary plus
 * is an expression the planner does not evaluate; the index is still used for the term (the
 * query-plan tests check it), and the value keeps the column's affinity as `?` does.
 */
export function keptParam(value: Placeholder): SQL {
  return sql`+${value}`;
}

/** True when `text` (a statement's SQL) has a LIMIT that is a bare parameter (see keptLimit). */
export const hasBareLimitParameter = (text: string) => /\blimit\s+\?/i.test(text);

/**
 * Compiles a module's hot statements once per database handle (Drizzle builds and SQLite
 * prepares them on the first call) and hands out the same prepared statements afterwards.
 * better-sqlite3 runs everything on one connection, synchronously, so these statements also run
 * inside a `db.transaction(...)` that the caller has open. A statement whose LIMIT is a bare
 * parameter is refused: SQLite would compile it again on every run (keptLimit).
 */
export function preparedStatements<Q extends Record<string, Preparable>>(build: (db: Db) => Q): (db: Db) => PreparedOf<Q> {
  const byDb = new WeakMap<Db, PreparedOf<Q>>();
  return (db) => {
    let found = byDb.get(db);
    if (!found) {
      const queries = Object.entries(build(db));
      for (const [name, query] of queries) {
        const text = 'toSQL' in query && typeof query.toSQL === 'function' ? (query as { toSQL(): { sql: string } }).toSQL().sql : '';
        if (hasBareLimitParameter(text))
          throw new Error(`prepared statement ${name}: LIMIT is a bare parameter, which SQLite recompiles on every run; use keptLimit()`);
      }
      found = Object.fromEntries(queries.map(([name, query]) => [name, withFlatRows(query.prepare())])) as PreparedOf<Q>;
      byDb.set(db, found);
    }
    return found;
  };
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };
/** What a Drizzle prepared select carries (drizzle-orm/better-sqlite3/session.js): its ordered fields and raw rows. */
type DrizzleSelect = {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  values(params?: Record<string, unknown>): unknown[][];
  /** The better-sqlite3 statement and the query's parameters (placeholders among them). */
  stmt: { raw(toggle?: boolean): { get(...params: unknown[]): unknown[] | undefined } };
  query: { params: unknown[] };
};

/**
 * Reads the rows of a prepared select of flat fields (`db.select({ a: t.a, b: alias.b })`) with
 * a mapper made once per statement: Drizzle's own maps every value of every row through a
 * generic walk (`is()` checks on the field and a path per value), a large share of a comment
 * page's time (docs/decisions/003). Values are decoded as Drizzle does (a column's
 * mapFromDriverValue, an SQL field's decoder; null stays null). Anything else (nested selections,
 * custom mappers, inserts and updates without RETURNING) keeps Drizzle's methods.
 */
function withFlatRows<P>(prepared: P): P {
  const select = prepared as unknown as DrizzleSelect;
  const fields = select.fields;
  if (!fields || fields.length === 0 || select.customResultMapper || fields.some((f) => f.path.length !== 1)) return prepared;
  const keys = fields.map((f) => f.path[0]);
  const decoders: (Decoder | null)[] = fields.map(({ field }) => {
    if (is(field, Column)) return field;
    // `decoder` is what Drizzle's own mapper reads (mapWith sets it); its type keeps it internal.
    if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
    if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
    throw new Error(`withFlatRows: unexpected field ${String(field)}`);
  });
  const rowOf = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      row[keys[i]] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
    }
    return row;
  };
  return Object.assign(Object.create(prepared as object) as object, {
    all: (params?: Record<string, unknown>) => select.values(params).map(rowOf),
    // One row, read raw as Drizzle's own get does (it maps it through the generic walk); the
    // lookups of every write (the session, a rating's target and previous rate) go through here.
    get: (params?: Record<string, unknown>) => {
      const values = select.stmt.raw().get(...fillPlaceholders(select.query.params, params ?? {}));
      return values === undefined ? undefined : rowOf(values);
    },
  }) as P;
}
