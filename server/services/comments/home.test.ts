import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses, images } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { callerFor, createTestApp, type TestContext } from '../../test/helpers';
import { resolveCategory } from '../business/categories';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { carouselQuery, findSuggestionBoxId, HOME_CAROUSEL, homeSummary, listBusinessSummaries } from './home';

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
    expect(listBusinessSummaries(ctx.db)).toEqual([]);
    expect(homeSummary(ctx.db)).toEqual({ carousel: [], count: 0 });
    expect(findSuggestionBoxId(ctx.db)).toBeNull();
  });

  it('lists the suggestion box first, then titles in Swedish order, with icon URLs', async () => {
    const oob = insertBusiness('Öob', { iconFile: 'oob.webp', category: 'Lågpris' });
    const zara = insertBusiness('Zara', { category: 'Kläder' });
    const apotek = insertBusiness('Apotek Hjärtat', { iconFile: 'apotek.webp', category: 'Apotek' });
    const ahlens = insertBusiness('Åhléns', { category: 'Varuhus' });
    const box = insertBusiness('Add New', { iconFile: 'plus.webp', isSuggestionBox: true, category: 'Förslag' });

    const list = listBusinessSummaries(ctx.db);
    expect(list.map((b) => b.title)).toEqual(['Add New', 'Apotek Hjärtat', 'Zara', 'Åhléns', 'Öob']);
    expect(list[0]).toEqual({ _id: box, title: 'Add New', icon: '/uploads/plus.webp', category: 'Förslag', categoryEn: 'Suggestions', isSuggestionBox: true });
    expect(list.find((b) => b._id === apotek)?.icon).toBe('/uploads/apotek.webp');
    expect(list.find((b) => b._id === zara)?.icon).toBeNull();
    expect(list.find((b) => b._id === oob)).toMatchObject({ category: 'Lågpris', isSuggestionBox: false });
    expect(list.find((b) => b._id === ahlens)?.isSuggestionBox).toBe(false);
    expect(findSuggestionBoxId(ctx.db)).toBe(box);

    const visitor = callerFor(ctx.deps, null);
    await expect(visitor.home.businesses()).resolves.toEqual(list);
    await expect(visitor.home.suggestionBox()).resolves.toEqual({ _id: box });
  });

  it('the summary: the carousel’s first businesses A–Ö without the suggestion box, and the count, however many there are', async () => {
    for (let i = 0; i < HOME_CAROUSEL + 6; i++)
      insertBusiness(`${['Ö', 'a', 'Å', 'B', 'ä', 'Z'][i % 6]}butik ${i}`, { iconFile: i % 2 ? `b${i}.webp` : undefined });
    const all = listBusinessSummaries(ctx.db).filter((b) => !b.isSuggestionBox);
    const summary = homeSummary(ctx.db);
    expect(summary.count).toBe(all.length);
    expect(summary.carousel).toHaveLength(HOME_CAROUSEL);
    // The same businesses, in the same order, as the whole list gave the carousel before.
    expect(summary.carousel).toEqual(all.slice(0, HOME_CAROUSEL));
    await expect(callerFor(ctx.deps, null).home.summary()).resolves.toEqual(summary);
  });

  it('the carousel walks the directory’s A–Ö index: no sort, no scan of the businesses', () => {
    const { sql, params } = carouselQuery(ctx.db).toSQL();
    const plan = (ctx.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH businesses USING INDEX businesses_dir_name_idx \(is_suggestion_box=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN businesses/);
  });

  it('answers visitors over HTTP through tRPC', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/trpc/home.businesses' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ result: { data: { title: string }[] } }>();
    expect(body.result.data[0].title).toBe('Add New');
  });
});
