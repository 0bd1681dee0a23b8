import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses, images } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { callerFor, createTestApp, type TestContext } from '../../test/helpers';
import { resolveCategory } from '../business/categories';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { byTitle } from '../business/business';
import { carouselQuery, findSuggestionBoxId, HOME_CAROUSEL, homeSummary } from './home';

let ctx: TestContext;

function insertBusiness(title: string, opts: { iconFile?: string; isSuggestionBox?: boolean; category?: string } = {}) {
  const now = Date.now();
  let iconId: string | null = null;
  if (opts.iconFile) {
    iconId = newId();
    ctx.db
      .insert(images)
      .values({ id: iconId, fileName: opts.iconFile, kind: 'icon', mime: 'image/webp', width: 64, height: 64, bytes: 100, createdAt: now })
      .run();
  }
  const id = newId();
  ctx.db
    .insert(businesses)
    .values({
      id,
      title,
      titleSearch: title.toLocaleLowerCase('sv'),
      titleSort: swedishSortKey(title),
      categoryId: resolveCategory(ctx.db, opts.category ?? 'Livsmedel', undefined, now),
      description: 'En butik.',
      iconId,
      isSuggestionBox: opts.isSuggestionBox ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return id;
}

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('home business summaries', () => {
  it('is empty and has no suggestion box on an empty site', () => {
    expect(homeSummary(ctx.db)).toEqual({ carousel: [], count: 0 });
    expect(findSuggestionBoxId(ctx.db)).toBeNull();
  });

  it('the carousel: titles in Swedish order without the suggestion box, with icon URLs and both category names', async () => {
    const oob = insertBusiness('Öob', { iconFile: 'oob.webp', category: 'Lågpris' });
    const zara = insertBusiness('Zara', { category: 'Kläder' });
    const apotek = insertBusiness('Apotek Hjärtat', { iconFile: 'apotek.webp', category: 'Apotek' });
    insertBusiness('Åhléns', { category: 'Varuhus' });
    const box = insertBusiness('Add New', { iconFile: 'plus.webp', isSuggestionBox: true, category: 'Förslag' });

    const { carousel, count } = homeSummary(ctx.db);
    expect(carousel.map((b) => b.title)).toEqual(['Apotek Hjärtat', 'Zara', 'Åhléns', 'Öob']);
    expect(count).toBe(4);
    expect(carousel[0]).toEqual({
      _id: apotek,
      title: 'Apotek Hjärtat',
      icon: '/uploads/apotek.webp',
      category: 'Apotek',
      categoryEn: 'Pharmacy',
      isSuggestionBox: false,
    });
    expect(carousel.find((b) => b._id === zara)?.icon).toBeNull();
    expect(carousel.find((b) => b._id === oob)).toMatchObject({ category: 'Lågpris', icon: '/uploads/oob.webp' });
    expect(findSuggestionBoxId(ctx.db)).toBe(box);

    const visitor = callerFor(ctx.deps, null);
    await expect(visitor.home.suggestionBox()).resolves.toEqual({ _id: box });
  });

  it('the summary: the carousel’s first businesses A–Ö without the suggestion box, and the count, however many there are', async () => {
    const titles = ['Apotek Hjärtat', 'Zara', 'Åhléns', 'Öob'];
    for (let i = 0; i < HOME_CAROUSEL + 6; i++) {
      const title = `${['Ö', 'a', 'Å', 'B', 'ä', 'Z'][i % 6]}butik ${i}`;
      titles.push(title);
      insertBusiness(title, { iconFile: i % 2 ? `b${i}.webp` : undefined });
    }
    const summary = homeSummary(ctx.db);
    expect(summary.count).toBe(titles.length);
    expect(summary.carousel).toHaveLength(HOME_CAROUSEL);
    // The first of every title in Swedish order (Å, Ä, Ö after Z), as the directory lists them.
    const inOrder = titles.map((title) => ({ title, isSuggestionBox: false })).sort(byTitle);
    expect(summary.carousel.map((b) => b.title)).toEqual(inOrder.slice(0, HOME_CAROUSEL).map((b) => b.title));
    await expect(callerFor(ctx.deps, null).home.summary()).resolves.toEqual(summary);
  });

  it('the carousel walks the directory’s A–Ö index: no sort, no scan of the businesses', () => {
    const { sql, params } = carouselQuery(ctx.db).toSQL();
    const plan = (ctx.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH businesses USING INDEX businesses_dir_name_idx \(is_suggestion_box=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN businesses/);
  });

  it('answers visitors over HTTP through tRPC', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/trpc/home.summary' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ result: { data: { carousel: { title: string }[]; count: number } } }>();
    expect(body.result.data).toEqual(JSON.parse(JSON.stringify(homeSummary(ctx.db))));
  });
});
