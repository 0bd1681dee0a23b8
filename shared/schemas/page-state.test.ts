import { describe, expect, it } from 'vitest';
import { feedFilterOf, firstPaintState, searchTextOf, withParam } from './page-state';

describe('page state in the query string', () => {
  it('reads the feed filter, with anything unknown as the default', () => {
    expect(feedFilterOf('?filter=topRated')).toBe('topRated');
    expect(feedFilterOf('filter=mostReplied&x=1')).toBe('mostReplied');
    for (const search of ['', '?filter=', '?filter=TOPRATED', '?filter=constructor', '?filter=__proto__']) expect(feedFilterOf(search), search).toBe('all');
  });

  it('reads a search text as typed, cut to the search box length', () => {
    expect(searchTextOf('?q=ica+maxi')).toBe('ica maxi');
    expect(searchTextOf('?q=%C3%A5hl%C3%A9ns')).toBe('åhléns');
    expect(searchTextOf('?q=' + 'a'.repeat(500))).toHaveLength(100);
    expect(searchTextOf('?other=1')).toBe('');
  });

  it('sets and removes one parameter, keeping the others', () => {
    expect(withParam('?utm=x', 'q', 'ica')).toBe('?utm=x&q=ica');
    expect(withParam('?q=ica&utm=x', 'q', '')).toBe('?utm=x');
    expect(withParam('?q=ica', 'q', '')).toBe('');
    expect(withParam('', 'q', 'a&b=c')).toBe('?q=a%26b%3Dc');
  });

  it('spells the state a first paint depends on one way, and nothing for the default', () => {
    expect(firstPaintState('pages/home.tsx', '?utm=1&filter=topRated')).toBe('?filter=topRated');
    expect(firstPaintState('pages/home.tsx', '?filter=all')).toBe('');
    expect(firstPaintState('pages/directory.tsx', '?q=%20ica%20&utm=1')).toBe('?q=ica');
    expect(firstPaintState('pages/directory.tsx', '?q=%20')).toBe('');
    // The directory's filters and sort in one order; the default sort and an unknown one are not written.
    expect(firstPaintState('pages/directory.tsx', '?sort=rating&city=Malm%C3%B6&utm=1&category=Kaf%C3%A9')).toBe(
      '?category=Kaf%C3%A9&city=Malm%C3%B6&sort=rating',
    );
    expect(firstPaintState('pages/directory.tsx', '?sort=name')).toBe('');
    expect(firstPaintState('pages/directory.tsx', '?sort=sideways&category=%20')).toBe('');
    // The business page's comments render in the browser only: its search changes no first paint.
    expect(firstPaintState('pages/business-detail.tsx', '?q=lund')).toBe('');
  });
});
