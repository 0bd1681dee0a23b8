import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../services/deps';
import { writeBusinessSearch } from '../services/business/business-search';
import { resolveCategory } from '../services/business/categories';
import { indexQueuedComments } from '../services/comments/comment-search';
import { hashPassword } from '../services/accounts/passwords';
import { pngOfSvg, storeImage, storeSvgImage } from '../services/comments/images';
import { branches, businessRatings, businesses, commentRatings, comments, favorites, replies, replyRatings, users } from '../../db/schema';
import { monogramSvg } from './icons';
import { demoPictures } from './pictures';
import { buildDemoRows, seedBusinesses } from './rows';
import { DEMO_ACCOUNTS_FILE, demoUsers } from './users';

export type SeedResult = { password: string; file: string; accounts: { email: string; isAdmin: boolean }[] } | null;

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

/** Two at a time: the upload pipeline's encode queue holds a few per owner, not all of them. */
const PICTURE_WORKERS = 2;

/**
 * Draws the demo comments' pictures and stores each through the upload pipeline (a PNG
 * re-encoded to WebP within the comment bounds, exactly as a user's photo), owned by nobody as
 * the icons are; returns their ids by index in demoComments.
 */
async function storeDemoPictures(deps: Deps): Promise<Map<number, string>> {
  const queue = demoPictures();
  const ids = new Map<number, string>();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const stored = await storeImage(deps, { bytes: await pngOfSvg(next.svg), kind: 'comment', ownerId: null });
      ids.set(next.commentIndex, stored.id);
    }
  };
  await Promise.all(Array.from({ length: PICTURE_WORKERS }, worker));
  return ids;
}

/** Fills a fresh database with demo data; returns null when the database already has data. */
export async function seedDemoData(deps: Deps): Promise<SeedResult> {
  if (hasData(deps.db)) return null;

  // The slow, async part (hashing, writing icon files) runs before the one synchronous
  // transaction, which better-sqlite3 cannot hold open across an await.
  // One random password (and hash) for all demo accounts: hashing once per account would add
  // seconds to the first start.
  const password = randomBytes(12).toString('base64url');
  const [passwordHash, icons, pictureIds] = await Promise.all([
    hashPassword(password),
    Promise.all(seedBusinesses.map((b) => storeSvgImage(deps, monogramSvg(b.title, b.monogram), 'icon').then((icon) => [b.title, icon.id] as const))),
    storeDemoPictures(deps),
  ]);
  const rows = buildDemoRows({ now: Date.now(), passwordHash, iconIds: Object.fromEntries(icons), pictureIds });

  const seeded = deps.db.transaction(
    (tx) => {
      // Checked again (under the write lock, hence `immediate`) because another process on the
      // same file may have seeded while we were hashing. Icons stored for nothing are swept after
      // 24 h like any unreferenced upload.
      if (hasData(tx)) return false;
      tx.insert(users).values(rows.users).run();
      const now = Date.now();
      tx.insert(businesses)
        .values(rows.businesses.map((b) => ({ ...b, categoryId: resolveCategory(tx, rows.categoryOf.get(b.id)!, undefined, now) })))
        .run();
      tx.insert(branches).values(rows.branches).run();
      tx.insert(businessRatings).values(rows.businessRatings).run();
      tx.insert(favorites).values(rows.favorites).run();
      tx.insert(comments).values(rows.comments).run();
      tx.insert(replies).values(rows.replies).run();
      tx.insert(commentRatings).values(rows.commentRatings).run();
      tx.insert(replyRatings).values(rows.replyRatings).run();
      writeBusinessSearch(
        tx,
        rows.businesses.map((b) => b.id),
      );
      return true;
    },
    { behavior: 'immediate' },
  );
  if (!seeded) return null;
  indexQueuedComments(deps.db);

  const accounts = demoUsers.map((u) => ({ email: u.email, isAdmin: 'isAdmin' in u && u.isAdmin }));
  const file = path.join(deps.paths.data, DEMO_ACCOUNTS_FILE);
  const lines = [
    `# Recensera demo accounts, created ${new Date().toISOString()}. One password for all of them.`,
    '# e-mail password role',
    ...accounts.map((a) => `${a.email} ${password} ${a.isAdmin ? 'admin' : 'user'}`),
    '',
  ];
  await writeFile(file, lines.join('\n'), { mode: 0o600 });
  // The mode above only applies to a new file; an old one left in the folder is narrowed too.
  await chmod(file, 0o600);
  return { password, file, accounts };
}
