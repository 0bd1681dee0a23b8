import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError, isAppError } from '../lib/errors';
import { imageKindSchema } from '../schemas/common';
import { requireActive } from '../services/actor';
import { storeImage } from '../services/images';

export type MultipartForm = { fields: Record<string, string>; files: Record<string, Buffer> };

/** Multipart failures are the client's: limits are 413, anything malformed is 400. */
function multipartError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const status = (err as { statusCode?: number }).statusCode;
  const code = (err as { code?: string }).code;
  if (status === 413 || code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('TOO_LARGE', 'imageTooLarge');
  return new AppError('BAD_INPUT', 'invalidInput');
}

async function readPart(part: Multipart, form: MultipartForm): Promise<void> {
  if (part.type === 'file') {
    const bytes = await part.toBuffer();
    // toBuffer throws on the size limit by default; this holds even if that option changes.
    if (part.file.truncated) throw new AppError('TOO_LARGE', 'imageTooLarge');
    form.files[part.fieldname] = bytes;
    return;
  }
  if (part.valueTruncated || part.fieldnameTruncated) throw new AppError('BAD_INPUT', 'invalidInput', { [part.fieldname]: 'invalidInput' });
  // A part sent as application/json arrives parsed; callers validate strings with zod anyway.
  form.fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
}

/**
 * Reads a whole multipart request into memory: fields as strings, files as buffers (each at
 * most MAX_UPLOAD_BYTES by the multipart plugin's limit, 3 files at most). A truncated file
 * throws AppError TOO_LARGE (413) so nothing of it reaches a service; a body that is not
 * multipart or is malformed throws BAD_INPUT (400).
 */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError('BAD_INPUT', 'invalidInput');
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    for await (const part of request.parts()) await readPart(part, form);
  } catch (err) {
    throw multipartError(err);
  }
  return form;
}

const uploadedSchema = z.object({
  id: z.string().describe('Pass this id as imageId when creating or editing the item the image belongs to.'),
  url: z.string().describe('Public path of the stored WebP, e.g. /uploads/<sha256>.webp'),
});

const errorSchema = z.object({
  message: z.string(),
  key: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});

export function imageRoutes(deps: Deps) {
  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/',
      {
        schema: {
          tags: ['images'],
          summary: 'Upload an image',
          description:
            'multipart/form-data with one file in the field `image` (or `file`), at most 10 MB, JPEG, PNG, WebP, GIF or AVIF, ' +
            'and an optional field `kind` (avatar, business, icon, comment, reply, reply-edit; default comment). ' +
            'The server re-encodes it to WebP within the bounds of the kind and strips all metadata. ' +
            '413 for more than 10 MB or more than 40 megapixels, 415 for anything that is not a decodable image.',
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          response: { 201: uploadedSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema },
        },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const actor = requireActive(request.actor);
        if (!request.isMultipart()) throw new AppError('BAD_INPUT', 'imageMissing');
        const { fields, files } = await readMultipartForm(request);
        const kind = imageKindSchema.safeParse(fields.kind ?? 'comment');
        if (!kind.success) throw new AppError('BAD_INPUT', 'invalidInput', { kind: 'invalidInput' });
        const bytes = files.image ?? files.file;
        if (!bytes || bytes.length === 0) throw new AppError('BAD_INPUT', 'imageMissing');
        const stored = await storeImage(deps, { bytes, kind: kind.data, ownerId: actor.id });
        return reply.status(201).send({ id: stored.id, url: stored.url });
      },
    );
  };
}
