import { describe, expect, it } from 'vitest';
import { categories } from '../../db/schema';
import { createTestApp } from '../test/helpers';
import { jsonOf, keepJson, keptArrayOf, KEPT_TEXTS_MAX } from './kept-json';

describe('kept JSON', () => {
  it('writes an array of kept and other items as JSON.stringify does', () => {
    const kept = keepJson({ id: 'a', title: 'Åhléns "city"', rate: 4.5, image: null, tags: ['x'] });
    const copy = { ...kept, isFavorite: true };
    const values: unknown[] = [kept, copy, null, 3, 'ö', undefined, () => 1, { toJSON: () => 'own' }, [kept], kept];
    expect(jsonOf(values)).toBe(JSON.stringify(values));
    expect(jsonOf([])).toBe('[]');
    for (const value of [kept, 'text', 7, null, { list: [kept] }]) expect(jsonOf(value)).toBe(JSON.stringify(value));
    expect(jsonOf(undefined)).toBeUndefined();
  });

  it('writes a kept text the first time it is sent, and only then (a directory rebuild writes none)', () => {
    let written = 0;
    const card = keepJson({ title: 'Kort', toJSON: () => ({ title: `Kort ${++written}` }) });
    expect(written).toBe(0);
    expect(jsonOf([card])).toBe('[{"title":"Kort 1"}]');
    expect(jsonOf([card, card])).toBe('[{"title":"Kort 1"},{"title":"Kort 1"}]');
    expect(written).toBe(1);
  });

  it('freezes what it keeps, so the kept text cannot go stale', () => {
    const card = keepJson({ title: 'Före', tags: ['a'] });
    expect(() => {
      (card as { title: string }).title = 'Efter';
    }).toThrow(TypeError);
    expect(() => card.tags.push('b')).toThrow(TypeError);
    expect(jsonOf([card])).toBe('[{"title":"Före","tags":["a"]}]');
  });
});

describe('kept arrays of kept texts', () => {
  it('writes only the texts not kept yet, answers in the order asked, and drops them all on a write', async () => {
    const t = await createTestApp();
    try {
      const asked: string[][] = [];
      let round = 0;
      // "gone" stands for an item deleted since: the writer leaves it out, and so does the answer.
      const write = (missing: string[]) => {
        asked.push(missing);
        return new Map(missing.filter((id) => id !== 'gone').map((id) => [id, `{"${id}":${round}}`]));
      };
      const array = (kind: string, ids: string[]) => keptArrayOf(t.db, kind, ids, write).toString();
      expect(array('doc', ['a', 'b', 'gone'])).toBe('[{"a":0},{"b":0}]');
      expect(array('doc', ['gone', 'a'])).toBe('[{"a":0}]');
      round = 1;
      expect(array('doc', ['c', 'b', 'a'])).toBe('[{"c":1},{"b":0},{"a":0}]');
      expect(asked).toEqual([['a', 'b', 'gone'], ['gone'], ['c']]);
      expect(array('doc', [])).toBe('[]');
      // Each kind is its own set; text beyond ASCII is written as UTF-8.
      expect(array('other', ['å'])).toBe('[{"å":1}]');
      t.db.insert(categories).values({ id: 'c1', nameSv: 'Bageri', nameEn: 'Bakery', createdAt: 1, updatedAt: 1 }).run();
      round = 2;
      expect(array('doc', ['a'])).toBe('[{"a":2}]');
    } finally {
      await t.close();
    }
  });

  it(`keeps at most ${KEPT_TEXTS_MAX} per kind, the oldest going first`, async () => {
    const t = await createTestApp();
    try {
      let writes = 0;
      const write = (missing: string[]) => {
        writes += missing.length;
        return new Map(missing.map((id) => [id, id]));
      };
      const ids = Array.from({ length: KEPT_TEXTS_MAX + 1 }, (_, i) => `id${i}`);
      keptArrayOf(t.db, 'doc', ids, write);
      expect(writes).toBe(KEPT_TEXTS_MAX + 1);
      // The newest are still kept; the first one went.
      keptArrayOf(t.db, 'doc', ids.slice(1), write);
      expect(writes).toBe(KEPT_TEXTS_MAX + 1);
      keptArrayOf(t.db, 'doc', ['id0'], write);
      expect(writes).toBe(KEPT_TEXTS_MAX + 2);
    } finally {
      await t.close();
    }
  });
});
