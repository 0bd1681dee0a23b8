/**
 * Recounts every stored count and average from the rows they summarise (ratings: the counted ones,
 * neither held by a rating burst nor of a banned rater; docs/product.md §11.1). Used by the generator's
 * unit test and after the bench's write phase, where a mismatch means the app's write path lost
 * an update under concurrency.
 */
import type Database from 'better-sqlite3';
import { BAYES_PRIOR_COUNT, BAYES_PRIOR_MEAN } from '../../db/schema';
import { swedishSortKey } from '../../server/lib/sv-sort-key';

export type CheckResult = { name: string; checked: number; mismatches: number; examples: unknown[] };

const EPS = 1e-9;

function emojiCheck(sqlite: Database.Database, table: 'comments' | 'replies', ratings: string, key: string): CheckResult {
  const recount = `SELECT ${key} AS id, COUNT(*) AS cnt, AVG(rate) AS avg,
      SUM(rate = 1) AS n1, SUM(rate = 2) AS n2, SUM(rate = 3) AS n3, SUM(rate = 4) AS n4, SUM(rate = 5) AS n5
    FROM ${ratings} WHERE counted GROUP BY ${key}`;
  const wrong = `
    t.rating_count != COALESCE(r.cnt, 0)
    OR t.rated_1 != COALESCE(r.n1, 0) OR t.rated_2 != COALESCE(r.n2, 0) OR t.rated_3 != COALESCE(r.n3, 0)
    OR t.rated_4 != COALESCE(r.n4, 0) OR t.rated_5 != COALESCE(r.n5, 0)
    OR (t.rating_avg IS NULL) != (r.avg IS NULL)
    OR ABS(t.rating_avg - r.avg) > ${EPS}`;
  const from = `FROM ${table} t LEFT JOIN (${recount}) r ON r.id = t.id WHERE ${wrong}`;
  const mismatches = (sqlite.prepare(`SELECT COUNT(*) AS n ${from}`).get() as { n: number }).n;
  const examples = mismatches
    ? sqlite
        .prepare(
          `SELECT t.id, t.rating_count, t.rating_avg, t.rated_1, t.rated_2, t.rated_3, t.rated_4, t.rated_5,
             r.cnt AS recount, r.avg AS reavg, r.n1, r.n2, r.n3, r.n4, r.n5 ${from} LIMIT 5`,
        )
        .all()
    : [];
  const checked = (sqlite.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { name: `${table}: rating_count / rating_avg / rated_1..5 = recount of ${ratings}`, checked, mismatches, examples };
}

function simpleCheck(sqlite: Database.Database, name: string, table: string, select: string, recount: string, wrong: string): CheckResult {
  const from = `FROM ${table} t LEFT JOIN (${recount}) r ON r.id = t.id WHERE ${wrong}`;
  const mismatches = (sqlite.prepare(`SELECT COUNT(*) AS n ${from}`).get() as { n: number }).n;
  const examples = mismatches ? sqlite.prepare(`SELECT t.id, ${select} ${from} LIMIT 5`).all() : [];
  const checked = (sqlite.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { name, checked, mismatches, examples };
}

/**
 * Every derived column of the data model against a recount; all rows, not a sample. One read
 * transaction, so a write the server finishes meanwhile cannot show up in one query and not the next.
 */
export function checkCounts(sqlite: Database.Database): CheckResult[] {
  return sqlite.transaction(() => allChecks(sqlite))();
}

function allChecks(sqlite: Database.Database): CheckResult[] {
  return [
    emojiCheck(sqlite, 'comments', 'comment_ratings', 'comment_id'),
    emojiCheck(sqlite, 'replies', 'reply_ratings', 'reply_id'),
    simpleCheck(
      sqlite,
      'comments: reply_count = recount of replies',
      'comments',
      't.reply_count, r.n AS recount',
      'SELECT comment_id AS id, COUNT(*) AS n FROM replies GROUP BY comment_id',
      't.reply_count != COALESCE(r.n, 0)',
    ),
    simpleCheck(
      sqlite,
      'businesses: rating_count / rating_sum = recount of business_ratings',
      'businesses',
      't.rating_count, t.rating_sum, r.n AS recount, r.s AS resum',
      'SELECT business_id AS id, COUNT(*) AS n, SUM(rate) AS s FROM business_ratings WHERE counted GROUP BY business_id',
      't.rating_count != COALESCE(r.n, 0) OR t.rating_sum != COALESCE(r.s, 0)',
    ),
    simpleCheck(
      sqlite,
      'businesses: bayes_score = Bayesian average of the recount of business_ratings',
      'businesses',
      't.bayes_score, r.n AS recount, r.s AS resum',
      'SELECT business_id AS id, COUNT(*) AS n, SUM(rate) AS s FROM business_ratings WHERE counted GROUP BY business_id',
      `(t.bayes_score IS NULL) != (r.n IS NULL)
       OR ABS(t.bayes_score - (${BAYES_PRIOR_COUNT * BAYES_PRIOR_MEAN}.0 + r.s) / (${BAYES_PRIOR_COUNT}.0 + r.n)) > ${EPS}`,
    ),
    (() => {
      // The A–Ö key is computed in JavaScript (SQLite cannot), so it is checked here row by row.
      const rows = sqlite.prepare('SELECT id, title, title_sort FROM businesses').all() as Array<{ id: string; title: string; title_sort: string }>;
      const wrong = rows.filter((r) => r.title_sort !== swedishSortKey(r.title));
      return { name: 'businesses: title_sort = swedishSortKey(title)', checked: rows.length, mismatches: wrong.length, examples: wrong.slice(0, 5) };
    })(),
    simpleCheck(
      sqlite,
      'businesses: stars_1..5 = recount of business_ratings per star level',
      'businesses',
      't.stars_1, t.stars_2, t.stars_3, t.stars_4, t.stars_5, r.n1, r.n2, r.n3, r.n4, r.n5',
      `SELECT business_id AS id, SUM(rate = 1) AS n1, SUM(rate = 2) AS n2, SUM(rate = 3) AS n3, SUM(rate = 4) AS n4, SUM(rate = 5) AS n5
         FROM business_ratings WHERE counted GROUP BY business_id`,
      `t.stars_1 != COALESCE(r.n1, 0) OR t.stars_2 != COALESCE(r.n2, 0) OR t.stars_3 != COALESCE(r.n3, 0)
         OR t.stars_4 != COALESCE(r.n4, 0) OR t.stars_5 != COALESCE(r.n5, 0)`,
    ),
    (() => {
      // comments.author_rate is a copy of the author's current rating of the business while it counts (or null).
      const wrong = `c.author_rate IS NOT (SELECT r.rate FROM business_ratings r WHERE r.business_id = c.business_id AND r.user_id = c.user_id AND r.counted)`;
      const mismatches = (sqlite.prepare(`SELECT COUNT(*) AS n FROM comments c WHERE ${wrong}`).get() as { n: number }).n;
      const examples = mismatches ? sqlite.prepare(`SELECT c.id, c.business_id, c.user_id, c.author_rate FROM comments c WHERE ${wrong} LIMIT 5`).all() : [];
      const checked = (sqlite.prepare('SELECT COUNT(*) AS n FROM comments').get() as { n: number }).n;
      return { name: "comments: author_rate = the author's rating of the business", checked, mismatches, examples };
    })(),
    simpleCheck(
      sqlite,
      'businesses: comment_count = recount of comments',
      'businesses',
      't.comment_count, r.n AS recount',
      'SELECT business_id AS id, COUNT(*) AS n FROM comments GROUP BY business_id',
      't.comment_count != COALESCE(r.n, 0)',
    ),
    simpleCheck(
      sqlite,
      'users: favorites_count = recount of favorites',
      'users',
      't.favorites_count, r.n AS recount',
      'SELECT user_id AS id, COUNT(*) AS n FROM favorites GROUP BY user_id',
      't.favorites_count != COALESCE(r.n, 0)',
    ),
    (() => {
      // The server indexes posted comments in batches (migration 0005): by now none may wait.
      const indexed = (sqlite.prepare('SELECT COUNT(*) AS n FROM comments_fts').get() as { n: number }).n;
      const queued = (sqlite.prepare('SELECT COUNT(*) AS n FROM comments_fts_queue').get() as { n: number }).n;
      const rows = (sqlite.prepare('SELECT COUNT(*) AS n FROM comments').get() as { n: number }).n;
      const ok = indexed === rows && queued === 0;
      return {
        name: 'comments_fts: one row per comment, none left queued',
        checked: rows,
        mismatches: ok ? 0 : Math.abs(indexed - rows) + queued,
        examples: ok ? [] : [{ indexed, queued, rows }],
      };
    })(),
  ];
}
