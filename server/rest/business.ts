import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { AppError } from '../lib/errors';
import { keptArrayOf } from '../lib/kept-json';
import { schemaSerializer } from '../lib/reply-serializer';
import { parseInput } from '../lib/validation';
import {
  BRANCH_TEXT_MAX,
  businessCreateSchema,
  businessSearchSchema,
  directoryCursorSchema,
  directoryFiltersQuerySchema,
  directoryQuerySchema,
  DIRECTORY_PAGE_MAX,
  DESCRIPTION_MAX,
  businessUpdateSchema,
  MAX_BRANCHES,
  userRateSchema,
} from '../../shared/schemas/business';
import { idSchema, MAX_UPLOAD_BYTES } from '../../shared/schemas/common';
import { messageText } from '../../shared/schemas/messages';
import type { Actor } from '../services/actor';
import { getBusiness, type Business, type BusinessDetail } from '../services/business/business';
import { createBusiness, deleteBusiness, updateBusiness } from '../services/business/business-admin';
import { businessesByIds, businessPage, directoryFilters, searchedBusinessIds } from '../services/business/directory';
import { rateBusiness, unrateBusiness } from '../services/business/business-ratings';
import { listCategories } from '../services/business/categories';
import { requireAdmin } from '../services/actor';
import { listBusinessPhotos } from '../services/comments/photos';
import { photosPageSchema } from '../../shared/schemas/photos';
import { pageQuerySchema, withNextCursor } from './comment';
import { formNumber } from './form-number';
import { checkForm, emptyOr, fileFieldsOf, FORM_FIELD_MAX, formBody, formFile, type FormBody } from './forms';
import { withMultipartForm, type MultipartForm } from './images';
import { errorSchema } from './openapi';
import { restBusinessFactsSchema } from '../../shared/schemas/business-facts';
import { openingHoursSchema } from '../../shared/schemas/opening-hours';
import { editBusinessFacts, listFactChanges } from '../services/business/business-facts';

export const restBusinessSchema = z.object({
  _id: z.string(),
  title: z.string(),
  category: z.string().describe("The category's Swedish name (an entry of GET /api/business/categories)."),
  categoryEn: z.string().describe("The same category's English name."),
  description: z.string().describe('The Swedish description; paragraphs separated by line breaks.'),
  descriptionEn: z.string().nullable().describe('The English description, or null: then the Swedish one is shown in English too.'),
  website: z.string().nullable().describe("The business's website, or null."),
  phone: z.string().nullable().describe("The business's phone number, or null."),
  rate: z
    .number()
    .nullable()
    .describe("The average of the star ratings (1–5; an admin's rate given with the form is one of them); null while nobody has rated."),
  ratingCount: z.number().int().describe('How many users rated it; 0 with `rate` null.'),
  image: z.string().nullable(),
  icon: z.string().nullable(),
  branches: z.array(
    z.object({
      _id: z.string(),
      location: z.string().describe('The branch as reviews name it ("Malmö Hyllie").'),
      address: z.string().nullable().describe('Street address.'),
      town: z.string().describe('The normalised town (`Malmö`): the values of `city` in GET /api/business/filters. Empty for no place.'),
      area: z.string().nullable().describe('The part of town (`Hyllie`), if any.'),
      postalCode: z.string().nullable(),
      lat: z.number().nullable().describe('Latitude, WGS 84 degrees.'),
      lng: z.number().nullable().describe('Longitude, WGS 84 degrees.'),
      phone: z.string().nullable(),
      openingHours: openingHoursSchema
        .nullable()
        .describe(
          'Wall-clock times in Europe/Stockholm. `weekly`: periods by ISO weekday (1 Monday … 7 Sunday), a closing time not after the ' +
            'opening time runs past midnight, 00:00–00:00 is open all day; `exceptions`: dated days that replace the week (no periods: closed).',
        ),
      rate: z
        .number()
        .nullable()
        .optional()
        .describe('GET /business/{id} only: the average star rating of the users who commented at this branch; null while none of them rated.'),
      ratingCount: z.number().int().optional().describe('GET /business/{id} only: how many of those users rated.'),
      commentCount: z.number().int().optional().describe('GET /business/{id} only: its public comments (the branch filter shows it).'),
    }),
  ),
  isFavorite: z
    .record(z.string(), z.literal(true))
    .describe("`{ [yourUserId]: true }` when it is among your favourites, otherwise `{}`; never other users' entries."),
  isSuggestionBox: z.boolean().describe('The "Add New" suggestion box; always listed first and never deleted.'),
  suggestedBy: z
    .object({ _id: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable()
    .optional()
    .describe('GET /business/{id} only: the member whose suggestion (POST /api/business/suggestions) it came from; null otherwise.'),
});
export type RestBusiness = z.infer<typeof restBusinessSchema>;

/** The documented JSON shape (`_id`, isFavorite as a map holding at most the caller's own entry). */
export function toRestBusiness(b: Business | BusinessDetail, actor: Actor): RestBusiness {
  return {
    _id: b.id,
    title: b.title,
    category: b.category,
    categoryEn: b.categoryEn,
    description: b.description,
    descriptionEn: b.descriptionEn,
    website: b.website,
    phone: b.phone,
    rate: b.rate,
    ratingCount: b.ratingCount,
    image: b.image,
    icon: b.icon,
    branches: b.branches.map((br) => ({
      _id: br.id,
      location: br.location,
      address: br.address,
      town: br.town,
      area: br.area,
      postalCode: br.postalCode,
      lat: br.lat,
      lng: br.lng,
      phone: br.phone,
      openingHours: br.openingHours,
      ...('ratingCount' in br ? { rate: br.rate, ratingCount: br.ratingCount, commentCount: br.commentCount } : {}),
    })),
    isFavorite: actor && b.isFavorite ? { [actor.id]: true as const } : {},
    isSuggestionBox: b.isSuggestionBox,
    ...('suggestedBy' in b
      ? { suggestedBy: b.suggestedBy && { _id: b.suggestedBy.id, firstName: b.suggestedBy.firstName, lastName: b.suggestedBy.lastName } }
      : {}),
  };
}

/** One business as `GET /api/business` lists it, written as the list's own writer writes each item. */
const writeRestBusiness = schemaSerializer(restBusinessSchema);

/**
 * The JSON array of these businesses as a visitor sees them, in this order, each document written
 * once per data stamp (keptArrayOf): a search page reads and writes only those no search has shown
 * since the last write (docs/decisions/008).
 */
function keptBusinessDocuments(deps: Deps, ids: string[]): Buffer {
  return keptArrayOf(
    deps.db,
    'rest-business',
    ids,
    (missing) => new Map(businessesByIds(deps, missing).map((b) => [b.id, writeRestBusiness(toRestBusiness(b, null))])),
    // A document is a business with its branches: kept through reactions, replies and new comments.
    'businesses',
  );
}

const BRANCH_FIELD = /^branches\[(\d{1,3})\]\[(location|address|_id)\]$/;

/**
 * The documented multipart form as the zod schemas expect it: `branches[i][location]` fields
 * become an array (a JSON `branches` field works too), `rate` a number, empty optional fields absent.
 */
function businessFormInput({ fields }: MultipartForm): Record<string, unknown> {
  const indexed = new Map<number, { location?: string; address?: string; id?: string }>();
  for (const [name, value] of Object.entries(fields)) {
    const match = BRANCH_FIELD.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    const branch = indexed.get(index) ?? {};
    // `_id` (the documented name) keeps that branch and its comments' links (services/comments/comment-branches.ts).
    branch[match[2] === '_id' ? 'id' : (match[2] as 'location' | 'address')] = value;
    indexed.set(index, branch);
  }
  let branches: unknown = [...indexed.entries()].sort(([a], [b]) => a - b).map(([, branch]) => branch);
  if (indexed.size === 0 && fields.branches !== undefined) {
    try {
      branches = (JSON.parse(fields.branches) as unknown[]).map((b) => (b && typeof b === 'object' && '_id' in b ? { ...b, id: b._id } : b));
    } catch {
      throw new AppError('BAD_INPUT', 'invalidInput', { branches: 'invalidInput' });
    }
  }
  const present = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);
  return {
    title: fields.title,
    category: fields.category,
    categoryEn: fields.categoryEn,
    description: fields.description,
    descriptionEn: fields.descriptionEn,
    rate: present(fields.rate) === undefined ? undefined : formNumber(fields.rate, 'decimal'),
    imageId: present(fields.imageId),
    iconId: present(fields.iconId),
    branches: indexed.size === 0 && fields.branches === undefined ? undefined : branches,
  };
}

/** `rate` as the form writes it (`4`): read as the service's number, documented as whole stars. */
const formRate = z
  .string()
  .regex(/^(?:0|[1-9]\d*)(?:\.\d+)?$/, 'invalidInput')
  .transform(Number)
  .pipe(userRateSchema)
  .meta({ pattern: '^[1-5]$' })
  .describe('A whole number of stars 1–5 written as text (`4`): your own rating of the business.');
const picture = (what: string) =>
  formFile(`${what} (JPEG, PNG, WebP, GIF or AVIF, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB); re-encoded to WebP without metadata.`);

/** Optional text of the service schema: empty (keep, or none) or 2 characters and more. */
const emptyOrTwo = <S extends z.ZodType>(schema: S) => schema.meta({ anyOf: [{ maxLength: 0 }, { minLength: 2 }] });

/** The multipart form of POST /business/upload and PUT /business/{id}: the fields the service schema parses. */
function businessForm(schema: typeof businessCreateSchema | typeof businessUpdateSchema, required: ('title' | 'category' | 'description')[]) {
  const { title, category, categoryEn, description, descriptionEn } = schema.shape;
  const optional = (field: z.ZodType, name: string) => (required.includes(name as 'title') ? field : emptyOrTwo(field));
  return formBody(
    {
      title: optional(title, 'title').describe('2–50 characters.'),
      category: optional(category, 'category').describe("2–50: a name of the category list (Swedish or English) or a new category's Swedish name."),
      categoryEn: emptyOrTwo(categoryEn).describe('2–50: the English name of a new category, or a new English name for the named one.'),
      description: description
        .meta({ minLength: 2, maxLength: DESCRIPTION_MAX })
        .describe(`2–${DESCRIPTION_MAX} characters (a line break counts as one), paragraphs separated by line breaks.`),
      descriptionEn: emptyOrTwo(descriptionEn).describe(`2–${DESCRIPTION_MAX}: the English description; empty removes it on an edit.`),
      rate: emptyOr(formRate),
      branches: z
        .string()
        .regex(/^\s*\[[\s\S]*\]\s*$/, 'invalidInput')
        .max(FORM_FIELD_MAX)
        .optional()
        .describe(
          `JSON array of {location, address?, _id?} (location 2–${BRANCH_TEXT_MAX}, address 2–100; 1–${MAX_BRANCHES} branches). ` +
            'Browsers send the same as indexed fields `branches[0][location]`, `branches[0][address]`, … instead.',
        ),
      image: picture('The business picture'),
      icon: picture('The business icon'),
      imageId: emptyOr(idSchema).describe('Instead of the file `image`: an id from POST /api/images.'),
      iconId: emptyOr(idSchema).describe('Instead of the file `icon`: an id from POST /api/images.'),
    },
    {
      required,
      parsedLater: ['title', 'category', 'categoryEn', 'description', 'descriptionEn', 'rate', 'branches', 'imageId', 'iconId'],
      others: { pattern: BRANCH_FIELD, description: 'The indexed branch fields `branches[i][location]`, `branches[i][address]` and `branches[i][_id]`.' },
    },
  );
}
const businessCreateForm = businessForm(businessCreateSchema, ['title', 'category', 'description']);
const businessEditForm = businessForm(businessUpdateSchema, ['description']);

function parseForm<T>(schema: z.ZodType<T>, body: FormBody, form: MultipartForm): T {
  checkForm(body, form);
  const input = businessFormInput(form);
  // A rate written in another form than the documented one is not "required" but invalid.
  return parseInput(schema, input, typeof input.rate === 'string' ? { rate: 'invalidInput' } : undefined);
}

const formDescription =
  'multipart/form-data with fields `title` (2–50), `category` (2–50: a name of the category list in Swedish or English, ' +
  "or a new category's Swedish name), optional `categoryEn` (2–50: the English name of a new category, or a new English " +
  'name for the named one), `description` (2–999), optional `descriptionEn` (2–999, the English description), optional ' +
  "`rate` (a whole number of stars 1–5: your own rating of the business, one among the users' ratings; a fraction such as " +
  '`3.5` is a 400), ' +
  `\`branches[i][location]\` (2–${BRANCH_TEXT_MAX}, at least one branch, at most ${MAX_BRANCHES}) and optional ` +
  "`branches[i][address]` (2–100) and, on an edit, optional `branches[i][_id]` (that branch is kept: its comments stay linked and take a new location's spelling; " +
  'without ids a branch with the same location, ignoring case, is kept; a branch left out is deleted and its comments keep their location text), plus optional files `image` and `icon` (at most 10 MB each; JPEG, PNG, WebP, GIF ' +
  'or AVIF; re-encoded to WebP; a file in any other field is a 400) or, instead of files, `imageId` / `iconId` from ' +
  'POST /api/images. Admins only. 429 and 503 carry Retry-After.';

const idParams = z.object({ id: idSchema });

export function businessRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/',
      {
        config: { publicCache: true, keptWhile: 'businesses' },
        schema: {
          tags: ['business'],
          summary: 'All businesses',
          description:
            'The suggestion box first, then by `sort` (by title in Swedish order, Å, Ä, Ö after Z, by default). `search` keeps ' +
            "those holding every word of it in their title, category (Swedish or English name), a branch's town or description, " +
            'ignoring case and accents, with å, ä, ö typed as a, a, o also matching (`hemkop` finds Hemköp; `ahlens` and `åhléns` ' +
            'find ÅHLÉNS), ranked: title matches first, then category, town, description, each rank in the `sort` order; ' +
            '`category` and `city` keep those of a category and with a branch at a location (GET /api/business/filters lists ' +
            'both). The filters combine; no match gives an empty array. One page at a time: `limit` businesses (1–' +
            `${DIRECTORY_PAGE_MAX}, default ${DIRECTORY_PAGE_MAX}) from the place \`cursor\` names and, when there are more, the header ` +
            'X-Next-Cursor holding the `?cursor=` of the next page. A site of at most 100 businesses answers them all on the first page.',
          querystring: z.object({
            search: businessSearchSchema,
            category: directoryQuerySchema.shape.category.describe(
              "A category's Swedish or English name, any case (`Livsmedel` or `groceries`); a name not in the list matches nothing.",
            ),
            city: directoryQuerySchema.shape.city.describe(
              'A normalised town (`Malmö`, any case); businesses with a branch there, in any of its areas (`Malmö Hyllie`).',
            ),
            sort: directoryQuerySchema.shape.sort.describe(
              "`name` A–Ö (default); `rating` by a Bayesian average (5 imagined ratings of 3 stars added to each business's " +
                'own, so one 5-star rating does not outrank a hundred 4.8s; unrated last); `reviews` most ratings first; ' +
                '`newest` most recently added first. Any other value is a 400.',
            ),
            limit: pageQuerySchema.shape.limit,
            cursor: directoryCursorSchema.describe('The X-Next-Cursor header of the previous page (decimal digits).'),
          }),
          response: { 200: z.array(restBusinessSchema), 400: errorSchema },
        },
      },
      async (request, reply) => {
        // Every reply is one page (issue 32.1): the whole list grew with the site (25 MB at 10,000
        // businesses) and a few requests for it held the server's memory and its event loop.
        const { limit = DIRECTORY_PAGE_MAX, cursor, ...query } = request.query;
        // A visitor's search joins the documents kept per business (free text is never kept
        // whole: the public cache skips it); a signed-in one's favourites make theirs personal.
        const found = request.actor === null ? searchedBusinessIds(deps, { ...query, limit, cursor }) : null;
        if (found) {
          withNextCursor(reply, found.nextCursor);
          // Written by the item writer of the route's own schema: sent as it is (a Buffer is never serialised).
          return reply.type('application/json; charset=utf-8').send(keptBusinessDocuments(deps, found.ids) as never);
        }
        const page = businessPage(deps, request.actor, { ...query, limit, cursor });
        withNextCursor(reply, page.nextCursor);
        return page.items.map((b) => toRestBusiness(b, request.actor));
      },
    );

    app.get(
      '/filters',
      {
        config: { publicCache: true, keptWhile: 'businesses' },
        schema: {
          tags: ['business'],
          summary: 'What the business list can be filtered by',
          description:
            'The categories that have businesses (names in both languages) and the towns of their branches, each with how many ' +
            'businesses it holds, in Swedish order: the values of `category` and `city` of GET /api/business. With `search`, ' +
            '`category` or `city` the counts follow the other filters: a category counts the businesses the search and city ' +
            'keep, a town those the search and category keep; a chosen one stays listed (0 when nothing is left). The suggestion ' +
            'box counts in neither.',
          querystring: directoryFiltersQuerySchema,
          response: {
            200: z.object({
              categories: z.array(z.object({ _id: z.string(), nameSv: z.string(), nameEn: z.string(), count: z.number().int() })),
              cities: z.array(z.object({ name: z.string(), count: z.number().int() })),
            }),
            400: errorSchema,
          },
        },
      },
      async (request) => {
        const filters = directoryFilters(deps, request.query);
        return { categories: filters.categories.map(({ id, ...c }) => ({ _id: id, ...c })), cities: filters.cities };
      },
    );

    app.get(
      '/categories',
      {
        config: { publicCache: true, keptWhile: 'businesses' },
        schema: {
          tags: ['business'],
          summary: 'The category list',
          description: 'Every category a business can have, with its Swedish and English names, in Swedish order.',
          response: { 200: z.array(z.object({ _id: z.string(), nameSv: z.string(), nameEn: z.string() })) },
        },
      },
      async () => listCategories(deps.db).map((c) => ({ _id: c.id, nameSv: c.nameSv, nameEn: c.nameEn })),
    );

    app.get(
      '/:id',
      {
        config: { publicCache: true, keptWhile: { businessParam: 'id' } },
        schema: {
          tags: ['business'],
          summary: 'One business',
          description: 'With its branches; `isFavorite` holds your own entry when it is among your favourites.',
          params: idParams,
          response: {
            200: restBusinessSchema.extend({
              starCounts: z.array(z.number().int()).length(5).describe('The breakdown: how many ratings gave 1, 2, 3, 4 and 5 stars.'),
              heldRatings: z
                .number()
                .int()
                .describe('Star ratings a rating burst holds out of rate, ratingCount and starCounts until a moderator decides ("n ratings awaiting review").'),
              commentCount: z.number().int().describe('How many written reviews (comments) the business has; `ratingCount` counts star ratings.'),
              places: z
                .array(z.object({ name: z.string(), commentCount: z.number().int() }))
                .describe(
                  'Other places than the branches that public comments name (typed by their authors), grouped ignoring case and spaces: ' +
                    '`name` as the newest one spells it, `commentCount` its public comments; most written about first. ' +
                    'GET /comment/business/{id}?place=<name> lists their comments.',
                ),
            }),
            404: errorSchema,
          },
        },
      },
      async (request) => {
        const business = getBusiness(deps, request.actor, request.params.id);
        return {
          ...toRestBusiness(business, request.actor),
          starCounts: business.starCounts,
          heldRatings: business.heldRatings,
          commentCount: business.commentCount,
          places: business.places,
        };
      },
    );

    app.get(
      '/:id/photos',
      {
        config: { publicCache: true, keptWhile: { businessParam: 'id' } },
        schema: {
          tags: ['business'],
          summary: "A business's photo gallery",
          description:
            'Every picture of its public comments and of the replies to them, newest first: `total` counts them all; a page holds ' +
            '?limit= 1–100 (default 24) and `nextCursor` (also the X-Next-Cursor header) is the ?cursor= of the next one.',
          params: idParams,
          querystring: pageQuerySchema,
          response: { 200: photosPageSchema, 400: errorSchema, 404: errorSchema },
        },
      },
      async (request, reply) => {
        const page = listBusinessPhotos(deps, { id: request.params.id, ...request.query });
        withNextCursor(reply, page.nextCursor);
        return page;
      },
    );

    app.post(
      '/upload',
      {
        config: { form: businessCreateForm },
        schema: {
          tags: ['business'],
          summary: 'Add a business',
          description: formDescription,
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          response: {
            201: restBusinessSchema,
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            413: errorSchema,
            415: errorSchema,
            429: errorSchema,
            503: errorSchema,
          },
        },
      },
      async (request, reply) => {
        // Who may add is known before up to 20 MB of uploads are read; the service checks again.
        requireAdmin(request.actor);
        const created = await withMultipartForm(deps, request, reply, fileFieldsOf(businessCreateForm), (form) =>
          createBusiness(deps, request.actor, parseForm(businessCreateSchema, businessCreateForm, form), { image: form.files.image, icon: form.files.icon }),
        );
        return reply.status(201).send(toRestBusiness(created, request.actor));
      },
    );

    app.put(
      '/:id',
      {
        config: { form: businessEditForm },
        schema: {
          tags: ['business'],
          summary: 'Edit a business',
          description: `${formDescription} Empty \`title\`, \`category\` or \`rate\` keep their values (a \`rate\` replaces your own earlier rating); an absent \`descriptionEn\` keeps it, an empty one removes it; the branches sent replace the old ones; a new image or icon replaces (and deletes) the old one. The suggestion box takes no \`rate\` (409).`,
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          params: idParams,
          response: {
            200: restBusinessSchema,
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            404: errorSchema,
            409: errorSchema,
            413: errorSchema,
            415: errorSchema,
            429: errorSchema,
            503: errorSchema,
          },
        },
      },
      async (request, reply) => {
        requireAdmin(request.actor);
        const updated = await withMultipartForm(deps, request, reply, fileFieldsOf(businessEditForm), (form) =>
          updateBusiness(deps, request.actor, request.params.id, parseForm(businessUpdateSchema, businessEditForm, form), {
            image: form.files.image,
            icon: form.files.icon,
          }),
        );
        return toRestBusiness(updated, request.actor);
      },
    );

    app.delete(
      '/delete/:id',
      {
        schema: {
          tags: ['business'],
          summary: 'Delete a business',
          description:
            'Admins only. Removes its branches, ratings, favourites, comments and replies and their pictures. ' + 'The suggestion box cannot be deleted (409).',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: z.object({ message: z.string() }), 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema },
        },
      },
      async (request) => {
        await deleteBusiness(deps, request.actor, request.params.id);
        return { message: messageText('businessRemoved') };
      },
    );

    app.post(
      '/addRate/:id',
      {
        schema: {
          tags: ['business'],
          summary: 'Rate a business',
          description:
            'JSON `{ rate }`, a whole number of stars from 1 to 5. One rating per user: rating again replaces it; ' +
            '`null` takes your rating back. Returns the new shown rate (the average; null when no rating is left) and the number ' +
            'of ratings. The suggestion box takes no rating (409).',
          security: [{ bearer: [] }],
          params: idParams,
          body: z.object({ rate: userRateSchema.nullable() }),
          response: {
            200: z.object({ rate: z.number().nullable(), ratingCount: z.number().int() }),
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            404: errorSchema,
            409: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request) => {
        const { rate } = request.body;
        const result =
          rate === null ? await unrateBusiness(deps, request.actor, request.params.id) : await rateBusiness(deps, request.actor, request.params.id, rate);
        return { rate: result.rate, ratingCount: result.ratingCount };
      },
    );

    app.put(
      '/:id/facts',
      {
        schema: {
          tags: ['business'],
          summary: "Edit a business's facts",
          description:
            'JSON `{ website?, phone?, branches?: [{ _id, address?, postalCode?, town?, area?, lat?, lng?, phone?, openingHours? }] }`: ' +
            "the business's website (http(s) URL) and phone, and each named branch's street address, postal code (`211 20`), " +
            'normalised town, area, position (lat and lng together, WGS 84), phone and opening hours (the shape GET /api/business/{id} ' +
            'shows). A field left out keeps its value; `""` or `null` removes it. Branches are added and removed with the business ' +
            'form (PUT /api/business/{id}). Every change is logged with its old and new value (GET /api/business/{id}/facts/log). ' +
            "Admins and the business's owners. Returns the changed fields.",
          security: [{ bearer: [] }],
          params: idParams,
          body: restBusinessFactsSchema,
          response: {
            200: z.object({ changed: z.array(z.string()).describe('The changed fields; branch fields as `branch:<_id>.<field>`.') }),
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            404: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request) => {
        const { branches, ...facts } = request.body;
        return editBusinessFacts(deps, request.actor, request.params.id, { ...facts, branches: branches?.map(({ _id, ...b }) => ({ id: _id, ...b })) });
      },
    );

    app.get(
      '/:id/facts/log',
      {
        schema: {
          tags: ['business'],
          summary: "The log of a business's fact changes",
          description:
            "Who changed which facts when, each field with its value before and after, newest first (the last 100). Admins and the business's owners.",
          security: [{ bearer: [] }],
          params: idParams,
          response: {
            200: z.array(
              z.object({
                _id: z.string(),
                actorId: z.string().nullable(),
                actorName: z.string(),
                changes: z.record(z.string(), z.array(z.unknown())).describe('Each changed field: [before, after].'),
                createdAt: z.number().int(),
              }),
            ),
            401: errorSchema,
            403: errorSchema,
          },
        },
      },
      async (request) => listFactChanges(deps, request.actor, request.params.id).map(({ id, ...c }) => ({ _id: id, ...c })),
    );
  };
}
