import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../lib/errors';
import { createRateLimits, limitPoints, type LimitName } from '../services/rate-limits';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

/** Issue 28, item 2: every 429 and 503 says when to come back, and nothing else about the limits. */
let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  user = await createTestUser(t.db);
});
afterAll(() => t.close());
beforeEach(() => t.deps.limits.reset());

const json = { 'content-type': 'application/json', origin: 'http://localhost:8000' };
const seconds = (value: unknown) => (typeof value === 'string' && /^[1-9]\d*$/.test(value) ? Number(value) : Number.NaN);

describe('Retry-After', () => {
  it('every limit of the domain refuses with the seconds until it has room again', async () => {
    const names = Object.keys(limitPoints) as LimitName[];
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) {
      const limits = createRateLimits({ enabled: true });
      for (let i = 0; i < limitPoints[name]; i++) await limits.consume(name, 'key');
      const refused = await limits.consume(name, 'key').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAppError(refused), name).toBe(true);
      const error = refused as AppError;
      expect(error.code, name).toBe('RATE_LIMITED');
      expect(error.retryAfterS, name).toBeGreaterThanOrEqual(1);
      // Never longer than the limit's window (the longest is an hour).
      expect(error.retryAfterS, name).toBeLessThanOrEqual(60 * 60);
    }
  });

  it('every RATE_LIMITED and BUSY error has one, whoever raised it', () => {
    expect(new AppError('RATE_LIMITED', 'tooManyRequests').retryAfterS).toBeGreaterThanOrEqual(1);
    expect(new AppError('BUSY', 'serverBusy').retryAfterS).toBeGreaterThanOrEqual(1);
    expect(new AppError('BAD_INPUT', 'invalidInput').retryAfterS).toBeUndefined();
  });

  // The contact form's limit stands for the domain's: all of them throw the one AppError above.
  const contact = { from_name: 'Nina', user_email: 'nina@example.com', message: 'Hej!' };

  it('a limited REST request answers 429 with Retry-After', async () => {
    const headers = { ...json, 'x-forwarded-for': '198.51.100.31' };
    let last;
    for (let i = 0; i <= limitPoints.contact; i++) last = await t.app.inject({ method: 'POST', url: '/api/contact', headers, payload: contact });
    expect(last?.statusCode).toBe(429);
    expect(seconds(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(seconds(last?.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('a limited tRPC request answers 429 with Retry-After too', async () => {
    const headers = { ...json, 'x-forwarded-for': '198.51.100.32' };
    let last;
    for (let i = 0; i <= limitPoints.contact; i++)
      last = await t.app.inject({ method: 'POST', url: '/trpc/site.contact', headers, payload: JSON.stringify(contact) });
    expect(last?.statusCode).toBe(429);
    expect(seconds(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(seconds(last?.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it("POST /api/images' per-route ceiling answers with Retry-After and sends no x-ratelimit-* headers", async () => {
    const headers = { ...bearer(user), 'x-forwarded-for': '198.51.100.33' };
    const replies = [];
    for (let i = 0; i < 31; i++) replies.push(await t.app.inject({ method: 'POST', url: '/api/images', headers }));
    expect(replies[0].statusCode).toBe(400);
    expect(replies[30].statusCode).toBe(429);
    expect(seconds(replies[30].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect(Object.keys(reply.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
  });
});
