import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { insertBusiness } from './test/comment-fixtures';
import { createTestApp, type TestContext } from './test/helpers';

let t: TestContext;
let app: FastifyInstance;
let base: string;
let shop: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  shop = insertBusiness(t.db, 'Konsum');
  // The same app as the server's, logging at info into `lines`, on a real port: cache hits are
  // answered on the raw socket, which app.inject() never reaches.
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp(t.deps, { logger: { level: 'info', stream }, cacheSummaryEveryMs: 60 * 60_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const completed = () => lines.filter((l) => l.msg === 'request completed');

/** Issue 26 (10): every answer is in the log, one by one or counted. */
describe('the request log', () => {
  it('names method, route, redacted path, status and time on each "request completed" line', async () => {
    expect((await fetch(`${base}/api/comment/${shop}?sort=newest`)).status).toBe(200);
    expect((await fetch(`${base}/api/no-such-thing?token=hemlig-token-123`)).status).toBe(404);
    const [found, missing] = completed().slice(-2);
    expect(found).toMatchObject({
      res: { statusCode: 200, method: 'GET', route: '/api/comment/:businessId', url: `/api/comment/${shop}?sort=newest` },
      responseTime: expect.any(Number),
    });
    expect(missing).toMatchObject({ res: { statusCode: 404, method: 'GET', url: '/api/no-such-thing?token=[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('hemlig-token-123');
  });

  it('counts the replies the public cache answers before Fastify, and logs the count', async () => {
    const before = completed().length;
    const sent = 6;
    for (let i = 0; i < sent; i++) expect((await fetch(`${base}/api/comment`)).status).toBe(200);
    const logged = completed().length - before;
    // The first is built (and kept); later ones come from the cache without a line of their own.
    expect(logged).toBeLessThan(sent);
    await app.close();
    const summary = lines.filter((l) => l.msg === 'answered from the public cache');
    expect(summary).toEqual([expect.objectContaining({ publicCacheAnswers: sent - logged, periodMs: 60 * 60_000 })]);
  });
});
