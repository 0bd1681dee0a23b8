import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { parseInput } from '../lib/validation';
import { idSchema } from '../../shared/schemas/common';
import { MAX_UPLOAD_BYTES } from '../../shared/schemas/common';
import {
  BUSINESS_PAGE,
  businessLocationSchema,
  commentCreateSchema,
  commentTextSchema,
  commentListOptionsSchema,
  commentSorts,
  commentUpdateSchema,
  emojiRateSchema,
  FEED_FIRST_PAGE,
  LOCATION_MAX,
  LOCATION_MAX_WORDS,
  replyCreateSchema,
  replyEditTextSchema,
  replyTextSchema,
  type replyUpdateSchema,
  type CommentUpdateInput,
  type ReplyUpdateInput,
  SEARCH_MAX,
} from '../../shared/schemas/comments';
import { messageText } from '../../shared/schemas/messages';
import { requireActiveFor, type Actor } from '../services/actor';
export { restCommentSchema, restReplySchema } from './comment-documents';
import { commentDocuments, newReplyDocument, ratingEntrySchema, restCommentSchema, restReplySchema } from './comment-documents';
import { emojiCountsSchema } from '../../shared/schemas/post-cards';
import { rateComment, ratingLists } from '../services/comments/comment-ratings';
import { createComment, deleteComment, listBusinessComments, listFeed, listLatestComments, removeComment, updateComment } from '../services/comments/comments';
import type { WithUpload } from '../services/comments/post-images';
import { createReply } from '../services/comments/replies';
import { formNumber } from './form-number';
import { checkForm, emptyOr, fileFieldsOf, formBody, formFile, ignoredField, starsField, type FormBody } from './forms';
import { withMultipartForm, type MultipartForm } from './images';
import { errorSchema, NEXT_CURSOR } from './openapi';

export const rateBodySchema = z.object({
  rate: emojiRateSchema.describe('1 to 5, or null to take your rating back.'),
});

export const rateReplySchema = z.object({
  rate: z.number().nullable().describe('The new average; null when no rating is left.'),
  ratings: z.array(ratingEntrySchema),
  ratingCount: z.number().int(),
  emojiCounts: emojiCountsSchema,
  myRate: z.number().int().nullable(),
});

export const messageSchema = z.object({ message: z.string() });

/** ?sort, ?stars, ?photos of a business's comments; parsed further by commentListOptionsSchema (400 on bad values). */
const commentListQuery = {
  sort: z.enum(commentSorts).optional().describe('newest (default), oldest, highest, lowest, helpful, replied'),
  stars: z.string().max(20).optional().describe("Star levels of the author's rating to keep, comma-separated: `1,2`."),
  photos: z.enum(['0', '1', 'true', 'false']).optional().describe('1: only comments with a picture.'),
};

/** `1,2` → [1, 2]; anything that is not a list of whole numbers becomes NaN, which the schema refuses. */
const starsOf = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value.split(',').map((v) => (/^\s*\d\s*$/.test(v) ? Number(v) : Number.NaN));

/** A whole number in a query as people write it: decimal digits only (no `0x10`, `1e1`, `+5`, `01`). */
export const queryInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^(?:0|[1-9]\d*)$/, 'valueNotWhole')
    // The document's bound on the digits; a longer number is refused as too large.
    .meta({ maxLength: String(max).length })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const pageQuerySchema = z.object({
  limit: queryInteger(1, 100).optional().describe('How many items, 1–100, in plain decimal digits.'),
  cursor: z.string().min(1).max(200).optional().describe('The X-Next-Cursor header of the previous page.'),
});

/** Sets the next page's cursor header; the body stays the documented plain list. */
export function withNextCursor(reply: FastifyReply, nextCursor: string | null) {
  if (nextCursor) reply.header(NEXT_CURSOR, nextCursor);
}

/** A post's picture field and the legacy fields the author's session replaces. */
const pictureFields = {
  image: formFile(`A picture (JPEG, PNG, WebP, GIF or AVIF, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB); re-encoded to WebP without metadata.`),
  file: formFile('The same as `image`, for older clients.'),
  userId: ignoredField('Ignored: the author comes from the session.'),
  firstName: ignoredField('Ignored: the author comes from the session.'),
  lastName: ignoredField('Ignored: the author comes from the session.'),
  userImage: ignoredField('Ignored: the author comes from the session.'),
};
const removeImage = z
  .enum(['true', 'false', ''], { error: 'invalidInput' })
  .optional()
  .describe('`true` drops the picture; without it and without a file the picture stays.');
/** Where a comment is: a branch id, or a place as text. */
const placeFields = (when: string) => ({
  branchId: emptyOr(idSchema).describe(`${when}one of the business's branches (\`branches[]._id\` of GET /business/{id}).`),
  businessLocation: emptyOr(businessLocationSchema).describe(
    `${when}the place as text: letters, digits, underscore and spaces, at most ${LOCATION_MAX_WORDS} words and ${LOCATION_MAX} characters; ` +
      'text naming a branch is stored as that branch.',
  ),
});

/** The multipart form of POST /comment/create/{businessId}: the server needs a branchId or a businessLocation (400 otherwise). */
export const commentCreateForm = formBody(
  {
    text: commentTextSchema,
    ...placeFields('Either this or businessLocation: '),
    rate: starsField('Optional: your 1–5 star rating of the business, written `4` (plain digits); 0 or empty means none.'),
    businessId: ignoredField('Ignored: the business is the one in the path.'),
    businessIcon: ignoredField('Ignored.'),
    ...pictureFields,
  },
  { required: ['text'], parsedLater: ['text', 'branchId', 'businessLocation', 'rate'] },
);
/** The multipart form of PUT /comment/update/{id}. */
export const commentEditForm = formBody(
  {
    text: commentTextSchema,
    removeImage,
    ...placeFields('Optional, moves the comment: '),
    rate: starsField('Optional, sets your 1–5 star rating of the business, written `4`; 0 or empty leaves it.'),
    ...pictureFields,
  },
  { required: ['text'], parsedLater: ['text', 'branchId', 'businessLocation', 'rate'] },
);
/** The multipart form of POST /comment/addSubComment/{commentId}. */
export const replyCreateForm = formBody(
  { text: replyTextSchema, rate: ignoredField('Ignored: replies are rated by others.'), ...pictureFields },
  { required: ['text'], parsedLater: ['text'] },
);
/** The multipart form of PUT /subComment/update/{id}. */
export const replyEditForm = formBody({ text: replyEditTextSchema, removeImage, ...pictureFields }, { required: ['text'], parsedLater: ['text'] });

/** A multipart text field: absent and empty are the same. */
const field = (form: MultipartForm, name: string) => (form.fields[name] === undefined || form.fields[name] === '' ? undefined : form.fields[name]);
/** The picture of a multipart post, in the field `image` (or `file`). */
export const uploadOf = (form: MultipartForm) => form.files.image ?? form.files.file;
/** A comment or reply form, checked against its declaration: its picture is the only file it may carry. */
export const withPostForm = <T>(deps: Deps, request: FastifyRequest, reply: FastifyReply, body: FormBody, work: (form: MultipartForm) => Promise<T>) =>
  withMultipartForm(deps, request, reply, fileFieldsOf(body), (form) => {
    checkForm(body, form);
    return work(form);
  });
/** `removeImage=true` drops the picture on an edit; without it and without a file it stays. */
export const imageChangeOf = (form: MultipartForm) => (form.fields.removeImage === 'true' ? null : undefined);

/** What a post's signed-in routes may answer besides 200 (multipart bodies: 413, 415; busy: 503). */
export const postErrors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  413: errorSchema,
  415: errorSchema,
  429: errorSchema,
  503: errorSchema,
};

/**
 * PUT /update/:id, the edit of a comment (under /comment) or of a reply (under /subComment): the
 * same multipart form and checks for both; services/comments/post-edit.ts's editPost does the work.
 */
export function editPostRoute<C>(
  fastify: FastifyInstance,
  deps: Deps,
  route: {
    tags: string[];
    summary: string;
    description: string;
    /** The multipart form (forms.ts). */
    form: FormBody;
    /** The form's fields with the path's id. */
    input: typeof commentUpdateSchema | typeof replyUpdateSchema;
    /** The reply: the edited post as a REST document. */
    document: typeof restCommentSchema | typeof restReplySchema;
    edit: (deps: Deps, actor: Actor, input: WithUpload<CommentUpdateInput & ReplyUpdateInput>) => Promise<C>;
    shape: (actor: Actor, card: C) => z.output<typeof restCommentSchema> | z.output<typeof restReplySchema>;
    /** The kind's own form fields, beside text and picture. */
    fields?: (form: MultipartForm) => Record<string, unknown>;
  },
) {
  fastify.withTypeProvider<ZodTypeProvider>().put(
    '/update/:id',
    {
      config: { form: route.form },
      schema: {
        tags: route.tags,
        summary: route.summary,
        description: route.description,
        consumes: ['multipart/form-data'],
        security: [{ bearer: [] }],
        params: z.object({ id: idSchema }),
        response: { 200: route.document, ...postErrors },
      },
    },
    async (request, reply) => {
      requireActiveFor(request.actor, 'unauthenticated');
      const card = await withPostForm(deps, request, reply, route.form, (form) => {
        const input = parseInput(route.input, { id: request.params.id, text: form.fields.text ?? '', imageId: imageChangeOf(form), ...route.fields?.(form) });
        return route.edit(deps, request.actor, { ...input, imageBytes: uploadOf(form) });
      });
      return route.shape(request.actor, card);
    },
  );
}

const multipartNote =
  'multipart/form-data; the picture goes in the file field `image`, at most 10 MB (JPEG, PNG, WebP, GIF or AVIF; it is ' +
  're-encoded to WebP without metadata); a file in any other field is a 400. userId, firstName, lastName and userImage ' +
  'are ignored: the author is the signed-in user (session cookie or bearer token). 429 and 503 carry Retry-After.';

export function commentRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['comment'];

    app.get(
      '/',
      {
        config: { publicCache: true },
        schema: {
          tags,
          summary: 'All comments, newest first',
          description: `A page of comments (?limit= 1–100, default ${FEED_FIRST_PAGE}). When there are more, the header X-Next-Cursor holds the ?cursor= of the next page; pages never shift when new comments arrive.`,
          querystring: pageQuerySchema,
          response: { 200: z.array(restCommentSchema), 400: errorSchema },
        },
      },
      async (request, reply) => {
        const page = listLatestComments(deps, request.actor, request.query);
        withNextCursor(reply, page.nextCursor);
        return commentDocuments(deps.db, request.actor, page.items, false);
      },
    );

    app.get(
      '/most-subcomments',
      {
        config: { publicCache: true },
        schema: {
          tags,
          summary: 'The 12 comments with the most replies',
          description: 'Ties are broken by date, newest first. Comments without replies are not listed.',
          response: { 200: z.array(restCommentSchema) },
        },
      },
      async (request) => commentDocuments(deps.db, request.actor, listFeed(deps, request.actor, { filter: 'mostReplied' }).items, false),
    );

    app.get(
      '/most-rated',
      {
        config: { publicCache: true },
        schema: {
          tags,
          summary: 'The 12 comments with the best emoji reactions, by a Bayesian average',
          description:
            'Ranked by (5 × 3 + average × ratings) / (5 + ratings): five imagined ratings of 3 added to each comment, so one 5 does not ' +
            'beat five averaging 4.2. Ties are broken by the number of ratings, then by date. Comments nobody rated are not listed.',
          response: { 200: z.array(restCommentSchema) },
        },
      },
      async (request) => commentDocuments(deps.db, request.actor, listFeed(deps, request.actor, { filter: 'topRated' }).items, false),
    );

    app.get(
      '/:businessId',
      {
        config: { publicCache: true, keptWhile: { businessParam: 'businessId' } },
        schema: {
          tags,
          summary: "A business's comments, newest first or in another order",
          description:
            `A page of comments with their ratings and newest replies (?limit= 1–100, default ${BUSINESS_PAGE}; X-Next-Cursor as on GET /comment). ` +
            '?search= keeps those whose branch location, text or author name have words starting with the given ones. ' +
            "?sort= orders them: newest (default), oldest, highest or lowest (the author's current stars; equal stars newest first, " +
            'comments whose author gave none last), helpful (emoji average, then number of ratings) or replied (most replies). ' +
            "?stars=1,2 keeps comments whose author's current stars are one of those; ?photos=1 only those with a picture; " +
            "?branch= (a branch's `_id`) those at that branch of the business (400 for another business's branch); " +
            '?place= (a name of `places` in GET /business/{id}) those at that other place its authors typed, ignoring case and spaces (400 with ?branch=). ' +
            'They combine with ?search= and each other; a cursor belongs to the order and filters it was made with.',
          params: z.object({ businessId: idSchema }),
          querystring: pageQuerySchema.extend({
            search: z.string().max(SEARCH_MAX).optional(),
            branch: idSchema.optional(),
            place: z.string().trim().min(1).max(LOCATION_MAX).optional(),
            ...commentListQuery,
          }),
          response: { 200: z.array(restCommentSchema), 400: errorSchema, 404: errorSchema },
        },
      },
      async (request, reply) => {
        const { sort, stars, photos, ...rest } = request.query;
        const options = parseInput(commentListOptionsSchema, { sort, stars: starsOf(stars), photos: photos === '1' || photos === 'true' });
        const page = listBusinessComments(deps, request.actor, {
          businessId: request.params.businessId,
          ...rest,
          ...options,
          photos: options.photos || undefined,
        });
        withNextCursor(reply, page.nextCursor);
        return commentDocuments(deps.db, request.actor, page.items, true);
      },
    );

    app.post(
      '/create/:businessId',
      {
        config: { form: commentCreateForm },
        schema: {
          tags,
          summary: 'Comment on a business',
          description:
            `${multipartNote} Fields: text (at least 2 characters); the place: branchId (one of the business's branches, ` +
            `GET /business/{id}) or businessLocation (free text: letters, digits, underscore and spaces, at most ${LOCATION_MAX_WORDS} words and ${LOCATION_MAX} ` +
            'characters; text naming a branch, ignoring case and accents, is stored as that branch); optional rate (your 1–5 star rating of the business, written `4`; 0 means none; ' +
            'the suggestion box takes no rating: 409).',
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          params: z.object({ businessId: idSchema }),
          response: { 201: restCommentSchema, ...postErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        // Who may post is known before a 10 MB body is read.
        requireActiveFor(request.actor, 'commentLoginRequired');
        const card = await withPostForm(deps, request, reply, commentCreateForm, (form) => {
          const rate = field(form, 'rate');
          const input = parseInput(commentCreateSchema, {
            businessId: request.params.businessId,
            text: form.fields.text ?? '',
            branchId: field(form, 'branchId'),
            // Without a branch the place is required, reported with the other fields' errors.
            businessLocation: field(form, 'businessLocation') ?? (field(form, 'branchId') ? undefined : ''),
            rate: rate === undefined || rate === '0' ? undefined : formNumber(rate, 'integer'),
          });
          return createComment(deps, request.actor, { ...input, imageBytes: uploadOf(form) });
        });
        // A comment just posted has no ratings and no replies yet: the light shape is the full one
        // (empty `ratings` and `subComments`) without two lookups that would find nothing.
        return reply.status(201).send(commentDocuments(deps.db, request.actor, [card], false)[0]);
      },
    );

    editPostRoute(fastify, deps, {
      tags,
      summary: 'Edit your comment',
      description:
        `${multipartNote} Fields: text (at least 2 characters); a new image replaces the picture, removeImage=true drops it; ` +
        'optional rate (1–5) sets your star rating of the business, as on create (0 or absent: unchanged); ' +
        'branchId or businessLocation (as when posting) move it to another place, without them it stays.',
      form: commentEditForm,
      input: commentUpdateSchema,
      document: restCommentSchema,
      edit: updateComment,
      shape: (actor, card) => commentDocuments(deps.db, actor, [card], true)[0],
      fields: (form) => {
        const rate = field(form, 'rate');
        return {
          rate: rate === undefined || rate === '0' ? undefined : formNumber(rate, 'integer'),
          branchId: field(form, 'branchId'),
          businessLocation: field(form, 'businessLocation'),
        };
      },
    });

    app.delete(
      '/delete/:id',
      {
        schema: {
          tags,
          summary: 'Delete your comment',
          description: 'Its replies and all their ratings go with it.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: { 200: messageSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => {
        await deleteComment(deps, request.actor, request.params.id);
        return { message: messageText('commentDeleted') };
      },
    );

    app.delete(
      '/:id',
      {
        schema: {
          tags,
          summary: 'Remove any comment (admins)',
          description: 'Moderation: its replies and all their ratings go with it.',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: { 200: messageSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
        },
      },
      async (request) => {
        await removeComment(deps, request.actor, request.params.id);
        return { message: messageText('commentRemoved') };
      },
    );

    app.post(
      '/addRate/:id',
      {
        schema: {
          tags,
          summary: "React to someone else's comment with an emoji (1–5)",
          description: 'JSON {rate}: 1–5 sets or replaces your reaction, null takes it back. You cannot react to your own comment (403).',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          body: rateBodySchema,
          response: { 200: rateReplySchema, ...postErrors },
        },
      },
      async (request) => {
        const result = await rateComment(deps, request.actor, { id: request.params.id, rate: request.body.rate });
        return { ...result, ratings: ratingLists(deps.db, 'comment', [request.params.id], request.actor?.id ?? null).get(request.params.id) ?? [] };
      },
    );

    app.post(
      '/addSubComment/:commentId',
      {
        config: { form: replyCreateForm },
        schema: {
          tags,
          summary: 'Reply to a comment',
          description: `${multipartNote} Fields: text (at least 2 characters); rate is ignored (replies are rated by others).`,
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          params: z.object({ commentId: idSchema }),
          response: { 201: restReplySchema, ...postErrors },
        },
      },
      async (request, reply) => {
        requireActiveFor(request.actor, 'replyLoginRequired');
        const card = await withPostForm(deps, request, reply, replyCreateForm, (form) => {
          const input = parseInput(replyCreateSchema, { commentId: request.params.commentId, text: form.fields.text ?? '' });
          return createReply(deps, request.actor, { ...input, imageBytes: uploadOf(form) });
        });
        // A reply just posted has no ratings: the documented shape without a lookup that finds nothing.
        return reply.status(201).send(newReplyDocument(card));
      },
    );
  };
}
