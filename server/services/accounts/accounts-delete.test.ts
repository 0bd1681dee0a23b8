import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  businesses,
  businessRatings,
  commentRatings,
  comments,
  emailTokens,
  favorites,
  images,
  oauthAccounts,
  replies,
  replyRatings,
  sessions,
  users,
} from '../../../db/schema';
import { newId } from '../../lib/ids';
import { callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { ftsQueryOf, indexQueuedComments } from '../comments/comment-search';
import { resolveCategory } from '../business/categories';
import { storeImage } from '../comments/images';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const now = Date.now();
let colour = 0;
async function image(ownerId: string) {
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: colour++ % 256, g: 80, b: 120 } } })
    .png()
    .toBuffer();
  return storeImage(t.deps, { bytes, kind: 'comment', ownerId });
}
const fileOf = (stored: { fileName: string }) => path.join(t.deps.paths.uploads, stored.fileName);

function business(title: string, counts: { ratingCount?: number; ratingSum?: number; commentCount?: number } = {}) {
  const id = newId();
  t.db
    .insert(businesses)
    .values({
      id,
      title,
      titleSearch: title.toLowerCase(),
      categoryId: resolveCategory(t.db, 'Livsmedel', undefined, now),
      description: 'Butik',
      createdAt: now,
      updatedAt: now,
      ...counts,
    })
    .run();
  return id;
}

function comment(userId: string, businessId: string, extra: Partial<typeof comments.$inferInsert> = {}) {
  const id = newId();
  t.db
    .insert(comments)
    .values({ id, userId, businessId, businessLocation: 'Umeå', text: 'Bra service', createdAt: now, updatedAt: now, ...extra })
    .run();
  return id;
}

function reply(userId: string, commentId: string, businessId: string, extra: Partial<typeof replies.$inferInsert> = {}) {
  const id = newId();
  t.db
    .insert(replies)
    .values({ id, userId, commentId, businessId, text: 'Håller med', createdAt: now, updatedAt: now, ...extra })
    .run();
  return id;
}

const one = <T>(rows: T[]) => rows[0];
const businessRow = (id: string) => one(t.db.select().from(businesses).where(eq(businesses.id, id)).all());
const commentRow = (id: string) => one(t.db.select().from(comments).where(eq(comments.id, id)).all());
const replyRow = (id: string) => one(t.db.select().from(replies).where(eq(replies.id, id)).all());
const countWhere = (table: typeof sessions | typeof emailTokens | typeof oauthAccounts | typeof favorites, userId: string) =>
  t.db.select().from(table).where(eq(table.userId, userId)).all().length;

describe('deleting an account', () => {
  it('removes everything of the user in one go and recomputes the numbers on what others wrote', async () => {
    const victim: TestUser = await createTestUser(t.db, { firstName: 'Vera', lastName: 'Borta' });
    const alice = await createTestUser(t.db, { firstName: 'Alice' });
    const bob = await createTestUser(t.db, { firstName: 'Bob' });

    const avatar = await image(victim.id);
    t.db.update(users).set({ imageId: avatar.id }).where(eq(users.id, victim.id)).run();
    const c1Image = await image(victim.id);
    const r1Image = await image(victim.id);
    const r3Image = await image(alice.id);
    const c2Image = await image(alice.id);

    // The numbers below are what the rating and comment services keep in the columns.
    const b1 = business('ICA Kvantum', { ratingCount: 2, ratingSum: 8 });
    t.db
      .insert(businessRatings)
      .values([
        { businessId: b1, userId: victim.id, rate: 5, createdAt: now, updatedAt: now },
        { businessId: b1, userId: alice.id, rate: 3, createdAt: now, updatedAt: now },
      ])
      .run();
    const b2 = business('Apotek Hjärtat', { commentCount: 2 });
    const b3 = business('Clas Ohlson', { ratingCount: 1, ratingSum: 2 });
    t.db.insert(businessRatings).values({ businessId: b3, userId: victim.id, rate: 2, createdAt: now, updatedAt: now }).run();

    const c1 = comment(victim.id, b2, { imageId: c1Image.id, replyCount: 1 });
    const c2 = comment(alice.id, b2, { imageId: c2Image.id, replyCount: 2, ratingCount: 2, ratingAvg: 2.5, rated1: 1, rated4: 1 });
    t.db
      .insert(commentRatings)
      .values([
        { commentId: c2, userId: victim.id, rate: 1, createdAt: now },
        { commentId: c2, userId: bob.id, rate: 4, createdAt: now },
      ])
      .run();
    const r1 = reply(victim.id, c2, b2, { imageId: r1Image.id });
    const r2 = reply(bob.id, c2, b2, { ratingCount: 2, ratingAvg: 3.5, rated2: 1, rated5: 1 });
    t.db
      .insert(replyRatings)
      .values([
        { replyId: r2, userId: victim.id, rate: 2, createdAt: now },
        { replyId: r2, userId: alice.id, rate: 5, createdAt: now },
      ])
      .run();
    const r3 = reply(alice.id, c1, b2, { imageId: r3Image.id, ratingCount: 1, ratingAvg: 4, rated4: 1 });
    t.db.insert(replyRatings).values({ replyId: r3, userId: bob.id, rate: 4, createdAt: now }).run();

    t.db.insert(favorites).values({ userId: victim.id, businessId: b1, createdAt: now }).run();
    t.db
      .insert(emailTokens)
      .values({ id: newId(), userId: victim.id, kind: 'reset', tokenHash: newId(), createdAt: now, expiresAt: now + 1000 })
      .run();
    t.db.insert(oauthAccounts).values({ issuer: 'https://accounts.google.com', subject: 'vera-1', userId: victim.id, createdAt: now }).run();

    const indexed = () => t.db.get<{ n: number }>(sql`select count(*) as n from comments_fts where comments_fts match ${ftsQueryOf(b2, 'Vera Borta')}`).n;
    indexQueuedComments(t.db);
    expect(indexed()).toBe(1);
    expect(await callerFor(t.deps, victim).users.delete({ userId: victim.id })).toEqual({ success: true });

    expect(one(t.db.select().from(users).where(eq(users.id, victim.id)).all())).toBeUndefined();
    for (const table of [sessions, emailTokens, oauthAccounts, favorites]) expect(countWhere(table, victim.id)).toBe(0);
    for (const table of [businessRatings, commentRatings, replyRatings]) {
      expect(t.db.select().from(table).where(eq(table.userId, victim.id)).all()).toEqual([]);
    }

    // Their comment, their reply, and the reply under their comment are gone.
    expect(commentRow(c1)).toBeUndefined();
    expect(replyRow(r1)).toBeUndefined();
    expect(replyRow(r3)).toBeUndefined();
    expect(t.db.select().from(replyRatings).where(eq(replyRatings.replyId, r3)).all()).toEqual([]);

    expect(businessRow(b1)).toMatchObject({ ratingCount: 1, ratingSum: 3 });
    expect(businessRow(b2)).toMatchObject({ commentCount: 1 });
    expect(businessRow(b3)).toMatchObject({ ratingCount: 0, ratingSum: 0 });
    expect(commentRow(c2)).toMatchObject({ replyCount: 1, ratingCount: 1, ratingAvg: 4, rated1: 0, rated2: 0, rated3: 0, rated4: 1, rated5: 0 });
    expect(replyRow(r2)).toMatchObject({ ratingCount: 1, ratingAvg: 5, rated2: 0, rated5: 1 });

    // The search index lost the comment with it (the FTS trigger ran inside the same write).
    expect(indexed()).toBe(0);

    await new Promise((r) => setTimeout(r, 50));
    for (const gone of [avatar, c1Image, r1Image, r3Image]) {
      expect(existsSync(fileOf(gone))).toBe(false);
      expect(t.db.select().from(images).where(eq(images.id, gone.id)).all()).toEqual([]);
    }
    expect(existsSync(fileOf(c2Image))).toBe(true);
  });

  it('recomputes averages to null when the last rating goes', async () => {
    const victim = await createTestUser(t.db);
    const author = await createTestUser(t.db);
    const b = business('Systembolaget', { commentCount: 1 });
    const c = comment(author.id, b, { ratingCount: 1, ratingAvg: 3, rated3: 1 });
    t.db.insert(commentRatings).values({ commentId: c, userId: victim.id, rate: 3, createdAt: now }).run();

    await callerFor(t.deps, victim).users.delete({ userId: victim.id });
    expect(commentRow(c)).toMatchObject({ ratingCount: 0, ratingAvg: null, rated3: 0 });
  });

  it('keeps everything when it is refused (the last admin)', async () => {
    t.db.update(users).set({ isAdmin: false }).run();
    const admin = await createTestUser(t.db, { isAdmin: true });
    const b = business('Biltema', { ratingCount: 1, ratingSum: 5 });
    t.db.insert(businessRatings).values({ businessId: b, userId: admin.id, rate: 5, createdAt: now, updatedAt: now }).run();

    await expect(callerFor(t.deps, admin).users.delete({ userId: admin.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(one(t.db.select().from(users).where(eq(users.id, admin.id)).all())).toBeDefined();
    expect(businessRow(b)).toMatchObject({ ratingCount: 1, ratingSum: 5 });
  });
});
