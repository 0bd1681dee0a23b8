import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_BODY_BYTES, runJob } from './load-runner';

const big = `{"message":"Ingen sådan sida","padding":"${'å'.repeat(60_000)}"}`;
let server: http.Server;
let origin: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
    res.end(big);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the load runner', () => {
  it('has autocannon keep only the start of each reply body, and still count every byte', async () => {
    const lengths: number[] = [];
    const result = await autocannon({
      url: origin,
      connections: 2,
      amount: 20,
      requests: [{ method: 'GET', path: '/', onResponse: (_status: number, body: string) => void lengths.push(body.length) }],
    });
    expect(result['2xx']).toBe(20);
    expect(lengths).toHaveLength(20);
    expect(lengths.every((n) => n > 0 && n <= KEPT_BODY_BYTES)).toBe(true);
    expect(result.throughput.total).toBeGreaterThanOrEqual(20 * Buffer.byteLength(big));
  });

  it('reports successes per second and samples the bodies of failed replies', async () => {
    const ok = await runJob({ id: 1, origin, connections: 2, durationSec: 1, warmupSec: 0, request: { kind: 'get', path: '/' } });
    expect(ok.ok).toBeGreaterThan(0);
    expect(ok.non2xx).toBe(0);
    const failed = await runJob({ id: 2, origin, connections: 2, durationSec: 1, warmupSec: 0, request: { kind: 'get', path: '/missing' } });
    expect(failed.ok).toBe(0);
    expect(failed.statusCodes['404']).toBeGreaterThan(0);
    expect(failed.errorSamples[0]).toMatch(/^404 \{"message":"Ingen sådan sida"/);
  });

  it('interleaves a mix: the given number of reads, then the next write in turn', async () => {
    seen.length = 0;
    const result = await runJob({
      id: 3,
      origin,
      connections: 1,
      durationSec: 1,
      warmupSec: 0,
      request: {
        kind: 'mix',
        reads: ['/a', '/b'],
        readsPerWrite: 3,
        writes: [
          { kind: 'rateBusiness', businessIds: ['shop'], tokens: ['t'] },
          { kind: 'rateComment', commentIds: ['post'], tokens: ['t'] },
        ],
      },
    });
    expect(result.ok).toBeGreaterThan(8);
    // One connection sends them in order: three reads of the listed paths, then a write, again and again.
    // (A request of the test before may still arrive: only this job's paths count.)
    const shape = seen
      .filter((line) => line.startsWith('POST ') || ['GET /a', 'GET /b'].includes(line))
      .slice(0, 8)
      .map((line) => (line.startsWith('GET ') ? 'read' : line));
    expect(shape).toEqual(['read', 'read', 'read', 'POST /api/business/addRate/shop', 'read', 'read', 'read', 'POST /api/comment/addRate/post']);
  });
});
