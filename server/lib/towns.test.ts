import { describe, expect, it } from 'vitest';
import { townOf } from './towns';

describe('townOf', () => {
  it('splits a location into its town and area', () => {
    expect(townOf('Malmö Hyllie')).toEqual({ town: 'Malmö', area: 'Hyllie' });
    expect(townOf('Malmö')).toEqual({ town: 'Malmö', area: null });
    expect(townOf('malmö  svågertorp')).toEqual({ town: 'Malmö', area: 'svågertorp' });
    expect(townOf('Stockholm City')).toEqual({ town: 'Stockholm', area: 'City' });
  });
  it('keeps multi-word towns whole and places known by their own name in their town', () => {
    expect(townOf('Upplands Väsby')).toEqual({ town: 'Upplands Väsby', area: null });
    expect(townOf('Kungens Kurva')).toEqual({ town: 'Huddinge', area: 'Kungens Kurva' });
  });
  it('takes an unknown location as a town of its own and "Hela Sverige" as none', () => {
    expect(townOf('Ödeshög')).toEqual({ town: 'Ödeshög', area: null });
    expect(townOf('Hela Sverige')).toEqual({ town: '', area: null });
  });
});
