import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { buildApp } from './app';
import { createTestApp, type TestContext } from './test/helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMITS: '0' } });
});
afterAll(() => ctx.close());

describe('the request log', () => {
  it('shows no link token or sign-in code of a requested URL', async () => {
    const lines: string[] = [];
    const app = await buildApp(ctx.deps, { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    await app.inject('/users/confirm-email?token=SeCrEt-confirm-1');
    await app.inject('/reset-password?lang=sv&token=SeCrEt-reset-2#x');
    await app.inject('/google-logIn?state=SeCrEt-state-3&code=SeCrEt-code-4&scope=email');
    await app.inject({ method: 'PUT', url: '/api/users/confirm-email?TOKEN=SeCrEt-rest-5' });
    await app.close();
    const urls = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).flatMap((l) => (l.req ? [l.req.url] : []));
    expect(urls).toEqual([
      '/users/confirm-email?token=[redacted]',
      '/reset-password?lang=sv&token=[redacted]',
      '/google-logIn?state=[redacted]&code=[redacted]&scope=email',
      '/api/users/confirm-email?TOKEN=[redacted]',
    ]);
    expect(lines.join('\n')).not.toContain('SeCrEt');
  });
});

describe('JSON bodies', () => {
  const login = (contentType: string, body: Buffer | string) =>
    ctx.app.inject({ method: 'POST', url: '/api/users/logIn', headers: { 'content-type': contentType }, payload: body });
  const body = (encoding: BufferEncoding) => Buffer.from(JSON.stringify({ email: 'åsa@example.com', password: 'Lösenord-123' }), encoding);

  it('are read as UTF-8 when they say so or say nothing', async () => {
    const types = ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; Charset=UTF8'];
    for (const [i, type] of types.entries()) {
      const email = `asa${i}@example.com`;
      const fields = { firstName: 'Åsa', lastName: 'Öberg', email, password: 'Lösenord-123', confirmPassword: 'Lösenord-123' };
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/register',
        headers: { 'content-type': type },
        payload: Buffer.from(JSON.stringify(fields)),
      });
      expect(res.statusCode, type).toBe(201);
      const row = ctx.db.select().from(users).where(eq(users.email, email)).get();
      expect(row?.firstName, type).toBe('Åsa');
    }
  });

  it('in another charset are refused with 415 instead of being garbled', async () => {
    for (const type of ['application/json; charset=iso-8859-1', 'application/json; charset=latin1', 'application/json; charset=utf-16']) {
      const res = await login(type, body('latin1'));
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({ message: 'Unsupported content type.', key: 'unsupportedContentType' });
    }
    const trpc = await ctx.app.inject({
      method: 'POST',
      url: '/trpc/site.contact',
      headers: { 'content-type': 'application/json; charset=windows-1252', origin: 'http://localhost:8000' },
      payload: Buffer.from(JSON.stringify({ from_name: 'Åsa', user_email: 'asa@example.com', message: 'Hej' }), 'latin1'),
    });
    expect(trpc.statusCode).toBe(415);
  });
});
