import { count, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { businesses, categories, images } from '../../../db/schema';
import { uploadUrl } from '../../lib/urls';
import { directoryOrderBy } from '../business/directory';

/** What the home page's carousel needs of a business. */
export type BusinessSummary = {
  _id: string;
  title: string;
  icon: string | null;
  /** The category's Swedish and English names. */
  category: string;
  categoryEn: string;
  isSuggestionBox: boolean;
};

/** How many businesses the home page's carousel shows: enough to keep it moving. */
export const HOME_CAROUSEL = 24;

/** What every home page view needs: the carousel's businesses and how many there are. */
export type HomeSummary = { carousel: BusinessSummary[]; count: number };

/**
 * The carousel's first HOME_CAROUSEL businesses in the directory's A–Ö (its ORDER BY, on
 * businesses_dir_name_idx: no sort of the table) and the number of real businesses (the
 * suggestion box is none). The same size at any number of businesses; the store chooser searches
 * the directory (`business.directoryPage`) when a visitor reaches for it.
 */
export function homeSummary(db: Db): HomeSummary {
  return {
    carousel: carouselQuery(db).all().map(toSummary),
    count: db.select({ n: count() }).from(businesses).where(eq(businesses.isSuggestionBox, false)).get()?.n ?? 0,
  };
}

/** The carousel's statement; exported so the query-plan test checks it. */
export function carouselQuery(db: Db) {
  return summaryRows(db)
    .where(eq(businesses.isSuggestionBox, false))
    .orderBy(...directoryOrderBy('name'))
    .limit(HOME_CAROUSEL);
}

function summaryRows(db: Db) {
  return db
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
    .leftJoin(images, eq(images.id, businesses.iconId));
}

type SummaryRow = ReturnType<ReturnType<typeof summaryRows>['all']>[number];

const toSummary = (row: SummaryRow): BusinessSummary => ({
  _id: row.id,
  title: row.title,
  icon: uploadUrl(row.iconFile),
  category: row.category ?? '',
  categoryEn: row.categoryEn ?? '',
  isSuggestionBox: row.isSuggestionBox,
});

/** The id the nav's "Add New" link points at; null on a site without a suggestion box. */
export function findSuggestionBoxId(db: Db): string | null {
  const row = db.select({ id: businesses.id }).from(businesses).where(eq(businesses.isSuggestionBox, true)).limit(1).get();
  return row?.id ?? null;
}
