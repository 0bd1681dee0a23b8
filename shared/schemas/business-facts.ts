import { z } from 'zod';
import { idSchema } from './common';
import { withoutInvisible } from './text';
import { openingHoursSchema } from './opening-hours';

/**
 * A business's and its branches' facts (issue 31.1): website, phone, address, town, position and
 * opening hours. In an edit a field left out keeps its value and an empty one (or null) removes
 * it; a branch is named by its id (the business form adds and removes branches).
 */
export const WEBSITE_MAX = 200;
/** A town not in the list is kept as the whole branch location (server/lib/towns.ts), up to its 100 characters. */
export const TOWN_MAX = 100;
export const STREET_MAX = 100;

const clean = (v: string) => withoutInvisible(v).trim();
/** Optional text that may be cleared: '' removes it. */
const clearable = <T extends z.ZodType<string, string>>(inner: T) =>
  z
    .string()
    .overwrite(clean)
    .pipe(z.union([z.literal(''), inner]))
    .optional();

export const websiteSchema = clearable(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'websiteInvalid' }).max(WEBSITE_MAX, 'websiteInvalid'));
/** A Swedish or international number as people write it: digits, spaces, +, -, parentheses. */
export const phoneSchema = clearable(z.string().regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, 'phoneInvalid'));
const postalCodeSchema = clearable(z.string().regex(/^\d{3} ?\d{2}$/, 'postalCodeInvalid'));
const streetSchema = clearable(z.string().min(2, 'addressTooShort').max(STREET_MAX, 'addressTooLong'));
// One letter is an area too: "Malmö C" is Malmö, area C.
const areaSchema = clearable(z.string().min(1, 'townInvalid').max(TOWN_MAX, 'townInvalid'));

const branchFactFields = {
  address: streetSchema,
  postalCode: postalCodeSchema,
  /** The normalised town the city filter lists ("Malmö"). */
  // '' for a branch that is nowhere in particular ("Hela Sverige"), as branch locations make it.
  town: z
    .string()
    .overwrite(clean)
    .pipe(z.union([z.literal(''), z.string().min(2, 'townInvalid').max(TOWN_MAX, 'townInvalid')]))
    .optional(),
  /** The part of town ("Hyllie"). */
  area: areaSchema,
  lat: z.number('coordinatesInvalid').min(-90, 'coordinatesInvalid').max(90, 'coordinatesInvalid').nullable().optional(),
  lng: z.number('coordinatesInvalid').min(-180, 'coordinatesInvalid').max(180, 'coordinatesInvalid').nullable().optional(),
  phone: phoneSchema,
  openingHours: openingHoursSchema.nullable().optional(),
};

/** Latitude and longitude come together: both numbers, both null, or both left out. */
const bothOrNeither = (b: { lat?: number | null; lng?: number | null }) =>
  (b.lat === undefined) === (b.lng === undefined) && (b.lat === null) === (b.lng === null);

export const branchFactsSchema = z.object({ id: idSchema, ...branchFactFields }).refine(bothOrNeither, { error: 'coordinatesInvalid', path: ['lat'] });
/** The same as REST names it (`_id`). */
export const restBranchFactsSchema = z.object({ _id: idSchema, ...branchFactFields }).refine(bothOrNeither, { error: 'coordinatesInvalid', path: ['lat'] });
export type BranchFactsInput = z.infer<typeof branchFactsSchema>;

export const businessFactsSchema = z.object({
  website: websiteSchema,
  phone: phoneSchema,
  branches: z.array(branchFactsSchema).max(50, 'branchesTooMany').optional(),
});
export type BusinessFactsInput = z.infer<typeof businessFactsSchema>;

export const restBusinessFactsSchema = businessFactsSchema.extend({ branches: z.array(restBranchFactsSchema).max(50, 'branchesTooMany').optional() });
