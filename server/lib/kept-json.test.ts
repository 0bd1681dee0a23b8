import { describe, expect, it } from 'vitest';
import { jsonOf, keepJson } from './kept-json';

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
