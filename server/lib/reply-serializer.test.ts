import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replySerializerCompiler } from './reply-serializer';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });
const both = (schema: z.ZodType, data: unknown) => [replySerializerCompiler(route(schema))(data), zodSerializerCompiler(route(schema))(data)];

describe('reply serializer', () => {
  const reply = z.object({
    rate: z.number().nullable(),
    ratingCount: z.number().int(),
    ratings: z.array(z.object({ userId: z.string(), rate: z.number().int().min(1).max(5) })),
    emojiCounts: z.record(z.string(), z.number().int()),
    note: z.string().optional(),
  });

  it('writes what zod would, documented properties only', () => {
    const data = {
      rate: null,
      ratingCount: 2,
      ratings: [{ userId: 'a"b\\c', rate: 4, secret: 'x' }],
      emojiCounts: { 1: 0, 5: 2 },
      passwordHash: 'never sent',
    };
    const [ours, zods] = both(reply, data);
    expect(JSON.parse(ours)).toEqual(JSON.parse(zods));
    expect(ours).not.toContain('never sent');
    expect(ours).not.toContain('secret');
  });

  it("compiles a route's writer on its first reply, once, not when the route is registered", () => {
    let resolved = 0;
    const schema = z.object({
      name: z.lazy(() => {
        resolved++;
        return z.string();
      }),
    });
    const write = replySerializerCompiler(route(schema));
    // Registering every route compiled its writer at start: a quarter of the start's CPU at scale 10.
    expect(resolved).toBe(0);
    expect(JSON.parse(write({ name: 'Anna', secret: 'x' }))).toEqual({ name: 'Anna' });
    const compiled = resolved;
    expect(compiled).toBeGreaterThan(0);
    expect(JSON.parse(write({ name: 'Bo' }))).toEqual({ name: 'Bo' });
    expect(resolved).toBe(compiled);
  });

  it('keeps zod for a schema JSON Schema cannot express', () => {
    const withDate = z.object({ at: z.date() });
    const at = new Date(Date.UTC(2026, 10, 22));
    const [ours, zods] = both(withDate, { at });
    expect(ours).toBe(zods);
    expect(JSON.parse(ours)).toEqual({ at: at.toISOString() });
  });
});
