import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { emailTokens, users } from '../../../db/schema';
import { demoUsers } from '../../seed/users';
import { verifyPassword } from '../accounts/passwords';
import { invalidateUserSessions } from '../accounts/sessions';

/**
 * The password release 0.1.0's README published for every demo account (git show
 * 7b38027:README.md). Every 0.1.0 site started with demo data, so its demo admin answers to it.
 */
export const PUBLISHED_DEMO_PASSWORD = 'Recensera-demo-1';

/**
 * At start: every demo account whose password still verifies against the published one loses
 * its password, pending links and sessions, so nobody can sign in with it (an owner who wants
 * the account back appoints it with `npm run admin`, which mails nothing and prints a link).
 * Only the demo addresses are read, and each distinct hash is verified once (the seed gives all
 * demo accounts one hash): one argon2 verify on a typical start. Returns the locked addresses.
 */
export async function lockPublishedDemoPasswords(db: Db, now = Date.now()): Promise<string[]> {
  const rows = db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(
      and(
        inArray(
          users.email,
          demoUsers.map((u) => u.email),
        ),
        isNotNull(users.passwordHash),
      ),
    )
    .all();
  const hashes = [...new Set(rows.map((r) => r.passwordHash as string))];
  const published = new Set<string>();
  for (const hash of hashes) {
    // A hash argon2 cannot read (another format) is not the published password either.
    if (await verifyPassword(hash, PUBLISHED_DEMO_PASSWORD).catch(() => false)) published.add(hash);
  }
  const locked = rows.filter((r) => published.has(r.passwordHash as string));
  if (locked.length === 0) return [];
  return db.transaction((tx) => {
    const done: string[] = [];
    for (const row of locked) {
      // Only if the hash is still the one verified: a password changed meanwhile stays.
      const changed = tx
        .update(users)
        .set({ passwordHash: null, updatedAt: now })
        .where(and(eq(users.id, row.id), eq(users.passwordHash, row.passwordHash as string)))
        .run();
      if (changed.changes === 0) continue;
      tx.delete(emailTokens).where(eq(emailTokens.userId, row.id)).run();
      invalidateUserSessions(tx, row.id);
      done.push(row.email);
    }
    return done;
  });
}
