import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionsPerIp, loadEnv } from '../env';
import { jsonTooDeep, JSON_MAX_DEPTH } from '../lib/json-limits';
import { clientKeyOf } from '../lib/networks';
import { createTestApp, type TestContext } from '../test/helpers';

/** Issue 27, item 5: connections per client, one general per-client request limit, JSON bounds. */

/** Opens a connection and resolves with everything the server sends before it closes (or `waitMs`). */
function connect(port: number, request?: string, waitMs = 2_000) {
  const socket = net.connect(port, '127.0.0.1');
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let received = '';
  const reply = new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve(received), waitMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
  if (request) socket.write(request);
  return { socket, connected, reply };
}

const openConnections = (t: TestContext) => (t.app.server as unknown as { openConnections(): Map<string, number> }).openConnections();

describe('connections per client address', () => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { CONNECTIONS_PER_IP: '3' } });
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => t.close());

  it('refuses a connection past the cap with a 429 in the shape of every refusal, and lets one in when another closes', async () => {
    const held = [connect(port), connect(port), connect(port)];
    await Promise.all(held.map((c) => c.connected));
    await vi.waitFor(() => expect(openConnections(t).get('127.0.0.1')).toBe(3));

    const refused = await connect(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n').reply;
    expect(refused).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(refused).toMatch(/\r\nRetry-After: 10\r\n/);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({ key: 'tooManyRequests' });
    // The refused connection never counted.
    expect(openConnections(t).get('127.0.0.1')).toBe(3);

    held[0].socket.destroy();
    await vi.waitFor(() => expect(openConnections(t).get('127.0.0.1')).toBe(2));
    const served = await connect(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n').reply;
    expect(served).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of held) c.socket.destroy();
  });

  it('counts an IPv4 address by itself and an IPv6 address by its /64', () => {
    expect(clientKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKeyOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
  });

  it('caps at 64 by default, and not at all behind a proxy unless CONNECTIONS_PER_IP says so', () => {
    expect(connectionsPerIp(loadEnv({}))).toBe(64);
    expect(connectionsPerIp(loadEnv({ TRUST_PROXY: '1' }))).toBe(0);
    expect(connectionsPerIp(loadEnv({ TRUST_PROXY: '1', CONNECTIONS_PER_IP: '500' }))).toBe(500);
    expect(connectionsPerIp(loadEnv({ CONNECTIONS_PER_IP: '0' }))).toBe(0);
  });
});

describe('one general request limit per client', () => {
  let t: TestContext;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-limits-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html lang="sv"><head><title>R</title></head><body><div id="root"></div></body></html>');
    writeFileSync(path.join(clientDir, 'assets', 'app-1.js'), 'export {};');
    writeFileSync(path.join(clientDir, 'mark-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // One proxy hop: X-Forwarded-For makes each test visitor an address of its own.
    t = await createTestApp({ env: { TRUST_PROXY: '1', REQUESTS_PER_MINUTE: '5' }, clientDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const from = (ip: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    t.app.inject({ method, url, headers: { 'x-forwarded-for': ip }, payload });

  it('answers 429 with Retry-After past REQUESTS_PER_MINUTE, counting REST, tRPC and pages alike', async () => {
    const ip = '198.51.100.1';
    const statuses = [];
    for (const url of ['/api/users/auth/check', '/trpc/users.me', '/about', '/api/users/auth/check', '/trpc/users.me'])
      statuses.push((await from(ip, url)).statusCode);
    expect(statuses).toEqual([401, 200, 200, 401, 200]);
    for (const url of ['/api/users/auth/check', '/trpc/users.me', '/about']) {
      const refused = await from(ip, url);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.headers['retry-after'], url).toBeDefined();
      expect(refused.json(), url).toMatchObject({ key: 'tooManyRequests' });
    }
    // Another client is not touched.
    expect((await from('198.51.100.2', '/api/users/auth/check')).statusCode).toBe(401);
  });

  it('never counts static files or the health check', async () => {
    const ip = '198.51.100.3';
    for (let i = 0; i < 20; i++) {
      expect((await from(ip, '/assets/app-1.js')).statusCode).toBe(200);
      expect((await from(ip, '/mark-1.svg')).statusCode).toBe(200);
      expect((await from(ip, '/healthz')).statusCode).toBe(200);
    }
    expect((await from(ip, '/api/users/auth/check')).statusCode).toBe(401);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 1; i <= 5; i++) expect((await from(`2001:db8:7:7::${i}`, '/api/users/auth/check')).statusCode).toBe(401);
    expect((await from('2001:db8:7:7::99', '/api/users/auth/check')).statusCode).toBe(429);
  });
});

describe('JSON bodies', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const post = (url: string, body: string) => t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });

  it('refuses a REST body over 32 KB with 413 and a tRPC body over 128 KB with 413', async () => {
    const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(40 * 1024) });
    const rest = await post('/api/users/logIn', big);
    expect(rest.statusCode).toBe(413);
    expect(rest.json()).toMatchObject({ key: 'bodyTooLarge' });
    // Within tRPC's limit: the input's own rule answers (the password is too long).
    expect((await post('/trpc/users.login', big)).statusCode).toBe(400);
    const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(130 * 1024) });
    expect((await post('/trpc/users.login', huge)).statusCode).toBe(413);
  });

  it(`refuses arrays and objects nested deeper than ${JSON_MAX_DEPTH} with 400, before parsing them`, async () => {
    const deep = `{"email":"a@example.com","password":"pw","x":${nested(JSON_MAX_DEPTH)}}`;
    const rest = await post('/api/users/logIn', deep);
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ key: 'invalidInput' });
    const trpc = await post('/trpc/users.login', deep);
    expect(trpc.statusCode).toBe(400);
    // The attack's shape, 30 KB of brackets, answers at once.
    const started = performance.now();
    expect((await post('/api/users/logIn', nested(15_000))).statusCode).toBe(400);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('measures depth outside strings only', () => {
    expect(jsonTooDeep(nested(JSON_MAX_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(JSON_MAX_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ text: '['.repeat(100) + '"\\[' }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify([{ a: [{ b: ['ok'] }] }]))).toBe(false);
  });
});
