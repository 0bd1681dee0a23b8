import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { branches, comments } from '../../../db/schema';
import type { BranchInput } from '../../../shared/schemas/business';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { svFold } from '../../lib/sv-fold';
import { townOf } from '../../lib/towns';
import { keptParam, preparedStatements } from '../../lib/prepared';
import type { Db, DbOrTx } from '../../../db/client';

/**
 * Which branch of its business a comment is about. The form offers the branch list (plus free
 * text for another place), so "Kungens kurva" and "Kungens Kurva" are one place; free text that
 * names a branch, ignoring case and accents, is stored as that branch with the branch's spelling.
 */

export type BranchRef = { id: string; location: string };

/** Compared without case, repeated spaces or accents ('Café' = 'cafe', 'Malmo' = 'Malmö'). */
const looseFold = (text: string) => svFold(text).normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();
const strictFold = (text: string) => svFold(text).replace(/\s+/g, ' ').trim();

/**
 * The key the branch filter groups another place by (comments.place_key, issue 29.4): folded by
 * Swedish rules with spaces collapsed, so "Umeå " and "umeå" are one place; accents are kept
 * ("Taby" is not "Täby"). Migration 0026 computes the same in SQL for older comments.
 */
export const placeKeyOf = (text: string) => strictFold(text);

/**
 * The branch free text names: one whose location is the same text by Swedish case folding, else
 * the only one that is the same without accents too (two branches 'Täby' and 'Taby' stay apart).
 */
export function matchBranch<B extends BranchRef>(list: readonly B[], text: string): B | null {
  const strict = strictFold(text);
  const same = list.find((b) => strictFold(b.location) === strict);
  if (same) return same;
  const loose = looseFold(text);
  const near = list.filter((b) => looseFold(b.location) === loose);
  return near.length === 1 ? near[0] : null;
}

export function branchesOfBusiness(db: DbOrTx, businessId: string): BranchRef[] {
  return db.select({ id: branches.id, location: branches.location }).from(branches).where(eq(branches.businessId, businessId)).orderBy(branches.position).all();
}

/**
 * The business's branches in their order, compiled once: every new comment reads them
 * (resolvePlace). The id is a keptParam: with the ORDER BY, SQLite plans the statement in full and
 * would compile it again on every run (lib/prepared.ts); branches_business_idx serves both.
 */
export const branchListQuery = (db: Db) =>
  db
    .select({ id: branches.id, location: branches.location })
    .from(branches)
    .where(sql`${branches.businessId} = ${keptParam(sql.placeholder('businessId'))}`)
    .orderBy(branches.position);
const placeStatements = preparedStatements((db: Db) => ({ branchList: branchListQuery(db) }));

/** Where a comment is, as the form (or a REST client) names it: a branch id, or free text. */
export type PlaceInput = { branchId?: string; businessLocation?: string };
export type Place = { branchId: string | null; businessLocation: string; placeKey: string | null };

/**
 * The place to store for a new or edited comment: a chosen branch (which must be one of the
 * business's: 400 otherwise), or free text, linked to the branch it names (matchBranch). Its
 * statement runs on `db` itself, so inside a transaction the caller opened on it (one connection).
 */
export function resolvePlace(db: Db, businessId: string, input: PlaceInput): Place {
  const list = placeStatements(db).branchList.all({ businessId });
  if (input.branchId) {
    const branch = list.find((b) => b.id === input.branchId);
    if (!branch) throw new AppError('BAD_INPUT', 'invalidInput', { branchId: 'commentBranchUnknown' });
    return { branchId: branch.id, businessLocation: branch.location, placeKey: null };
  }
  const text = input.businessLocation ?? '';
  if (!text) throw new AppError('BAD_INPUT', 'invalidInput', { businessLocation: 'commentLocationRequired' });
  const found = matchBranch(list, text);
  return found
    ? { branchId: found.id, businessLocation: found.location, placeKey: null }
    : { branchId: null, businessLocation: text, placeKey: placeKeyOf(text) };
}

/**
 * The branch a list is filtered by must be one of the business's own (a 400 names the field);
 * branch ids are unique, so the list itself asks only for the branch.
 */
export function requireBranchOf(db: DbOrTx, businessId: string, branchId: string): void {
  const row = db.select({ businessId: branches.businessId }).from(branches).where(eq(branches.id, branchId)).get();
  if (!row || row.businessId !== businessId) throw new AppError('BAD_INPUT', 'invalidInput', { branch: 'commentBranchUnknown' });
}

/**
 * Links comments without a branch to the branch their text names (matchBranch) and gives them
 * the branch's spelling; all businesses' comments, or one business's. Comments already linked
 * are left alone, so running it again changes nothing. Each distinct text is matched once in
 * JavaScript (SQLite's lower() folds neither Å, Ä, Ö nor accents) and its rows updated by
 * business and text (comments_business_idx). The unlinked rows are found along
 * comments_branch_idx (branch_id is null), so a database where all are linked costs nothing.
 */
export function linkCommentsToBranches(tx: DbOrTx, businessId?: string): number {
  const unlinked = isNull(comments.branchId);
  const texts = tx
    .selectDistinct({ businessId: comments.businessId, location: comments.businessLocation })
    .from(comments)
    .where(businessId ? and(eq(comments.businessId, businessId), unlinked) : unlinked)
    .all();
  if (texts.length === 0) return 0;
  const businessIds = [...new Set(texts.map((r) => r.businessId))];
  const byBusiness = new Map<string, BranchRef[]>();
  // Chunks keep the statement under SQLite's parameter limit on a large upgrade.
  for (let i = 0; i < businessIds.length; i += 500) {
    const rows = tx
      .select({ id: branches.id, businessId: branches.businessId, location: branches.location })
      .from(branches)
      .where(inArray(branches.businessId, businessIds.slice(i, i + 500)))
      .orderBy(branches.businessId, branches.position)
      .all();
    for (const r of rows) byBusiness.set(r.businessId, [...(byBusiness.get(r.businessId) ?? []), r]);
  }
  let linked = 0;
  for (const r of texts) {
    const branch = matchBranch(byBusiness.get(r.businessId) ?? [], r.location);
    const sameText = and(eq(comments.businessId, r.businessId), eq(comments.businessLocation, r.location), unlinked);
    if (!branch) {
      // Still another place (a deleted branch's comments among them): the branch filter lists it by its key.
      const key = placeKeyOf(r.location);
      tx.update(comments)
        .set({ placeKey: key })
        .where(and(sameText, or(isNull(comments.placeKey), ne(comments.placeKey, key))))
        .run();
      continue;
    }
    // Rows already spelt as the branch keep their text: rewriting it would reindex them for search.
    linked += tx
      .update(comments)
      .set(
        r.location === branch.location ? { branchId: branch.id, placeKey: null } : { branchId: branch.id, businessLocation: branch.location, placeKey: null },
      )
      .where(sameText)
      .run().changes;
  }
  return linked;
}

/** A branch as the admin's business form sends it; `id` names one the business has (it is kept). */
export type BranchEdit = BranchInput & { id?: string };

/**
 * Replaces a business's branch list inside the caller's transaction, keeping the branches that
 * stay: those sent with their id, or (REST clients send no ids) with the same location by Swedish
 * case folding. A kept branch's comments stay linked, and take its new spelling when it is
 * renamed. A branch left out is deleted: its comments are unlinked (ON DELETE SET NULL) and keep
 * their location text. Comments without a branch are then matched against the new list.
 */
export function replaceBranches(tx: DbOrTx, businessId: string, list: readonly BranchEdit[]): void {
  const before = new Map(branchesOfBusiness(tx, businessId).map((b) => [b.id, b]));
  const rows = list.map((b, position) => {
    let kept = b.id ? before.get(b.id) : undefined;
    kept ??= [...before.values()].find((old) => strictFold(old.location) === strictFold(b.location));
    if (kept) before.delete(kept.id);
    return { kept, row: { id: kept?.id ?? newId(), businessId, location: b.location, address: b.address ? b.address : null, position, ...townOf(b.location) } };
  });
  if (before.size > 0)
    tx.delete(branches)
      .where(inArray(branches.id, [...before.keys()]))
      .run();
  for (const { kept, row } of rows) {
    if (!kept) continue;
    // A renamed branch's town follows its new name; the same name keeps a town set in its facts.
    const place = kept.location !== row.location ? { town: row.town, area: row.area } : {};
    tx.update(branches)
      .set({ location: row.location, address: row.address, position: row.position, ...place })
      .where(eq(branches.id, row.id))
      .run();
    if (kept.location !== row.location) tx.update(comments).set({ businessLocation: row.location }).where(eq(comments.branchId, row.id)).run();
  }
  const added = rows.filter((r) => !r.kept).map((r) => r.row);
  if (added.length > 0) tx.insert(branches).values(added).run();
  linkCommentsToBranches(tx, businessId);
}
