import { describe, expect, it } from 'vitest';
import { demoBusinesses, suggestionBox } from '../seed/businesses';
import { swedishSortKey } from './sv-sort-key';

const collator = new Intl.Collator('sv', { sensitivity: 'base', numeric: true });
const byKey = (a: string, b: string) => (swedishSortKey(a) < swedishSortKey(b) ? -1 : swedishSortKey(a) > swedishSortKey(b) ? 1 : 0);
const sign = (n: number) => Math.sign(n);

describe('swedishSortKey', () => {
  it('puts Å, Ä, Ö after Z and sorts accented letters with their base letter', () => {
    const titles = ['Öhman', 'Zeta', 'Ångström', 'Ärlig', 'Étoile', 'Eva', 'Yxa', 'Über', 'Æble', 'Øst', 'Ab', 'Zorn'];
    expect([...titles].sort(byKey)).toEqual(['Ab', 'Étoile', 'Eva', 'Über', 'Yxa', 'Zeta', 'Zorn', 'Ångström', 'Æble', 'Ärlig', 'Öhman', 'Øst']);
  });

  it('orders numbers by value, punctuation before digits before letters, and ignores case', () => {
    expect(['Ica', '10 kr', 'ICA', '9 kr', '&Co', 'a b', 'Ab'].sort(byKey)).toEqual(['&Co', '9 kr', '10 kr', 'a b', 'Ab', 'Ica', 'ICA']);
    expect(swedishSortKey('ÅHLÉNS')).toBe(swedishSortKey('åhléns'));
  });

  it('agrees with the Swedish collator on every pair of demo titles', () => {
    const titles = [...demoBusinesses, suggestionBox].map((b) => b.title);
    for (const a of titles) for (const b of titles) expect([a, b, sign(byKey(a, b))]).toEqual([a, b, sign(collator.compare(a, b))]);
  });
});
