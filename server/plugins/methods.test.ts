import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.db);
});
afterAll(() => t.close());

describe('wrong methods on REST paths', () => {
  it('answer 405 with Allow where a parametric route of that method used to take the path', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/users/logIn', headers: bearer(user) });
    expect(login.statusCode).toBe(405);
    expect(login.headers.allow).toBe('POST');
    expect(login.json()).toEqual({ message: 'This method is not allowed on this path.', key: 'methodNotAllowed' });
    const mostRated = await t.app.inject({ method: 'DELETE', url: '/api/comment/most-rated', headers: bearer(user) });
    expect(mostRated.statusCode).toBe(405);
    expect(mostRated.headers.allow).toBe('GET, HEAD');
  });

  it('answer 405 with Allow for a path that exists only for other methods', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/users/logIn' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    const put = await t.app.inject({ method: 'PUT', url: `/api/users/${user.id}` });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
  });

  it('leave parameters, unknown paths and the right methods alone', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers: bearer(user) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: user.email, password: user.password } })).statusCode).toBe(200);
  });
});
