import Database from 'better-sqlite3';
import { desc, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { hasBareLimitParameter, keptLimit, preparedStatements } from './prepared';

const numbers = sqliteTable('numbers', { n: integer('n').primaryKey() });
const sqlite = new Database(':memory:');
sqlite.exec('CREATE TABLE numbers (n INTEGER PRIMARY KEY); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100) INSERT INTO numbers (n) SELECT i FROM c');
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
