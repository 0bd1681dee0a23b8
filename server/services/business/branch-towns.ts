import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { branches } from '../../../db/schema';
import { townOf } from '../../lib/towns';

/**
 * Gives every branch the town and area its location names ("Malmö Hyllie" → Malmö, Hyllie):
 * migration 0019's upgrade task, for branches written before branches had towns. Returns how
 * many it changed.
 */
export function splitBranchTowns(tx: DbOrTx): number {
  let changed = 0;
  for (const row of tx.select({ id: branches.id, location: branches.location, town: branches.town, area: branches.area }).from(branches).all()) {
    const { town, area } = townOf(row.location);
    if (town === row.town && area === row.area) continue;
    tx.update(branches).set({ town, area }).where(eq(branches.id, row.id)).run();
    changed++;
  }
  return changed;
}
