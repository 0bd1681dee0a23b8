import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertBusiness, pngBytes } from '../test/comment-fixtures';
import { createComment } from '../services/comments';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser, pngForm } from '../test/helpers';

/**
 * Issue 15 item 15: RATE_LIMITS=0 turns off every count, the upload route's per-IP limit too.
 * A file of its own: the switch is process-wide, and the other limit tests need it on.
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
    statuses.add((await t.app.inject({ method: 'PUT', url: `/api/comment/update/${comment._id}`, headers: { ...body.headers, ...bearer(user) }, payload: body.payload })).statusCode);
  }
  for (let i = 0; i < 65; i++) {
    statuses.add((await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${user.id}/${shop}`, headers: bearer(user) })).statusCode);
  }
  for (let i = 0; i < 35; i++) {
    statuses.add((await t.app.inject({ method: 'DELETE', url: `/api/subComment/delete/nope${i}`, headers: bearer(user) })).statusCode);
  }
  expect([...statuses].sort()).toEqual([200, 201, 404]);
});
