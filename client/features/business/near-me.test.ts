import { describe, expect, it } from 'vitest';
import { byDistance, distanceKm } from './near-me';

describe('near me, in the browser', () => {
  it('measures Malmö–Lund as about 16 km', () => {
    expect(distanceKm([55.605, 13.0038], [55.7047, 13.191])).toBeCloseTo(16.1, 0);
  });
  it('orders businesses by their nearest branch', () => {
    const order = byDistance(
      [
        { id: 'umea', positions: [[63.8258, 20.263]] },
        {
          id: 'both',
          positions: [
            [63.8258, 20.263],
            [55.7047, 13.191],
          ],
        },
        { id: 'malmo', positions: [[55.605, 13.0038]] },
      ],
      [55.6, 13.0],
    );
    expect([...order.keys()]).toEqual(['malmo', 'both', 'umea']);
  });
});
