import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { categories } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { svFold } from '../../lib/sv-fold';

/** One entry of the bilingual category list (docs/product.md §7). */
export type Category = { id: string; nameSv: string; nameEn: string };

const swedishOrder = new Intl.Collator('sv', { sensitivity: 'base', numeric: true });

/** The whole list in Swedish order; the client names each in the active language. */
export function listCategories(db: Db): Category[] {
  return db
    .select({ id: categories.id, nameSv: categories.nameSv, nameEn: categories.nameEn })
    .from(categories)
    .all()
    .sort((a, b) => swedishOrder.compare(a.nameSv, b.nameSv));
}

/**
 * The category a business form names, inside the caller's transaction. `name` is matched
 * against the list in either language, ignoring case by Swedish rules (`livsmedel` and
 * `Groceries` both pick "Livsmedel / Groceries"); a name the list does not have is added, with
 * `nameEn` as its English name (the Swedish one until an admin gives one). A `nameEn` sent with
 * a known name becomes that category's English name: that is how an admin edits the list.
 */
export function resolveCategory(tx: Tx | Db, name: string, nameEn: string | undefined, now: number): string {
  const wanted = svFold(name);
  const list = tx.select({ id: categories.id, nameSv: categories.nameSv, nameEn: categories.nameEn }).from(categories).all();
  const found = list.find((c) => svFold(c.nameSv) === wanted) ?? list.find((c) => svFold(c.nameEn) === wanted);
  if (!found) {
    const id = newId();
    tx.insert(categories)
      .values({ id, nameSv: name, nameEn: nameEn ?? name, createdAt: now, updatedAt: now })
      .run();
    return id;
  }
  if (nameEn && nameEn !== found.nameEn) {
    tx.update(categories).set({ nameEn, updatedAt: now }).where(eq(categories.id, found.id)).run();
  }
  return found.id;
}

/** Gives a category of the list its English name (an admin editing a business in its category). */
export function renameCategoryEn(tx: Tx | Db, id: string, nameEn: string, now: number): void {
  tx.update(categories).set({ nameEn, updatedAt: now }).where(eq(categories.id, id)).run();
}
