import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../db/schema';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { insertBusiness } from '../../test/comment-fixtures';
import { createComment, updateComment } from '../comments/comments';
import { createReply } from '../comments/replies';
import { linksIn } from './spam';

let t: TestContext;
let shop: string;
let veteran: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0', SPAM_RULES: '1' } });
  shop = insertBusiness(t.db, 'Spambutiken');
  veteran = await createTestUser(t.db, { firstName: 'Vera', lastName: 'Veteran' });
  t.db
    .update(users)
    .set({ createdAt: Date.now() - 30 * 86_400_000 })
    .where(eq(users.id, veteran.id))
    .run();
});
afterAll(() => t.close());

const comment = (who: TestUser, text: string) => createComment(t.deps, who.actor, { businessId: shop, text, businessLocation: 'Lund' });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; key?: string; fields?: Record<string, string> }) => e,
  );

describe('spam rules for new posts (docs/product.md §11)', () => {
  it('finds links the way readers would follow them', () => {
    expect(linksIn('Se https://example.com och www.exempel.se')).toBe(2);
    expect(linksIn('billigaklockor.se/rea och köp.nu')).toBe(2);
    expect(linksIn('Bra service, 5.5 av 10. Kl. 10.30 öppnar de.')).toBe(0);
  });

  it('an account younger than 24 h posts at most 5 times and no links', async () => {
    const newcomer = await createTestUser(t.db);
    const links = await failure(comment(newcomer, 'Besök www.billigt.se'));
    expect(links).toMatchObject({ code: 'BAD_INPUT', key: 'spamNewAccountLinks', fields: { text: 'spamNewAccountLinks' } });
    const first = await comment(newcomer, 'Första inlägget');
    for (let i = 2; i <= 4; i++) await comment(newcomer, `Inlägg nummer ${i}`);
    await createReply(t.deps, newcomer.actor, { commentId: first._id, text: 'Femte, ett svar' });
    expect(await failure(comment(newcomer, 'Sjätte inlägget'))).toMatchObject({ code: 'FORBIDDEN', key: 'spamNewAccountPosts' });
    const rest = await t.app.inject({
      method: 'POST',
      url: `/api/comment/addSubComment/${first._id}`,
      headers: { ...bearer(newcomer), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="text"\r\n\r\nSjunde försöket\r\n--x--\r\n',
    });
    expect(rest.statusCode).toBe(403);
    expect(rest.json()).toMatchObject({
      key: 'spamNewAccountPosts',
      message: 'New accounts can post at most 5 times during their first 24 hours. Please come back tomorrow.',
    });
  });

  it('any account: more than 2 links, or text it posted in the last 24 h, is refused; edits cannot add links either', async () => {
    const ok = await comment(veteran, 'Jämför https://a.se och https://b.se');
    expect(await failure(comment(veteran, 'https://a.se https://b.se https://c.se'))).toMatchObject({ code: 'BAD_INPUT', key: 'spamTooManyLinks' });
    expect(await failure(comment(veteran, 'Jämför https://a.se och https://b.se'))).toMatchObject({ code: 'BAD_INPUT', key: 'spamRepeated' });
    await expect(callerFor(t.deps, veteran).comments.reply({ commentId: ok._id, text: 'Jämför https://a.se och https://b.se' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'You already posted this text in the last 24 hours.',
    });
    expect(await failure(updateComment(t.deps, veteran.actor, { id: ok._id, text: 'x.se y.se z.se' }))).toMatchObject({ key: 'spamTooManyLinks' });
    // Someone else may say the same thing.
    const other = await createTestUser(t.db);
    t.db
      .update(users)
      .set({ createdAt: Date.now() - 2 * 86_400_000 })
      .where(eq(users.id, other.id))
      .run();
    await expect(comment(other, 'Jämför https://a.se och https://b.se')).resolves.toMatchObject({ text: 'Jämför https://a.se och https://b.se' });
  });
});
