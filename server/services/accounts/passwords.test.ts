import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../db/schema';
import { callerFor, createTestApp, createTestUser, type TestContext } from '../../test/helpers';
import { HASH_CONCURRENCY, hashPassword, hashQueueStats, needsRehash, verifyPassword } from './passwords';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** argon2's defaults before: 64 MiB, 3 passes, 4 lanes (what every stored hash used). */
const oldHash = (password: string) => argon2.hash(password, { type: argon2.argon2id });
const hashOf = (id: string) => t.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)).get()?.h ?? '';

describe('password hashing', () => {
  it("hashes with OWASP's argon2id parameters (19 MiB, t=2, p=1), not argon2's 64 MiB default", async () => {
    const hash = await hashPassword('Secret-pass-123');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, 'Secret-pass-123')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(needsRehash(await oldHash('x'))).toBe(true);
  });

  it(`runs at most ${HASH_CONCURRENCY} hashes at once; the rest wait their turn`, async () => {
    const hash = await hashPassword('pw');
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => verifyPassword(hash, 'pw', `ip-${i % 3}`)));
    expect(hashQueueStats()).toEqual({ running: HASH_CONCURRENCY, waiting: 10 - HASH_CONCURRENCY });
    expect(await all).toEqual(Array(10).fill(true));
    expect(hashQueueStats()).toEqual({ running: 0, waiting: 0 });
  });

  it('answers 429 to one sender with too many hashes waiting, without touching the others', async () => {
    const hash = await hashPassword('pw');
    const mine = Array.from({ length: 12 }, () =>
      verifyPassword(hash, 'pw', 'net:a').then(
        () => 'ok',
        (err: { status?: number }) => err.status,
      ),
    );
    const other = verifyPassword(hash, 'pw', 'net:b');
    const results = await Promise.all(mine);
    expect(results.filter((r) => r === 429).length).toBeGreaterThan(0);
    expect(await other).toBe(true);
  });

  it('still signs in with a hash of the old parameters (REST) and re-hashes it with the new ones', async () => {
    const user = await createTestUser(t.db);
    t.db
      .update(users)
      .set({ passwordHash: await oldHash(user.password) })
      .where(eq(users.id, user.id))
      .run();
    const res = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    expect(hashOf(user.id)).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const again = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: user.email, password: user.password } });
    expect(again.statusCode).toBe(200);
  });

  it('does the same through tRPC', async () => {
    const user = await createTestUser(t.db);
    t.db
      .update(users)
      .set({ passwordHash: await oldHash(user.password) })
      .where(eq(users.id, user.id))
      .run();
    expect((await callerFor(t.deps, null).users.login({ email: user.email, password: user.password })).user).toMatchObject({ _id: user.id });
    expect(hashOf(user.id)).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });
});
