import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/schemas/messages';
import { sv } from '../../shared/i18n/sv';
import { insertBusiness } from '../test/comment-fixtures';
import { createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

/**
 * Issue 28, item 3. The rule: an error's `message` is the product's English text for its `key`,
 * whatever language the request asks for (the legacy login texts unchanged); `errors` holds the
 * product's texts per field, never a library's. Clients translate the key (ours: client/i18n).
 */
let t: TestContext;
let user: TestUser;
let shop: string;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  user = await createTestUser(t.db, { email: 'sprak@example.com' });
  shop = insertBusiness(t.db, 'Konsum');
});
afterAll(() => t.close());

const languages: Record<string, string>[] = [
  {},
  { cookie: 'lang=sv' },
  { cookie: 'lang=en' },
  { 'accept-language': 'sv-SE,sv;q=0.9' },
  { 'accept-language': 'en-GB,en;q=0.9' },
  { cookie: 'lang=sv', 'accept-language': 'en' },
];
const json = { 'content-type': 'application/json', origin: 'http://localhost:8000' };

describe('the language of error messages', () => {
  it('is English for every language a request asks for, the same body each time', async () => {
    const requests = [
      { method: 'GET' as const, url: `/api/comment/${shop}?limit=0` },
      { method: 'GET' as const, url: '/api/business/nobody-here' },
      { method: 'POST' as const, url: '/api/users/register', payload: { email: 'x' } },
      { method: 'POST' as const, url: '/api/contact', payload: { from_name: 'A', user_email: 'a@b.se', message: 'x'.repeat(5001) } },
    ];
    for (const request of requests) {
      const bodies = new Set<string>();
      for (const language of languages) {
        const res = await t.app.inject({ ...request, headers: { ...json, ...language } });
        expect(res.statusCode, request.url).toBeGreaterThanOrEqual(400);
        bodies.add(res.body);
      }
      expect([...bodies], request.url).toHaveLength(1);
    }
  });

  it("keeps the legacy login texts as they are: 'wrong password!' and 'invalid'", async () => {
    for (const language of [{}, { cookie: 'lang=sv' }]) {
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/users/logIn?lang=sv',
        headers: { ...json, ...language },
        payload: { email: user.email, password: 'wrong-password' },
      });
      expect(wrong.json()).toMatchObject({ message: 'wrong password!' });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/users/logIn',
        headers: { ...json, ...language },
        payload: { email: 'ingen@example.com', password: 'x-password' },
      });
      expect(unknown.json()).toMatchObject({ message: 'invalid' });
    }
  });

  it("gives a field without a message of its own the product's words, over REST and tRPC", async () => {
    const cases: [string, string, string][] = [
      ['limit=0', 'limit', 'valueTooSmall'],
      ['limit=101', 'limit', 'valueTooLarge'],
      ['limit=2.5', 'limit', 'valueNotWhole'],
      [`cursor=${'x'.repeat(201)}`, 'cursor', 'valueTooLong'],
    ];
    for (const [query, field, key] of cases) {
      const res = await t.app.inject({ method: 'GET', url: `/api/comment/${shop}?${query}`, headers: { cookie: 'lang=sv' } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message: messages.invalidInput, key: 'invalidInput', errors: { [field]: messages[key as keyof typeof messages] } });
    }
    const trpc = await t.app.inject({
      method: 'GET',
      url: `/trpc/comments.byBusiness?input=${encodeURIComponent(JSON.stringify({ businessId: shop, limit: 0 }))}`,
    });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error.data).toMatchObject({ key: 'invalidInput', fields: { limit: 'valueTooSmall' } });
    const fraction = await t.app.inject({
      method: 'GET',
      url: `/trpc/comments.byBusiness?input=${encodeURIComponent(JSON.stringify({ businessId: shop, limit: 1.5, photos: 'yes' }))}`,
    });
    expect(fraction.json().error.data.fields).toEqual({ limit: 'valueNotWhole', photos: 'valueWrongType' });
  });

  it('has a Swedish text for each of those words in the client catalog', () => {
    for (const key of Object.keys(messages).filter((k) => k.startsWith('value')) as (keyof typeof sv.messages)[]) {
      expect(sv.messages[key], key).toBeTruthy();
      expect(sv.messages[key], key).not.toBe(messages[key]);
    }
  });
});
