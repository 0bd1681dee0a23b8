import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('gives 96-bit URL-safe ids, all different, across many refills of its random block', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every bit: each of the 64 characters turns up at each position', () => {
    const ids = Array.from({ length: 4_000 }, () => newId());
    for (const position of [0, 7, 15]) {
      // The last character of 12 bytes in base64url carries 6 full bits, as every other one does.
      expect(new Set(ids.map((id) => id[position])).size).toBe(64);
    }
  });
});
