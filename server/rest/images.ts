import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { AppError, isAppError, multipartLimitError } from '../lib/errors';
import type { MessageKey } from '../../shared/schemas/messages';
import { createFairSlots, SlotsFullError } from '../lib/fair-slots';
import { networkOf } from '../lib/networks';
import { imageKinds, imageKindSchema, MAX_UPLOAD_BYTES } from '../../shared/schemas/common';
import { requireActive } from '../services/actor';
import { storeImage } from '../services/comments/images';
import { checkForm, fileFieldsOf, formBody, formFile } from './forms';
import { errorSchema } from './openapi';

export type MultipartForm = { fields: Record<string, string>; files: Record<string, Buffer> };

/**
 * Multipart bodies being read or worked on at once. Each may hold up to 3 × 10 MB of files plus
 * the image work it feeds, so a handful in flight keeps a 1 GB machine out of swap; one account
 * holds at most one of them and the accounts of one network (/24, /64) two, a few more wait
 * (served fairly by account) and the rest are told to come back (429 for a sender with enough
 * queued, else 503, both with Retry-After).
 */
const bodySlots = createFairSlots({ slots: 4, maxRunningPerKey: 1, maxRunningPerGroup: 2, maxWaiting: 16, maxWaitingPerKey: 4 });
/**
 * Visitors (registration forms) have slots of their own, one per network (/24, IPv6 /64), so
 * slow bodies from a few addresses can take only these two, never the signed-in users' four.
 */
const visitorSlots = createFairSlots({ slots: 2, maxRunningPerKey: 1, maxWaiting: 8, maxWaitingPerKey: 2 });
/** How long a body may wait for its turn before the client is told the server is busy. */
const MAX_WAIT_MS = 10_000;
const RETRY_AFTER_S = 5;
/**
 * A body holding a slot must keep arriving: a pause longer than `idleMs`, more than `totalMs` in
 * all, or fewer than `minBytesPerS` on average once `graceMs` have passed (checked every
 * `checkMs`) cuts the connection and frees the slot. Without the rate, two connections from two
 * networks trickling a byte every few seconds held both visitor slots, and every registration
 * with a picture got 503. Clients compress pictures before they send them (at most 2 MB each);
 * 8 KiB/s is a 64 kbit/s line, far below any real upload. Tests shorten them.
 */
export const bodyDeadlines = { idleMs: 10_000, totalMs: 60_000, minBytesPerS: 8 * 1024, graceMs: 3_000, checkMs: 1_000 };

export { networkOf } from '../lib/networks';

/**
 * A multipart-only operation sent something else: a body of another type is 415, no body at all
 * the route's own 400 (`missing`).
 */
export function requireMultipart(request: FastifyRequest, missing: MessageKey = 'invalidInput') {
  if (request.isMultipart()) return;
  if (request.headers['content-type'] !== undefined) throw new AppError('UNSUPPORTED_MEDIA', 'unsupportedContentType');
  throw new AppError('BAD_INPUT', missing);
}

/** Multipart failures are the client's: limits are 413, anything malformed is 400. */
function multipartError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const status = (err as { statusCode?: number }).statusCode;
  const code = (err as { code?: string }).code;
  const limit = multipartLimitError(code);
  if (limit) return limit;
  if (status === 413) return new AppError('TOO_LARGE', 'imageTooLarge');
  return new AppError('BAD_INPUT', 'invalidInput');
}

async function readPart(part: Multipart, form: MultipartForm, fileFields: readonly string[]): Promise<void> {
  if (part.type === 'file') {
    if (!fileFields.includes(part.fieldname)) {
      // Refused before a byte of it is read; destroying the stream stops the parser too.
      part.file.destroy();
      throw new AppError('BAD_INPUT', 'invalidInput', { [part.fieldname]: 'invalidInput' });
    }
    // One file per file field: a second one is refused, never silently dropped.
    if (form.files[part.fieldname] !== undefined) {
      part.file.destroy();
      throw new AppError('BAD_INPUT', 'invalidInput', { [part.fieldname]: 'fileRepeated' });
    }
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

/** How many multipart bodies hold a slot and how many wait (tests watch it drain). */
export const multipartSlotStats = () => bodySlots.stats();
export const visitorSlotStats = () => visitorSlots.stats();

async function waitForBodySlot(request: FastifyRequest): Promise<() => void> {
  const network = `net:${networkOf(request.ip)}`;
  const [slots, key] = request.actor ? [bodySlots, `user:${request.actor.id}`] : [visitorSlots, network];
  let release: () => void;
  try {
    // The signal only if it has to wait: a free slot (the common case) costs no timer.
    release = await slots.acquire(key, () => AbortSignal.any([request.signal, AbortSignal.timeout(MAX_WAIT_MS)]), network);
  } catch (err) {
    if (err instanceof SlotsFullError && err.reason === 'keyFull')
      throw new AppError('RATE_LIMITED', 'tooManyRequests', undefined, { retryAfterS: RETRY_AFTER_S });
    throw new AppError('BUSY', 'serverBusy', undefined, { retryAfterS: RETRY_AFTER_S });
  }
  // A client gone by now would leave the parser waiting for a 'close' that already happened.
  if (request.raw.destroyed) {
    release();
    throw new AppError('BAD_INPUT', 'invalidInput');
  }
  return release;
}

/**
 * Reads a multipart request into memory — fields as strings, files as buffers (each at most
 * MAX_UPLOAD_BYTES by the multipart plugin's limit), only in the file fields the route names —
 * and runs `work` with it. Before a byte of the body is read, the sender's `multipart` limit
 * (user, or IP for visitors) is counted and one of the few body slots is taken; the slot is held
 * until `work` is done, since the buffers live that long. Refusals: a file in any other field,
 * a malformed or non-multipart body 400; a truncated file 413; over the limit 429; no slot 503.
 */
export async function withMultipartForm<T>(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  fileFields: readonly string[],
  work: (form: MultipartForm) => Promise<T>,
): Promise<T> {
  requireMultipart(request);
  await deps.limits.consume('multipart', request.actor?.id ?? request.ip);
  const release = await waitForBodySlot(request);
  const cut = () => request.raw.destroy(new AppError('BAD_INPUT', 'invalidInput'));
  const total = setTimeout(cut, bodyDeadlines.totalMs);
  // A real connection (app.inject's stand-in socket has no timers; its bodies arrive at once).
  const socket = typeof request.raw.socket?.setTimeout === 'function' ? request.raw.socket : null;
  socket?.setTimeout(bodyDeadlines.idleMs);
  socket?.once('timeout', cut);
  // The minimum rate, measured on the socket: bytes that arrived since the slot was taken.
  const startedAt = performance.now();
  const readBefore = socket?.bytesRead ?? 0;
  const rate = socket
    ? setInterval(() => {
        const elapsedMs = performance.now() - startedAt;
        if (elapsedMs >= bodyDeadlines.graceMs && socket.bytesRead - readBefore < (bodyDeadlines.minBytesPerS * elapsedMs) / 1000) cut();
      }, bodyDeadlines.checkMs)
    : undefined;
  const stopDeadlines = () => {
    clearTimeout(total);
    clearInterval(rate);
    socket?.off('timeout', cut);
    socket?.setTimeout(0);
  };
  try {
    const form: MultipartForm = { fields: {}, files: {} };
    try {
      for await (const part of request.parts({ limits: { files: fileFields.length } })) await readPart(part, form, fileFields);
    } catch (err) {
      // The rest of a refused body is not read: the connection closes after the reply.
      if (!request.raw.complete) reply.header('connection', 'close');
      throw multipartError(err);
    } finally {
      stopDeadlines();
    }
    return await work(form);
  } finally {
    release();
  }
}

const uploadedSchema = z.object({
  id: z.string().describe('Pass this id as imageId when creating or editing the item the image belongs to.'),
  url: z.string().describe('Public path of the stored WebP, e.g. /uploads/<sha256>.webp'),
});

/** The multipart form of POST /api/images. */
const imageForm = formBody({
  image: formFile(`The picture (JPEG, PNG, WebP, GIF or AVIF, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB).`),
  file: formFile('The same as `image`, for older clients.'),
  kind: z.enum(imageKinds, { error: 'invalidInput' }).optional().describe('What the image is for; it sets the size it is kept at. Default comment.'),
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
            '413 for more than 10 MB or more than 40 megapixels, 415 for anything that is not a decodable image, 400 for a file ' +
            'in any other field. 429 (with Retry-After) over the upload limits, 503 (with Retry-After) while the server is busy.',
          consumes: ['multipart/form-data'],
          security: [{ bearer: [] }],
          response: {
            201: uploadedSchema,
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            413: errorSchema,
            415: errorSchema,
            429: errorSchema,
            503: errorSchema,
          },
        },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' }, form: imageForm },
      },
      async (request, reply) => {
        const actor = requireActive(request.actor);
        requireMultipart(request, 'imageMissing');
        const stored = await withMultipartForm(deps, request, reply, fileFieldsOf(imageForm), async (form) => {
          checkForm(imageForm, form);
          const { fields, files } = form;
          const kind = imageKindSchema.safeParse(fields.kind ?? 'comment');
          if (!kind.success) throw new AppError('BAD_INPUT', 'invalidInput', { kind: 'invalidInput' });
          const bytes = files.image ?? files.file;
          if (!bytes || bytes.length === 0) throw new AppError('BAD_INPUT', 'imageMissing');
          return storeImage(deps, { bytes, kind: kind.data, ownerId: actor.id });
        });
        return reply.status(201).send({ id: stored.id, url: stored.url });
      },
    );
  };
}
