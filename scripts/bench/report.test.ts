import { describe, expect, it } from 'vitest';
import { rssTargetMb } from './report';

describe("the bench's memory target", () => {
  it('is 200 MB up to scale 1 and 250 MB from scale 10 (issue 32 item 2)', () => {
    expect(rssTargetMb(0.3)).toBe(200);
    expect(rssTargetMb(1)).toBe(200);
    expect(rssTargetMb(10)).toBe(250);
  });
});
