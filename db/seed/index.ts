import argon2 from 'argon2';
import { inArray } from 'drizzle-orm';
import type { Deps } from '../../server/deps';
import { indexQueuedComments } from '../../server/services/comment-search';
import { storeSvgImage } from '../../server/services/images';
import {
  branches,
  businessRatings,
  businesses,
  commentRatings,
  comments,
  favorites,
  replies,
  replyRatings,
  users,
} from '../schema';
import { monogramSvg } from './icons';
import { buildDemoRows, seedBusinesses } from './rows';
import { DEMO_PASSWORD, demoUsers } from './users';

export type SeedResult = { password: string; accounts: { email: string; isAdmin: boolean }[] } | null;

type Tx = Parameters<Parameters<Deps['db']['transaction']>[0]>[0];

/**
 * Any business means the site is in use (or seeded before). A demo e-mail without businesses
 * means an admin emptied the directory; seeding again would then fail on the unique e-mail.
 */
function hasData(db: Deps['db'] | Tx): boolean {
  const business = db.select({ id: businesses.id }).from(businesses).limit(1).get();
  const demoUser = db
    .select({ id: users.id })
    .from(users)
    .where(
      inArray(
        users.email,
        demoUsers.map((u) => u.email),
      ),
    )
    .limit(1)
    .get();
  return business !== undefined || demoUser !== undefined;
}

/** Fills a fresh database with demo data; returns null when the database already has data. */
export async function seedDemoData(deps: Deps): Promise<SeedResult> {
  if (hasData(deps.db)) return null;

  // The slow, async part (hashing, writing icon files) runs before the one synchronous
  // transaction, which better-sqlite3 cannot hold open across an await.
  // One hash for all accounts: the password is published anyway, and hashing it once per
  // account would add seconds to the first start.
  const [passwordHash, icons] = await Promise.all([
    argon2.hash(DEMO_PASSWORD, { type: argon2.argon2id }),
    Promise.all(seedBusinesses.map((b) => storeSvgImage(deps, monogramSvg(b.title, b.monogram), 'icon').then((icon) => [b.title, icon.id] as const))),
  ]);
  const rows = buildDemoRows({ now: Date.now(), passwordHash, iconIds: Object.fromEntries(icons) });

  const seeded = deps.db.transaction((tx) => {
    // Checked again (under the write lock, hence `immediate`) because another process on the
    // same file may have seeded while we were hashing. Icons stored for nothing are swept after
    // 24 h like any unreferenced upload.
    if (hasData(tx)) return false;
    tx.insert(users).values(rows.users).run();
    tx.insert(businesses).values(rows.businesses).run();
    tx.insert(branches).values(rows.branches).run();
    tx.insert(businessRatings).values(rows.businessRatings).run();
    tx.insert(favorites).values(rows.favorites).run();
    tx.insert(comments).values(rows.comments).run();
    tx.insert(replies).values(rows.replies).run();
    tx.insert(commentRatings).values(rows.commentRatings).run();
    tx.insert(replyRatings).values(rows.replyRatings).run();
    return true;
  }, { behavior: 'immediate' });
  if (!seeded) return null;
  indexQueuedComments(deps.db);

  return {
    password: DEMO_PASSWORD,
    accounts: demoUsers.map((u) => ({ email: u.email, isAdmin: 'isAdmin' in u && u.isAdmin })),
  };
}
