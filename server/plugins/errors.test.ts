import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json', origin: 'http://localhost:8000' };
const notObjects = ['', '[]', '"x"', 'null', '42', 'true'];

describe('input that is not an object', () => {
  it('gets the invalid-input message over REST, without zod text under a made-up field', async () => {
    for (const payload of notObjects) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/logIn', headers: json, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ message: 'Invalid input.', key: 'invalidInput' });
    }
    const noBody = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { origin: 'http://localhost:8000' } });
    expect(noBody.json()).toEqual({ message: 'Invalid input.', key: 'invalidInput' });
  });

  it('gets the invalid-input message over tRPC, with no fields', async () => {
    for (const payload of notObjects) {
      const res = await t.app.inject({ method: 'POST', url: '/trpc/users.login', headers: json, payload });
      expect(res.statusCode, payload).toBe(400);
      const error = res.json().error as { message: string; data: { key: string; fields: unknown } };
      expect(error.message, payload).toBe('Invalid input.');
      expect(error.data.key, payload).toBe('invalidInput');
      expect(error.data.fields, payload).toBeNull();
    }
  });

  it('still names the fields of an object that is wrong', async () => {
    const rest = await t.app.inject({ method: 'POST', url: '/api/users/logIn', headers: json, payload: '{}' });
    expect(rest.json().errors).toEqual({ email: 'Please Enter your email', password: 'Please Enter your password' });
    const trpc = await t.app.inject({ method: 'POST', url: '/trpc/users.login', headers: json, payload: '{}' });
    expect(trpc.json().error.data.fields).toEqual({ email: 'emailRequired', password: 'passwordRequired' });
  });
});
