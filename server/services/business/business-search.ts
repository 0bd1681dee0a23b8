import type { Statement } from 'better-sqlite3';
import { eq, inArray, sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { branches, businesses, categories } from '../../../db/schema';
import { searchFold } from '../../lib/sv-fold';

// The directory search (issue 31.4): one box finds businesses by title, category (Swedish and
// English), town and description, folded by searchFold (case, accents, å/ä/ö typed as a/a/o),
// ranked title first, then category, town, description. Each business has one row in the FTS5
// table business_search (migration 0019, trigram tokenizer: any substring of three characters or
// more is an index lookup). Its SQL is SQLite's own, so it stays in this module (ARCHITECTURE.md).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Where a word matched, best first: the directory shows title matches before category, town, description. */
export const SEARCH_RANKS = ['title', 'category', 'town', 'description'] as const;

/** Words looked for in one search; more are ignored (the input is at most 100 characters). */
export const SEARCH_WORDS_MAX = 8;

/** The words of a typed search, folded: every one must be found (in any of the fields). */
export function searchWords(search: string | undefined): string[] {
  if (!search) return [];
  return [...new Set(searchFold(search).split(' ').filter(Boolean))].slice(0, SEARCH_WORDS_MAX);
}

/**
 * The towns of these businesses' branches: today the branch's location text as entered ("Malmö
 * Hyllie" holds the town Malmö). The one place that says what a branch's town is; when branches
 * get a normalised town column, this reads it instead.
 */
function townsOf(db: Db | Tx, ids: string[]): Map<string, string[]> {
  const byBusiness = new Map<string, string[]>();
  const rows = db
    .select({ businessId: branches.businessId, location: branches.location, town: branches.town, area: branches.area })
    .from(branches)
    .where(inArray(branches.businessId, ids))
    .all();
  for (const r of rows) {
    const list = byBusiness.get(r.businessId) ?? [];
    // The normalised town and area (issue 31.1) and the location as written ("Kungens Kurva" is in Huddinge).
    for (const name of [r.town, r.area, r.location]) if (name && !list.includes(name)) list.push(name);
    byBusiness.set(r.businessId, list);
  }
  return byBusiness;
}

const IDS_PER_STATEMENT = 500;

/**
 * Writes the search rows of these businesses from what they hold now (title, category names,
 * branch towns, descriptions). Called in the transaction of every write that changes one of
 * those: adding or editing a business, renaming a category, approving a suggestion.
 */
export function writeBusinessSearch(db: Db | Tx, ids: string[]): void {
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
    const rows = db
      .select({
        id: businesses.id,
        title: businesses.title,
        description: businesses.description,
        descriptionEn: businesses.descriptionEn,
        categorySv: categories.nameSv,
        categoryEn: categories.nameEn,
      })
      .from(businesses)
      .leftJoin(categories, eq(categories.id, businesses.categoryId))
      .where(inArray(businesses.id, chunk))
      .all();
    const towns = townsOf(db, chunk);
    db.run(
      sql`delete from business_search where business_id in (${sql.join(
        chunk.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    for (const r of rows) {
      // Fields joined by a line break: a word never matches across two of them.
      const join = (parts: Array<string | null | undefined>) =>
        parts
          .filter((p): p is string => !!p)
          .map(searchFold)
          .join('\n');
      db.run(
        sql`insert into business_search (business_id, title, category, town, body) values (${r.id}, ${join([r.title])}, ${join([r.categorySv, r.categoryEn])}, ${join(towns.get(r.id) ?? [])}, ${join([r.description, r.descriptionEn])})`,
      );
    }
  }
}

/** The search rows of the businesses in a category, after its names changed. */
export function writeCategorySearch(db: Db | Tx, categoryId: string): void {
  writeBusinessSearch(
    db,
    db
      .select({ id: businesses.id })
      .from(businesses)
      .where(eq(businesses.categoryId, categoryId))
      .all()
      .map((r) => r.id),
  );
}

/**
 * Writes the search rows that are missing: every business when migration 0019 has just made the
 * table, and businesses written by a script that does not know it (the bench's generator).
 * Run at start; a no-op once every business has its row.
 */
export function fillBusinessSearch(db: Db): number {
  const missing = db
    .select({ id: businesses.id })
    .from(businesses)
    .where(sql`${businesses.id} not in (select business_id from business_search)`)
    .all()
    .map((r) => r.id);
  if (missing.length > 0) db.transaction((tx) => writeBusinessSearch(tx, missing));
  return missing.length;
}

/** An FTS5 phrase holding the word as it is (a double quote inside is doubled). */
const phrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

const FIELDS = ['title', 'category', 'town', 'body'] as const;

/**
 * The statement that finds the businesses holding every word, with where the best one matched
 * (0 title … 3 description). Words of three characters or more go to the trigram index as one
 * MATCH (all of them); shorter ones, which the index cannot look up, are checked with instr() on
 * the rows it found, or on every row when all words are short.
 */
export function businessSearchQuery(words: string[]) {
  const indexed = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  const found = (w: string) =>
    sql.join(
      FIELDS.map((f) => sql`instr(${sql.identifier(f)}, ${w}) > 0`),
      sql` or `,
    );
  const rankOf = (w: string) => sql`case when instr(title, ${w}) > 0 then 0 when instr(category, ${w}) > 0 then 1 when instr(town, ${w}) > 0 then 2 else 3 end`;
  const rank = words.length === 1 ? rankOf(words[0]) : sql`min(${sql.join(words.map(rankOf), sql`, `)})`;
  const conditions = [...(indexed.length > 0 ? [sql`business_search match ${indexed.map(phrase).join(' ')}`] : []), ...short.map((w) => sql`(${found(w)})`)];
  return sql`select business_id as id, ${rank} as rank from business_search where ${sql.join(conditions, sql` and `)}`;
}

const dialect = new SQLiteSyncDialect();

/**
 * How many search statements are kept compiled per database: the text depends only on how many
 * words there are and which are short (the words themselves are bound), so a handful in practice.
 */
const SEARCH_STATEMENTS = 64;
const searchStatements = new WeakMap<Db, Map<string, Statement>>();

/**
 * The businesses a search finds, each with its rank (an index of SEARCH_RANKS); empty for no
 * words. The statement is compiled once per shape and kept: compiling it was half of a search's
 * time in the database (issue 31's bench rows).
 */
export function businessMatches(db: Db, search: string | undefined): Map<string, number> {
  const words = searchWords(search);
  if (words.length === 0) return new Map();
  const { sql: text, params } = dialect.sqlToQuery(businessSearchQuery(words));
  let kept = searchStatements.get(db);
  if (!kept) {
    kept = new Map();
    searchStatements.set(db, kept);
  }
  let statement = kept.get(text);
  if (!statement) {
    statement = db.$client.prepare(text).raw(true);
    if (kept.size >= SEARCH_STATEMENTS) kept.delete(kept.keys().next().value!);
    kept.set(text, statement);
  }
  const found = new Map<string, number>();
  for (const [id, rank] of statement.all(...params) as Array<[string, number]>) found.set(id, rank);
  return found;
}
