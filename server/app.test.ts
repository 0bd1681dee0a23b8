import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../package.json';
import { buildApp } from './app';
import { createTestApp, createTestUser, type TestContext } from './test/helpers';
import { SHARED_PUBLIC } from './plugins/shared-cache';

describe('the app shell', () => {
  let ctx: TestContext;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html lang="sv"><div id="root"></div></html>');
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    ctx = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('answers the health check with the version when the database answers', async () => {
    const res = await ctx.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, version });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('does not log health checks at info level', async () => {
    const own = await createTestApp();
    const lines: string[] = [];
    const app = await buildApp(own.deps, { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    await app.inject('/healthz');
    await app.inject('/api/no-such-route');
    const messages = lines.map((l) => JSON.parse(l) as { msg: string; req?: { url?: string } });
    expect(messages.filter((m) => m.msg === 'incoming request').map((m) => m.req?.url)).toEqual(['/api/no-such-route']);
    expect(messages.filter((m) => m.msg === 'request completed')).toHaveLength(1);
    await app.close();
    await own.close();
  });

  it('serves the client for page routes and JSON 404s for unknown API paths', async () => {
    // Unknown pages and ids get the client too (its not-found page), as a 404 (plugins/spa.ts).
    for (const [page, status] of [
      ['/', 200],
      ['/users/confirm-email?token=x', 200],
      ['/business/abc', 404],
      ['/no/such/page', 404],
    ] as const) {
      const res = await ctx.app.inject(page);
      expect(res.statusCode, page).toBe(status);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
    for (const api of ['/api/nothing-here', '/trpc/nothing.here', '/uploads/missing.webp']) {
      const res = await ctx.app.inject(api);
      expect(res.statusCode, api).toBe(404);
      const body = res.json();
      expect(body.message ?? body.error?.message).toEqual(expect.any(String));
    }
  });

  it('caches hashed assets forever and the page shell only seconds, in shared caches', async () => {
    const asset = await ctx.app.inject('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    const page = await ctx.app.inject('/');
    expect(page.headers['cache-control']).toBe(SHARED_PUBLIC);
    expect(page.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(page.headers.vary).toMatch(/cookie/i);
  });

  it('sends a strict content security policy without inline script', async () => {
    const res = await ctx.app.inject('/');
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses state-changing requests from other sites, allows our own and non-browser clients', async () => {
    const user = await createTestUser(ctx.db);
    const cookie = `session=${user.token}`;
    const crossOrigin = await ctx.app.inject({ method: 'POST', url: '/trpc/users.me', headers: { cookie, origin: 'https://evil.example' } });
    expect(crossOrigin.statusCode).toBe(403);
    const crossSite = await ctx.app.inject({ method: 'POST', url: '/api/nothing', headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    const nullOrigin = await ctx.app.inject({ method: 'POST', url: '/api/nothing', headers: { cookie, origin: 'null' } });
    expect(nullOrigin.statusCode).toBe(403);
    const sameOrigin = await ctx.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { cookie, origin: 'http://localhost:8000', 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.statusCode).toBe(404);
    const noBrowser = await ctx.app.inject({ method: 'POST', url: '/api/nothing', headers: { authorization: `Bearer ${user.token}` } });
    expect(noBrowser.statusCode).toBe(404);
    const bearerFromElsewhere = await ctx.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { authorization: `Bearer ${user.token}`, origin: 'https://other.example' },
    });
    expect(bearerFromElsewhere.statusCode).toBe(404);
    const bearerWithCookie = await ctx.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { authorization: `Bearer ${user.token}`, cookie, origin: 'https://other.example' },
    });
    expect(bearerWithCookie.statusCode).toBe(403);
  });

  it('reads the session from the cookie or a bearer token', async () => {
    const user = await createTestUser(ctx.db, { firstName: 'Kim' });
    const byCookie = await ctx.app.inject({ url: '/trpc/users.me', headers: { cookie: `session=${user.token}` } });
    expect(byCookie.json().result.data.firstName).toBe('Kim');
    const byBearer = await ctx.app.inject({ url: '/trpc/users.me', headers: { authorization: `Bearer ${user.token}` } });
    expect(byBearer.json().result.data._id).toBe(user.id);
    const forged = await ctx.app.inject({ url: '/trpc/users.me', headers: { cookie: `session=${user.token.split('.')[0]}.forged` } });
    expect(forged.json().result.data).toBeNull();
  });

  it('answers malformed input with clear 4xx statuses, never 500', async () => {
    for (const url of ['/trpc/site.contact', '/api/contact']) {
      const res = await ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"not json' });
      expect(res.statusCode, url).toBe(400);
    }
    const badUrl = await ctx.app.inject('/api/business/%E0%A4%A');
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().key).toBe('invalidInput');
    const tooBig = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'x'.repeat(1_100_000) }),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().key).toBe('bodyTooLarge');
    const xml = await ctx.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().key).toBe('unsupportedContentType');
  });

  it('publishes the OpenAPI document of the REST routes', async () => {
    const res = await ctx.app.inject('/api/docs');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/trpc'))).toBe(false);
  });
});

describe('response compression', () => {
  it('compresses a reply built per request in one piece, as brotli for a browser', async () => {
    const ctx = await createTestApp();
    const app = await buildApp(ctx.deps, { logger: false });
    // A page of cards the size of a comment search (about 14 KB): above the plugin's default
    // one-piece limit on two cores (8 KB), whose stream path cost such a reply about 1 ms of CPU.
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `card-${i}`,
      text: `Kommentar ${i}: personalen var trevlig och kön gick snabbt.`.repeat(4),
      rate: i % 5,
    }));
    app.get('/api/cards', async () => ({ items }));
    // A REST directory search page (24 documents, 68 KB): the stream path cost it ~100 ms of CPU
    // under 10 connections, the one-piece path ~9 ms (README, issue 31 bench rows).
    const big = Array.from({ length: 400 }, (_, i) => ({ id: `doc-${i}`, text: `Pizzeria ${i} på Storgatan i Jönköping, öppet till 22.`.repeat(5) }));
    app.get('/api/big', async () => ({ big }));
    const plain = await app.inject('/api/cards');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(8 * 1024);
    const res = await app.inject({ url: '/api/cards', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.headers['content-encoding']).toBe('br');
    // The stream path drops Content-Length and sends chunks; the one-piece path knows the size.
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8'))).toEqual({ items });
    expect((await app.inject('/api/big')).rawPayload.length).toBeGreaterThan(100 * 1024);
    const whole = await app.inject({ url: '/api/big', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(whole.headers['content-encoding']).toBe('br');
    expect(Number(whole.headers['content-length'])).toBe(whole.rawPayload.length);
    await app.close();
    await ctx.close();
  });
});

describe('the error handler', () => {
  it('hides the detail of unexpected errors and logs them with the request id', async () => {
    const ctx = await createTestApp();
    const lines: string[] = [];
    const app = await buildApp(ctx.deps, {
      logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } },
    });
    app.get('/api/boom', async () => {
      throw new Error('secret database detail');
    });
    const res = await app.inject('/api/boom');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.json().message).toBe('An error occurred. Please try again.');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.err?.message === 'secret database detail');
    expect(logged?.reqId).toEqual(expect.any(String));
    await app.close();
    await ctx.close();
  });
});
