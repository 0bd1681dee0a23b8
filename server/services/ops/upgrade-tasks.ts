import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { upgradeTasks } from '../../../db/schema';
import { linkCommentsToBranches } from '../comments/comment-branches';
import { giveTownsToTownless, splitBranchTowns } from '../business/branch-towns';
import type { Tx } from '../../../db/client';

/**
 * One-off data upgrades that need application code, queued by the migration that needs them
 * (a row in upgrade_tasks). Each runs in one transaction with the deletion of its row: it runs
 * once, and a crash half-way leaves it queued for the next start.
 */
const tasks: Record<string, (tx: Tx) => void> = {
  // Migration 0014: existing comments get the branch their location text names.
  'comment-branches': (tx) => void linkCommentsToBranches(tx),
  // Migration 0019: "Malmö Hyllie" becomes town "Malmö" with area "Hyllie".
  'branch-towns': (tx) => void splitBranchTowns(tx),
  // Migration 0028: places approved from suggestions before approval gave their branch a town.
  'suggested-branch-towns': (tx) => void giveTownsToTownless(tx),
};

/** Runs the queued upgrade tasks (server start, after migrations and the demo data); returns their names. */
export function runUpgradeTasks(db: Db): string[] {
  const queued = db.select({ name: upgradeTasks.name }).from(upgradeTasks).all();
  const done: string[] = [];
  for (const { name } of queued) {
    const task = tasks[name];
    // A task this release does not know (a newer release queued it) waits for that release.
    if (!task) continue;
    db.transaction((tx) => {
      task(tx);
      tx.delete(upgradeTasks).where(eq(upgradeTasks.name, name)).run();
    });
    done.push(name);
  }
  return done;
}
