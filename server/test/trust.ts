import { eq } from 'drizzle-orm';
import { comments, users } from '../../db/schema';
import type { Deps } from '../services/deps';
import { createComment } from '../services/comments/comments';
import { insertBusiness } from './comment-fixtures';
import type { TestUser } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Makes test users established reporters (docs/product.md "Moderation and trust"): accounts a
 * month old, each with a public comment two days old on a business of its own, posted through the
 * comments service and then dated back (test set-up, like createTestUser's direct insert).
 */
export async function establish(deps: Deps, people: TestUser[], now = Date.now()): Promise<void> {
  for (const who of people) {
    deps.db
      .update(users)
      .set({ createdAt: now - 30 * DAY })
      .where(eq(users.id, who.id))
      .run();
    const card = await createComment(deps, who.actor, {
      businessId: insertBusiness(deps.db),
      text: 'Trevlig personal och bra kaffe.',
      businessLocation: 'Lund',
    });
    deps.db
      .update(comments)
      .set({ createdAt: now - 2 * DAY })
      .where(eq(comments.id, card._id))
      .run();
  }
}
