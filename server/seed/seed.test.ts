import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers';
import { contrastRatio, monogramColours } from './icons';
import { seedDemoData, type SeedResult } from './index';
import { drawnBusinesses } from './pictures';
import { seedBusinesses } from './rows';
import { titleSearchOf } from '../services/business/business';
import { ftsQueryOf } from '../services/comments/comment-search';

let ctx: TestContext;
let result: SeedResult;

const all = <T>(sql: string, ...params: unknown[]) => ctx.db.$client.prepare(sql).all(...params) as T[];

function tableCounts(): Record<string, number> {
  const tables = all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  return Object.fromEntries(tables.map(({ name }) => [name, (ctx.db.$client.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
}

/** The comment form's rule for a location (product description: letters, ≤ 2 words, ≤ 20 chars). */
const isValidLocation = (location: string) => /^[\p{L}\p{N}_ ]+$/u.test(location) && location.length <= 20 && location.trim().split(/\s+/).length <= 2;

beforeAll(async () => {
  ctx = await createTestApp();
  result = await seedDemoData(ctx.deps);
});
afterAll(() => ctx?.close());

describe('seedDemoData', () => {
  it('creates the directory with exactly one suggestion box', () => {
    const businesses = all<{
      title: string;
      title_search: string;
      is_suggestion_box: number;
      rating_count: number;
      description: string;
      description_en: string;
      category: string;
      category_en: string;
    }>('SELECT b.*, c.name_sv AS category, c.name_en AS category_en FROM businesses b JOIN categories c ON c.id = b.category_id');
    expect(businesses.length).toBeGreaterThanOrEqual(25);
    const boxes = businesses.filter((b) => b.is_suggestion_box === 1);
    expect(boxes.map((b) => b.title)).toEqual(['Add New']);
    expect(new Set(businesses.map((b) => b.title)).size).toBe(businesses.length);
    for (const b of businesses) {
      expect(b.title_search).toBe(titleSearchOf(b.title));
      // The demo admin rated every business but the suggestion box, which has no rating at all.
      if (b.is_suggestion_box) expect(b.rating_count).toBe(0);
      else expect(b.rating_count).toBeGreaterThanOrEqual(1);
      expect(b.title.length).toBeLessThanOrEqual(50);
      expect(b.category.length).toBeGreaterThanOrEqual(2);
      // English mode reads English: every demo business has its own English description.
      expect(b.description_en, b.title).toMatch(/^[A-ZÅÄÖ].{40,998}$/s);
      // Every demo category is one of the list's own entries, with a real English name.
      expect(b.category_en, b.category).not.toBe(b.category);
      expect(b.description.length).toBeLessThanOrEqual(999);
    }
    expect(businesses.find((b) => b.title === 'ÅHLÉNS')?.title_search).toBe('åhléns');
  });

  it('gives every business at least one valid branch and a stored SVG icon', () => {
    const rows = all<{ title: string; branches: number; file_name: string | null; mime: string | null }>(
      `SELECT b.title, (SELECT count(*) FROM branches WHERE business_id = b.id) AS branches, i.file_name, i.mime
         FROM businesses b LEFT JOIN images i ON i.id = b.icon_id`,
    );
    for (const row of rows) {
      expect(row.branches, row.title).toBeGreaterThanOrEqual(1);
      expect(row.mime, row.title).toBe('image/svg+xml');
      const file = path.join(ctx.deps.paths.uploads, row.file_name as string);
      expect(existsSync(file), row.title).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain('viewBox="0 0 256 256"');
    }
    for (const { location } of all<{ location: string }>('SELECT location FROM branches')) {
      expect(isValidLocation(location), location).toBe(true);
    }
  });

  it('gives at least half of the demo comments a drawn picture, stored as a WebP like an upload', () => {
    const rows = all<{
      business: string;
      is_box: number;
      file_name: string | null;
      mime: string | null;
      kind: string | null;
      width: number | null;
      height: number | null;
    }>(
      `SELECT b.title AS business, b.is_suggestion_box AS is_box, i.file_name, i.mime, i.kind, i.width, i.height
         FROM comments c JOIN businesses b ON b.id = c.business_id LEFT JOIN images i ON i.id = c.image_id`,
    );
    const pictured = rows.filter((r) => r.file_name !== null);
    expect(pictured.length * 2).toBeGreaterThanOrEqual(rows.length);
    // Some go without, so the feed shows what a card without a photo looks like.
    expect(pictured.length).toBeLessThan(rows.length);
    expect(new Set(pictured.map((r) => r.file_name)).size).toBe(pictured.length);
    for (const row of pictured) {
      expect([row.mime, row.kind, row.width, row.height], row.business).toEqual(['image/webp', 'comment', 960, 640]);
      const bytes = readFileSync(path.join(ctx.deps.paths.uploads, row.file_name as string));
      expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
    expect(rows.filter((r) => r.is_box === 1 && r.file_name !== null)).toEqual([]);
  });

  it('knows what to draw for every demo business but the suggestion box', () => {
    const titles = seedBusinesses.filter((b) => !b.isSuggestionBox).map((b) => b.title);
    expect([...drawnBusinesses].sort()).toEqual([...titles].sort());
  });

  it('picks icon text colours with good contrast', () => {
    for (const b of seedBusinesses) {
      const { background, text } = monogramColours(b.title);
      expect(contrastRatio(background, text), b.title).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('creates confirmed demo accounts with a random password, kept in DATA_DIR/demo-accounts.txt for the owner only', async () => {
    const password = result?.password as string;
    expect(password).toMatch(/^[\w-]{16}$/);
    expect(password).not.toBe('Recensera-demo-1');
    const file = path.join(ctx.deps.paths.data, 'demo-accounts.txt');
    expect(result?.file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`admin@demo.recensera.se ${password} admin\nanna@demo.recensera.se ${password} user\n`);
    expect(result?.accounts.filter((a) => a.isAdmin).map((a) => a.email)).toEqual(['admin@demo.recensera.se']);
    expect(result?.accounts.length).toBeGreaterThanOrEqual(7);
    const hashes = new Set<string>();
    for (const account of result?.accounts ?? []) {
      const [user] = all<{ password_hash: string; is_demo: number; email_confirmed: number; is_admin: number; language: string }>(
        'SELECT * FROM users WHERE email = ?',
        account.email,
      );
      expect(user, account.email).toBeDefined();
      expect([user.is_demo, user.email_confirmed, user.is_admin, user.language]).toEqual([1, 1, account.isAdmin ? 1 : 0, 'sv']);
      hashes.add(user.password_hash);
    }
    // Verifying is deliberately slow, so each distinct hash is checked once.
    for (const hash of hashes) {
      expect(hash.startsWith('$argon2id$')).toBe(true);
      expect(await argon2.verify(hash, password)).toBe(true);
    }
  });

  it('writes comments at branches of their business, in the past, with replies after them', () => {
    const now = Date.now();
    const comments = all<{ id: string; business_location: string; created_at: number; valid_branch: number }>(
      `SELECT c.*, EXISTS (SELECT 1 FROM branches br WHERE br.business_id = c.business_id AND br.location = c.business_location) AS valid_branch
         FROM comments c`,
    );
    expect(comments.length).toBeGreaterThanOrEqual(30);
    for (const c of comments) {
      expect(c.valid_branch, c.business_location).toBe(1);
      expect(isValidLocation(c.business_location), c.business_location).toBe(true);
      expect(c.created_at).toBeLessThan(now);
      expect(c.created_at).toBeGreaterThan(now - 35 * 24 * 3600_000);
    }
    expect(all('SELECT * FROM replies').length).toBeGreaterThanOrEqual(35);
    const misplaced = all(
      `SELECT r.id FROM replies r JOIN comments c ON c.id = r.comment_id
        WHERE r.created_at <= c.created_at OR r.created_at >= ? OR r.business_id <> c.business_id`,
      now,
    );
    expect(misplaced).toEqual([]);
  });

  it('keeps every stored count and average equal to a recount of the rows', () => {
    const emojiMismatch = (table: string, ratings: string, key: string) =>
      all(
        `SELECT t.id FROM ${table} t LEFT JOIN (
           SELECT ${key} AS id, count(*) AS n, avg(rate) AS average,
                  sum(rate = 1) AS r1, sum(rate = 2) AS r2, sum(rate = 3) AS r3, sum(rate = 4) AS r4, sum(rate = 5) AS r5
             FROM ${ratings} GROUP BY ${key}) agg ON agg.id = t.id
          WHERE t.rating_count <> coalesce(agg.n, 0)
             OR t.rated_1 <> coalesce(agg.r1, 0) OR t.rated_2 <> coalesce(agg.r2, 0) OR t.rated_3 <> coalesce(agg.r3, 0)
             OR t.rated_4 <> coalesce(agg.r4, 0) OR t.rated_5 <> coalesce(agg.r5, 0)
             OR (t.rating_avg IS NULL) <> (agg.average IS NULL)
             OR abs(t.rating_avg - agg.average) > 1e-9`,
      );
    expect(emojiMismatch('comments', 'comment_ratings', 'comment_id')).toEqual([]);
    expect(emojiMismatch('replies', 'reply_ratings', 'reply_id')).toEqual([]);

    expect(
      all(
        `SELECT c.id FROM comments c
          WHERE c.reply_count <> (SELECT count(*) FROM replies r WHERE r.comment_id = c.id)`,
      ),
    ).toEqual([]);
    expect(
      all(
        `SELECT b.id FROM businesses b
          WHERE b.rating_count <> (SELECT count(*) FROM business_ratings r WHERE r.business_id = b.id)
             OR b.rating_sum <> (SELECT coalesce(sum(rate), 0) FROM business_ratings r WHERE r.business_id = b.id)
             OR b.comment_count <> (SELECT count(*) FROM comments c WHERE c.business_id = b.id)`,
      ),
    ).toEqual([]);
    expect(
      all(
        `SELECT u.id FROM users u
          WHERE u.favorites_count <> (SELECT count(*) FROM favorites f WHERE f.user_id = u.id)`,
      ),
    ).toEqual([]);

    // The data must exercise what it checks: some posts unrated, some rated, and shown stars.
    const [spread] = all<{ unrated: number; rated: number; replied: number; favourites: number; stars: number }>(
      `SELECT (SELECT count(*) FROM comments WHERE rating_avg IS NULL) AS unrated,
              (SELECT count(*) FROM comments WHERE rating_count > 1) AS rated,
              (SELECT count(*) FROM comments WHERE reply_count > 1) AS replied,
              (SELECT count(*) FROM favorites) AS favourites,
              (SELECT count(*) FROM business_ratings) AS stars`,
    );
    expect(spread.unrated).toBeGreaterThan(0);
    expect(spread.rated).toBeGreaterThan(5);
    expect(spread.replied).toBeGreaterThan(5);
    expect(spread.favourites).toBeGreaterThan(5);
    expect(spread.stars).toBeGreaterThan(30);
  });

  it('has nobody rating their own comment or reply, and only rates 1 to 5', () => {
    expect(all('SELECT r.comment_id FROM comment_ratings r JOIN comments c ON c.id = r.comment_id WHERE r.user_id = c.user_id')).toEqual([]);
    expect(all('SELECT r.reply_id FROM reply_ratings r JOIN replies p ON p.id = r.reply_id WHERE r.user_id = p.user_id')).toEqual([]);
    for (const table of ['comment_ratings', 'reply_ratings', 'business_ratings']) {
      expect(all(`SELECT rate FROM ${table} WHERE rate NOT BETWEEN 1 AND 5`), table).toEqual([]);
    }
    expect(all('SELECT r.user_id FROM business_ratings r JOIN businesses b ON b.id = r.business_id WHERE b.is_suggestion_box = 1')).toEqual([]);
  });

  it("indexes every demo comment for search, under its author's name as shown", () => {
    // Demo accounts show "Förnamn E." (issue 30): search finds the first name, never a hidden last name.
    const written = all<{ rowid: number; businessId: string; firstName: string; lastName: string; nameDisplay: string }>(
      'SELECT c.rowid, c.business_id AS businessId, u.first_name AS firstName, u.last_name AS lastName, u.name_display AS nameDisplay FROM comments c JOIN users u ON u.id = c.user_id',
    );
    expect(written.length).toBeGreaterThan(0);
    const found = (c: (typeof written)[number], name: string) =>
      all('SELECT rowid FROM comments_fts WHERE comments_fts MATCH ? AND rowid = ?', ftsQueryOf(c.businessId, name), c.rowid).length === 1;
    expect(written.filter((c) => !found(c, c.firstName))).toEqual([]);
    expect(written.filter((c) => c.nameDisplay === 'initial' && found(c, c.lastName))).toEqual([]);
  });

  it('does nothing when run again', async () => {
    const before = tableCounts();
    expect(await seedDemoData(ctx.deps)).toBeNull();
    expect(tableCounts()).toEqual(before);
  });
});
