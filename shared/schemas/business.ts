import { z } from 'zod';
import { withoutInvisible } from './text';
import { idSchema } from './common';
import { DIRECTORY_PAGE_MAX } from './directory-constants';
import { directorySorts } from './directory-constants';
export { businessMessages } from './business-messages';

export const TITLE_MAX = 50;
export const CATEGORY_MAX = 50;
export const DESCRIPTION_MAX = 999;
export const BRANCH_TEXT_MAX = 100;
export const MAX_BRANCHES = 50;
export const RATE_MIN = 1;
export const RATE_MAX = 5;
/**
 * Directory cards get this many characters of the description and show 3 lines of it (CSS
 * line-clamp). The description's 30 characters cut most descriptions mid-word (issue 29.8).
 */
export const DIRECTORY_EXCERPT_CHARS = 180;

/** Required text: empty or missing says '*Required', then the field's own bounds. */
const requiredText = (min: number, max: number, short: string, long: string) =>
  z.string({ error: 'required' }).overwrite(withoutInvisible).trim().min(1, { error: 'required', abort: true }).min(min, short).max(max, long);

/** Optional text: empty means "not given"; anything else keeps the bounds. */
const optionalText = (min: number, max: number, short: string, long: string) =>
  z
    .string()
    .overwrite(withoutInvisible)
    .trim()
    .max(max, long)
    .refine((v) => v.length === 0 || v.length >= min, short)
    .optional();

/** A user's star rating of a business: a whole number of stars, 1 to 5 (0 is never sent). */
export const userRateSchema = z.number({ error: 'rateNotWhole' }).int('rateNotWhole').min(RATE_MIN, 'rateTooLow').max(RATE_MAX, 'rateTooHigh');

const titleSchema = requiredText(2, TITLE_MAX, 'titleTooShort', 'titleTooLong');
const categorySchema = requiredText(2, CATEGORY_MAX, 'categoryTooShort', 'categoryTooLong');
// Multipart forms send line breaks as CRLF; the description is split by line, so store LF only.
const descriptionSchema = z
  .string({ error: 'required' })
  .overwrite((v) => v.replace(/\r\n?/g, '\n'))
  .pipe(requiredText(2, DESCRIPTION_MAX, 'descriptionTooShort', 'descriptionTooLong'));
/** The English description: optional; while it is empty the Swedish one is shown in English too. */
const descriptionEnSchema = z
  .string()
  .overwrite((v) => withoutInvisible(v.replace(/\r\n?/g, '\n')))
  .trim()
  .max(DESCRIPTION_MAX, 'descriptionTooLong')
  .refine((v) => v.length === 0 || v.length >= 2, 'descriptionTooShort')
  .optional();
/** The English name of the category: for a new one, or the new English name of a known one. */
const categoryEnSchema = optionalText(2, CATEGORY_MAX, 'categoryTooShort', 'categoryTooLong');

export const branchInputSchema = z.object({
  /** On an edit: the branch this entry keeps (its comments stay linked to it). */
  id: idSchema.optional(),
  location: requiredText(2, BRANCH_TEXT_MAX, 'locationTooShort', 'locationTooLong'),
  address: optionalText(2, BRANCH_TEXT_MAX, 'addressTooShort', 'addressTooLong'),
});
export type BranchInput = z.infer<typeof branchInputSchema>;

const branchesSchema = z.array(branchInputSchema, { error: 'branchesRequired' }).min(1, 'branchesRequired').max(MAX_BRANCHES, 'branchesTooMany');

/**
 * Add Business (description section 5). imageId/iconId come from POST /api/images. `category`
 * names an entry of the bilingual list in either language, or a new one (with `categoryEn`).
 * `rate`, when given, is the adding admin's own star rating (docs/product.md §4): whole stars,
 * one rating among the users' ones.
 */
export const businessCreateSchema = z.object({
  title: titleSchema,
  category: categorySchema,
  categoryEn: categoryEnSchema,
  description: descriptionSchema,
  descriptionEn: descriptionEnSchema,
  rate: userRateSchema.optional(),
  imageId: idSchema.optional(),
  iconId: idSchema.optional(),
  branches: branchesSchema,
});
export type BusinessCreateInput = z.infer<typeof businessCreateSchema>;

/**
 * Update Business: title, category and rate may be left empty (kept as they are); description
 * and branches stay required. descriptionEn: absent keeps, empty removes. imageId/iconId:
 * absent keeps, null removes, an id replaces. `rate` replaces the editing admin's own rating.
 */
export const businessUpdateSchema = z.object({
  title: optionalText(2, TITLE_MAX, 'titleTooShort', 'titleTooLong'),
  category: optionalText(2, CATEGORY_MAX, 'categoryTooShort', 'categoryTooLong'),
  categoryEn: categoryEnSchema,
  description: descriptionSchema,
  descriptionEn: descriptionEnSchema,
  rate: userRateSchema.optional(),
  imageId: idSchema.nullable().optional(),
  iconId: idSchema.nullable().optional(),
  branches: branchesSchema,
});
export type BusinessUpdateInput = z.infer<typeof businessUpdateSchema>;

export const businessSearchSchema = z.string().max(100, 'searchTooLong').optional();

/**
 * The directory's filters and order (REST `GET /api/business`, tRPC `business.directory`):
 * `category` names an entry of the category list in either language, `city` a normalised town
 * in any case (GET /api/business/filters lists both); an unknown one matches nothing.
 */
export const directoryQuerySchema = z.object({
  search: businessSearchSchema,
  category: z.string().trim().min(1, 'invalidInput').max(CATEGORY_MAX, 'invalidInput').optional(),
  city: z.string().trim().min(1, 'invalidInput').max(BRANCH_TEXT_MAX, 'invalidInput').optional(),
  sort: z.enum(directorySorts, { error: 'invalidInput' }).optional(),
});
export type DirectoryQuery = z.infer<typeof directoryQuerySchema>;

/** The directory's filters, for the counts of the others (GET /api/business/filters, tRPC business.directoryFilters). */
export const directoryFiltersQuerySchema = directoryQuerySchema.omit({ sort: true });

export { DIRECTORY_PAGE, DIRECTORY_PAGE_MAX } from './directory-constants';

/** A page cursor: the place where the page starts, as the previous page's nextCursor gave it. */
export const directoryCursorSchema = z
  .string()
  .regex(/^\d{1,9}$/, 'invalidInput')
  .optional();
export const directoryPageLimitSchema = z.number().int().min(1).max(DIRECTORY_PAGE_MAX).optional();

/** Which directory cards to show, in this order ("Närmast mig"): at most a page's worth. */
export const directoryCardsInputSchema = z.object({ ids: z.array(idSchema).min(1).max(DIRECTORY_PAGE_MAX) });

/** The directory's filters and order, and which page of the list. */
export const directoryPageQuerySchema = directoryQuerySchema.extend({ limit: directoryPageLimitSchema, cursor: directoryCursorSchema });
export type DirectoryPageQuery = z.infer<typeof directoryPageQuerySchema>;

export const businessIdInputSchema = z.object({ id: idSchema });
