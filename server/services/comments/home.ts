import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { businesses, categories, images } from '../../../db/schema';
import { uploadUrl } from '../../lib/urls';
import { byTitle } from '../business/business';

/** What the home page's carousel and store chooser need of a business. */
export type BusinessSummary = {
  _id: string;
  title: string;
  icon: string | null;
  /** The category's Swedish and English names. */
  category: string;
  categoryEn: string;
  isSuggestionBox: boolean;
};

/**
 * Every business, the suggestion box first, the rest by title in Swedish order (Å, Ä, Ö after
 * Z). Sorted here rather than in SQL because SQLite has no Swedish collation.
 */
export function listBusinessSummaries(db: Db): BusinessSummary[] {
  const rows = db
    .select({
      id: businesses.id,
      title: businesses.title,
      category: categories.nameSv,
      categoryEn: categories.nameEn,
      isSuggestionBox: businesses.isSuggestionBox,
      iconFile: images.fileName,
    })
    .from(businesses)
    .leftJoin(categories, eq(categories.id, businesses.categoryId))
    .leftJoin(images, eq(images.id, businesses.iconId))
    .all();
  return rows
    .map((row) => ({
      _id: row.id,
      title: row.title,
      icon: uploadUrl(row.iconFile),
      category: row.category ?? '',
      categoryEn: row.categoryEn ?? '',
      isSuggestionBox: row.isSuggestionBox,
    }))
    .sort(byTitle);
}

/** The id the nav's "Add New" link points at; null on a site without a suggestion box. */
export function findSuggestionBoxId(db: Db): string | null {
  const row = db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).limit(1).get();
  return row?.id ?? null;
}
