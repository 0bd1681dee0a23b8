import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAppError } from '../lib/errors';
import { insertBusiness, pngBytes } from '../test/comment-fixtures';
import { createComment } from '../services/comments/comments';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser, pngForm } from '../test/helpers';

/**
 * Issue 15 item 15: RATE_LIMITS=0 turns off every count, the upload route's per-IP limit too.
 * The limits live in each app's Deps (issue 16 item 7), so apps in one process share neither
 * the switch nor the counts.
 */
let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  user = await createTestUser(t.db);
});
afterAll(() => t.close());

const multipart = (fields: Record<string, string>, image?: Buffer) => pngForm(fields, image ? { image } : {});

it('lets one user upload, edit, favourite and delete past every limit', async () => {
  const statuses = new Set<number>();
  // 45 uploads: past the route's 30 per IP, the 30 image writes and the 40 multipart bodies.
  for (let i = 0; i < 45; i++) {
    const body = await multipart({ kind: 'comment' }, await pngBytes(8, 8));
    statuses.add((await t.app.inject({ method: 'POST', url: '/api/images', headers: { ...body.headers, ...bearer(user) }, payload: body.payload })).statusCode);
  }
  const shop = insertBusiness(t.db);
  const comment = await createComment(t.deps, user.actor, { businessId: shop, text: 'Fint', businessLocation: 'Lund' });
  for (let i = 0; i < 35; i++) {
    const body = await multipart({ text: `Fint ${i}` });
    statuses.add(
      (await t.app.inject({ method: 'PUT', url: `/api/comment/update/${comment._id}`, headers: { ...body.headers, ...bearer(user) }, payload: body.payload }))
        .statusCode,
    );
  }
  for (let i = 0; i < 65; i++) {
    statuses.add((await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${user.id}/${shop}`, headers: bearer(user) })).statusCode);
  }
  for (let i = 0; i < 35; i++) {
    statuses.add((await t.app.inject({ method: 'DELETE', url: `/api/subComment/delete/nope${i}`, headers: bearer(user) })).statusCode);
  }
  expect([...statuses].sort()).toEqual([200, 201, 404]);
});

it('keeps the switch and the counts per app: apps built in one process share neither', async () => {
  const [a, b] = [await createTestApp(), await createTestApp()];
  try {
    const outcome = (run: () => Promise<void>) =>
      run().then(
        () => 'ok',
        (e: unknown) => (isAppError(e) ? e.code : 'other'),
      );
    // Six posts a minute per key: the seventh in app a is refused, app b has counted nothing.
    for (let i = 0; i < 6; i++) await a.deps.limits.consume('post', 'same-key');
    expect(await outcome(() => a.deps.limits.consume('post', 'same-key'))).toBe('RATE_LIMITED');
    expect(await outcome(() => b.deps.limits.consume('post', 'same-key'))).toBe('ok');
    // Building apps with the limits on did not turn them on in this file's app (RATE_LIMITS=0).
    for (let i = 0; i < 10; i++) expect(await outcome(() => t.deps.limits.consume('post', 'same-key'))).toBe('ok');
    const statuses = new Set<number>();
    for (let i = 0; i < 65; i++) {
      statuses.add(
        (await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${user.id}/${insertBusiness(t.db)}`, headers: bearer(user) })).statusCode,
      );
    }
    expect([...statuses]).toEqual([200]);
  } finally {
    await a.close();
    await b.close();
  }
});
