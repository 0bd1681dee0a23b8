import { eq } from 'drizzle-orm';
import { writeBusinessSearch } from './business-search';
import type { DbOrTx, Tx } from '../../../db/client';
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

/**
 * Gives a town to the branches that have none but a location that names one: places approved
 * from members' suggestions before approval set it (migration 0028's upgrade task). Found along
 * branches_town_idx (town = ''), so a database without such branches costs one index probe.
 * Their businesses' search rows are written again, since they hold the towns. Returns how many
 * branches it changed.
 */
export function giveTownsToTownless(tx: Tx): number {
  const townless = tx
    .select({ id: branches.id, businessId: branches.businessId, location: branches.location })
    .from(branches)
    .where(eq(branches.town, ''))
    .all();
  const businessIds = new Set<string>();
  let changed = 0;
  for (const row of townless) {
    const { town, area } = townOf(row.location);
    if (!town) continue;
    tx.update(branches).set({ town, area }).where(eq(branches.id, row.id)).run();
    businessIds.add(row.businessId);
    changed++;
  }
  writeBusinessSearch(tx, [...businessIds]);
  return changed;
}
