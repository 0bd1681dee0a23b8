import { describe, expect, it } from 'vitest';
import { categories } from '../../db/schema';
import { createTestApp } from '../test/helpers';
import { jsonOf, keptBody, keepJson } from './kept-json';

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

  it('freezes what it keeps, so the kept text cannot go stale', () => {
    const card = keepJson({ title: 'Före', tags: ['a'] });
    expect(() => {
      (card as { title: string }).title = 'Efter';
    }).toThrow(TypeError);
    expect(() => card.tags.push('b')).toThrow(TypeError);
    expect(jsonOf([card])).toBe('[{"title":"Före","tags":["a"]}]');
  });
});

describe('kept reply bodies', () => {
  it('writes a body once and hands out the same buffer until the next write', async () => {
    const t = await createTestApp();
    try {
      let writes = 0;
      const write = () => `[${++writes}]`;
      const first = keptBody(t.db, 'list', write);
      expect(keptBody(t.db, 'list', write)).toBe(first);
      expect(first.toString()).toBe('[1]');
      // Another key is its own body.
      expect(keptBody(t.db, 'other', write).toString()).toBe('[2]');
      t.db.insert(categories).values({ id: 'c1', nameSv: 'Bageri', nameEn: 'Bakery', createdAt: 1, updatedAt: 1 }).run();
      const after = keptBody(t.db, 'list', write);
      expect(after).not.toBe(first);
      expect(after.toString()).toBe('[3]');
    } finally {
      await t.close();
    }
  });
});
