import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { branches, businessFactChanges, businesses } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { BranchFactsInput, BusinessFactsInput } from '../../../shared/schemas/business-facts';
import { openingHoursSchema, type OpeningHours } from '../../../shared/schemas/opening-hours';
import { requireAdmin, type Actor, type SignedIn } from '../actor';
import { writeBusinessSearch } from './business-search';
import { requireOwner } from './owners';

// A business's and its branches' facts (issue 31.1): website, phone, address, town, position,
// opening hours. Read with the business (services/business/business.ts); changed here, each change logged.

/** One branch's facts as REST, tRPC and the page show them. */
export type BranchFacts = {
  town: string;
  area: string | null;
  postalCode: string | null;
  lat: number | null;
  lng: number | null;
  phone: string | null;
  openingHours: OpeningHours | null;
};

/**
 * Who may edit a business's facts: returns the signed-in user when they may, throws AppError
 * otherwise. By default admins and the business's owners (issue 31.6: `adminsAndOwnersEditFacts`);
 * tests and tools may pass another check.
 */
export type FactsEditCheck = (actor: Actor, businessId: string, db: DbOrTx) => SignedIn;

export const adminsEditFacts: FactsEditCheck = (actor) => requireAdmin(actor);

/** Admins, and the owners of this business (a visitor 401; anyone else, banned included, 403). */
export const adminsAndOwnersEditFacts: FactsEditCheck = (actor, businessId, db) =>
  actor?.isAdmin && !actor.isBanned ? requireAdmin(actor) : requireOwner(db, actor, businessId);

/** The stored JSON of opening hours, read back; anything unreadable counts as no hours given. */
export function parseOpeningHours(json: string | null): OpeningHours | null {
  if (!json) return null;
  try {
    const parsed = openingHoursSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type FieldChanges = Record<string, [unknown, unknown]>;

/** The fields an input sets, '' and null meaning "remove" (stored as null). */
function branchSet(input: BranchFactsInput) {
  const set: Partial<typeof branches.$inferInsert> = {};
  if (input.address !== undefined) set.address = input.address || null;
  if (input.postalCode !== undefined) set.postalCode = input.postalCode ? input.postalCode.replace(/^(\d{3}) ?(\d{2})$/, '$1 $2') : null;
  if (input.town !== undefined) set.town = input.town;
  if (input.area !== undefined) set.area = input.area || null;
  if (input.lat !== undefined) set.lat = input.lat;
  if (input.lng !== undefined) set.lng = input.lng;
  if (input.phone !== undefined) set.phone = input.phone || null;
  if (input.openingHours !== undefined) set.openingHours = input.openingHours ? JSON.stringify(input.openingHours) : null;
  return set;
}

function diff(prefix: string, before: Record<string, unknown>, set: Record<string, unknown>, changes: FieldChanges) {
  for (const [field, after] of Object.entries(set)) {
    const was = before[field] ?? null;
    if (was !== (after ?? null)) changes[`${prefix}${field}`] = [was, after ?? null];
  }
}

/**
 * Changes a business's facts and its branches' (issue 31.1) in one transaction, and logs every
 * changed field with its old and new value, who and when (business_fact_changes). `mayEdit`
 * decides who may: admins unless the caller passes another check (the owners' feature does).
 * Returns the changed field names ('' when nothing changed, nothing is logged).
 */
export async function editBusinessFacts(
  deps: Deps,
  actor: Actor,
  businessId: string,
  input: BusinessFactsInput,
  mayEdit: FactsEditCheck = adminsAndOwnersEditFacts,
): Promise<{ changed: string[] }> {
  const editor = mayEdit(actor, businessId, deps.db);
  await deps.limits.consume('edit', editor.id);
  return deps.db.transaction((tx) => {
    const business = tx.select({ website: businesses.website, phone: businesses.phone }).from(businesses).where(eq(businesses.id, businessId)).get();
    if (!business) throw new AppError('NOT_FOUND', 'businessNotFound');
    const changes: FieldChanges = {};
    const businessSet: Partial<typeof businesses.$inferInsert> = {};
    if (input.website !== undefined) businessSet.website = input.website || null;
    if (input.phone !== undefined) businessSet.phone = input.phone || null;
    diff('', business, businessSet, changes);
    const list = input.branches ?? [];
    const before = new Map(
      list.length === 0
        ? []
        : tx
            .select()
            .from(branches)
            .where(
              and(
                eq(branches.businessId, businessId),
                inArray(
                  branches.id,
                  list.map((b) => b.id),
                ),
              ),
            )
            .all()
            .map((b) => [b.id, b]),
    );
    const now = Date.now();
    for (const b of list) {
      const row = before.get(b.id);
      if (!row) throw new AppError('BAD_INPUT', 'branchNotOfBusiness');
      const set = branchSet(b);
      const count = Object.keys(changes).length;
      diff(`branch:${b.id}.`, row, set, changes);
      if (Object.keys(changes).length > count) tx.update(branches).set(set).where(eq(branches.id, b.id)).run();
    }
    if (Object.keys(businessSet).some((k) => `${k}` in changes)) tx.update(businesses).set(businessSet).where(eq(businesses.id, businessId)).run();
    const changed = Object.keys(changes);
    if (changed.length > 0) {
      tx.update(businesses).set({ updatedAt: now }).where(eq(businesses.id, businessId)).run();
      // The directory search matches towns and areas: its row follows the branches.
      writeBusinessSearch(tx, [businessId]);
      tx.insert(businessFactChanges)
        .values({
          id: newId(),
          businessId,
          actorId: editor.id,
          actorName: `${editor.firstName} ${editor.lastName}`.trim(),
          changes: JSON.stringify(changes),
          createdAt: now,
        })
        .run();
    }
    return { changed };
  });
}

export type FactChange = { id: string; actorId: string | null; actorName: string; changes: FieldChanges; createdAt: number };

/** The log of a business's fact changes, newest first (whoever may edit them may read it). */
export function listFactChanges(deps: Deps, actor: Actor, businessId: string, mayEdit: FactsEditCheck = adminsAndOwnersEditFacts): FactChange[] {
  mayEdit(actor, businessId, deps.db);
  return deps.db
    .select()
    .from(businessFactChanges)
    .where(eq(businessFactChanges.businessId, businessId))
    .orderBy(desc(businessFactChanges.createdAt), desc(businessFactChanges.id))
    .limit(100)
    .all()
    .map((r) => ({ id: r.id, actorId: r.actorId, actorName: r.actorName, changes: JSON.parse(r.changes) as FieldChanges, createdAt: r.createdAt }));
}
