import Database from 'better-sqlite3';
import { desc, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { alias, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { hasBareLimitParameter, inTransaction, keptLimit, keptParam, preparedStatements } from './prepared';

const numbers = sqliteTable('numbers', { n: integer('n').primaryKey() });
const people = sqliteTable('people', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull(),
  seen: integer('seen', { mode: 'timestamp_ms' }),
  bossId: integer('boss_id'),
});
const sqlite = new Database(':memory:');
sqlite.exec(`CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, active INTEGER NOT NULL, seen INTEGER, boss_id INTEGER);
  INSERT INTO people VALUES (1, 'Åsa', 1, 1700000000000, NULL), (2, 'Örjan', 0, NULL, 1), (3, 'Ebba', 1, 5, 9);`);
sqlite.exec(
  'CREATE TABLE numbers (n INTEGER PRIMARY KEY); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100) INSERT INTO numbers (n) SELECT i FROM c',
);
const db = drizzle(sqlite) as unknown as Db;
afterAll(() => sqlite.close());

const limit = sql.placeholder('limit');

describe('preparedStatements', () => {
  it('refuses a statement whose LIMIT is a bare parameter, which SQLite compiles again on every run', () => {
    const statements = preparedStatements((d: Db) => ({ top: d.select().from(numbers).orderBy(desc(numbers.n)).limit(limit) }));
    expect(() => statements(db)).toThrow(/top: LIMIT is a bare parameter/);
  });

  it('keeps a statement limited by keptLimit, with the bound value honoured on every run', () => {
    const statements = preparedStatements((d: Db) => ({ top: d.select().from(numbers).orderBy(desc(numbers.n)).limit(keptLimit(limit)) }));
    const q = statements(db);
    expect(statements(db)).toBe(q);
    expect(q.top.all({ limit: 3 }).map((r) => r.n)).toEqual([100, 99, 98]);
    expect(q.top.all({ limit: 1 }).map((r) => r.n)).toEqual([100]);
    expect(db.select().from(numbers).limit(keptLimit(2)).toSQL().sql).toMatch(/limit \(\? \+ 0\)$/);
  });

  it('spots a bare LIMIT parameter and nothing else', () => {
    expect(hasBareLimitParameter('select 1 from t limit ?')).toBe(true);
    expect(hasBareLimitParameter('select 1 from t LIMIT  ? offset ?')).toBe(true);
    expect(hasBareLimitParameter('select 1 from t limit (? + 0)')).toBe(false);
    expect(hasBareLimitParameter('select 1 from t where ratelimit ? 1')).toBe(false);
  });
});

describe('rows of prepared selects', () => {
  const boss = alias(people, 'boss');
  const fields = {
    id: people.id,
    name: people.name,
    active: people.active,
    seen: people.seen,
    bossName: boss.name,
    bossActive: boss.active,
    shout: sql<string>`upper(${people.name})`,
    twice: sql`${people.id} * 2`.mapWith(String),
    named: sql<number>`length(${people.name})`.as('named'),
  };
  const build = (d: Db) => d.select(fields).from(people).leftJoin(boss, eq(boss.id, people.bossId)).orderBy(people.id);

  it('are the rows Drizzle itself maps: decoded columns, SQL decoders, nulls of missing joins', () => {
    const statement = preparedStatements((d: Db) => ({ list: build(d) }))(db).list;
    // Our own row mapper is in place (Drizzle's generic one lives on the prototype).
    expect(Object.hasOwn(statement, 'all')).toBe(true);
    const ours = statement.all();
    const drizzles = build(db).prepare().all();
    expect(ours).toEqual(drizzles);
    expect(ours[0]).toEqual({
      id: 1,
      name: 'Åsa',
      active: true,
      seen: new Date(1700000000000),
      bossName: null,
      bossActive: null,
      shout: 'ÅSA',
      twice: '2',
      named: 3,
    });
    expect(ours[1]).toMatchObject({ active: false, seen: null, bossName: 'Åsa', bossActive: true });
    expect(ours[2]).toMatchObject({ bossName: null, bossActive: null, seen: new Date(5) });
  });

  it('one row by get is the row Drizzle maps, with its placeholders bound, and undefined for none', () => {
    const byId = (d: Db) => build(d).where(eq(people.id, sql.placeholder('id')));
    const statement = preparedStatements((d: Db) => ({ one: byId(d) }))(db).one;
    expect(Object.hasOwn(statement, 'get')).toBe(true);
    for (const id of [1, 2, 3]) expect(statement.get({ id })).toEqual(byId(db).prepare().get({ id }));
    expect(statement.get({ id: 2 })).toMatchObject({ name: 'Örjan', active: false, bossName: 'Åsa', twice: '4' });
    expect(statement.get({ id: 99 })).toBeUndefined();
    // The same statement still lists (raw mode stays on for both).
    expect(statement.all({ id: 3 })).toEqual([byId(db).prepare().get({ id: 3 })]);
  });
});

describe('keptParam', () => {
  const boss = alias(people, 'boss');
  const id = sql.placeholder('id');
  const build = (d: Db) =>
    d
      .select({ name: people.name, bossName: boss.name })
      .from(people)
      .innerJoin(boss, eq(boss.id, people.bossId))
      .where(sql`${people.id} = ${keptParam(id)}`);

  it('writes the value as +? and matches what a plain parameter matches, through the index', () => {
    const q = preparedStatements((d: Db) => ({ one: build(d) }))(db).one;
    expect(build(db).toSQL().sql).toMatch(/"people"\."id" = \+\?$/);
    expect(q.get({ id: 2 })).toEqual({ name: 'Örjan', bossName: 'Åsa' });
    expect(q.get({ id: 1 })).toBeUndefined();
    const plan = sqlite.prepare(`explain query plan ${build(db).toSQL().sql}`).all(2) as { detail: string }[];
    expect(plan.map((r) => r.detail)[0]).toMatch(/^SEARCH people USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
  });
});

describe('inTransaction', () => {
  const count = () => sqlite.prepare('select count(*) from numbers').pluck().get() as number;

  it('commits the work and hands back its result', () => {
    const before = count();
    expect(inTransaction(db, () => sqlite.prepare('insert into numbers (n) values (1001)').run().changes)).toBe(1);
    expect(count()).toBe(before + 1);
    expect(sqlite.inTransaction).toBe(false);
  });

  it('rolls everything back when the work throws', () => {
    const before = count();
    expect(() =>
      inTransaction(db, () => {
        sqlite.prepare('insert into numbers (n) values (1002)').run();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(count()).toBe(before);
  });

  it('inside an open transaction is a savepoint: its rollback leaves the outer work in place', () => {
    const before = count();
    db.transaction(() => {
      sqlite.prepare('insert into numbers (n) values (1003)').run();
      expect(() =>
        inTransaction(db, () => {
          sqlite.prepare('insert into numbers (n) values (1004)').run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(count()).toBe(before + 1);
  });
});
