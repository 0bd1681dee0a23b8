import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, lt, notExists, type SQL } from 'drizzle-orm';
import type { OutputInfo } from 'sharp';
import type { Db } from '../../../db/client';
import { businesses, comments, emailTokens, images, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { createFairSlots, SlotsFullError } from '../../lib/fair-slots';
import { newId } from '../../lib/ids';
import { isUploadFileName, uploadUrl } from '../../lib/urls';
import { imageBounds, MAX_UPLOAD_BYTES, type ImageKind } from '../../../shared/schemas/common';

export type StoredImage = { id: string; url: string; fileName: string };
export type ImageRow = typeof images.$inferSelect;

/**
 * Decompression-bomb guard. 40 MP covers every phone camera in use (a 48 MP sensor saves 12 MP
 * by default) while a decoded 40 MP RGBA image (160 MB) still fits on a 1 GB machine. Refusals
 * answer 413 TOO_LARGE with key imageTooManyPixels: the image is too big, just measured in
 * pixels instead of bytes, so clients can treat it like the byte limit.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Pictures libvips must hold whole while it decodes them: a progressive JPEG (all its DCT
 * coefficients), an interlaced PNG, GIF, AVIF. A 235 KB progressive 40 MP JPEG took 126 MB to
 * decode where a baseline one of the same size takes 6 MB (shrink-on-load streams it), so two
 * such avatars at once pushed the server past 500 MB. These get a smaller pixel limit (8 MP, a
 * 3264×2448 camera picture), which holds a decode near 60 MB (measured: GIF and 4:4:4
 * progressive JPEG the worst); the browser client re-encodes every picture as a baseline image
 * far below it, so only hand-made uploads ever meet it.
 */
export const MAX_BUFFERED_PIXELS = 8_000_000;

/** True when libvips cannot stream the picture through shrink-on-load (see MAX_BUFFERED_PIXELS). */
const decodesWhole = (meta: { format?: string; isProgressive?: boolean }) => meta.isProgressive === true || meta.format === 'gif' || meta.format === 'heif';

/** Sniffed types we decode; APNG is a PNG to libvips (only its first frame is kept). */
const ACCEPTED_MIME = new Set(['image/jpeg', 'image/png', 'image/apng', 'image/webp', 'image/gif', 'image/avif']);

const QUALITY_STEPS = [80, 70, 60, 50, 40] as const;
/** Below this the result is useless; no real picture gets here at these byte budgets. */
const MIN_SIDE = 64;
const SWEEP_AFTER_MS = 24 * 60 * 60 * 1000;
const STALE_TEMP_MS = 60 * 60 * 1000;
const TEMP_PREFIX = '.tmp-';

let sharpLoaded: Promise<(typeof import('sharp'))['default']> | null = null;

/**
 * sharp (libvips) loads with the first image, not at start: it is the largest part of the
 * server's memory and start-up, and most requests never touch an image. One libvips thread per
 * image and no operation cache: uploads are never re-processed, and on a 1 GB VPS two decodes
 * at a time must not push the site into swap.
 */
function loadSharp() {
  return (sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  }));
}

/**
 * Two encodes at a time; a few more may wait, a freed slot going to the owner holding the fewest
 * (see lib/fair-slots), so one user's pile of large pictures delays another's small one by one
 * encode at most. Past that the uploader is told to come back: 429 when it is their own queue
 * that is full, 503 when everyone's is.
 */
const encodeSlots = createFairSlots({ slots: 2, maxWaiting: 12, maxWaitingPerKey: 6 });
const ENCODE_RETRY_AFTER_S = 5;

/** How many encodes run and wait (tests watch the queue fill). */
export const encodeQueueStats = () => encodeSlots.stats();

async function withEncodeSlot<T>(ownerId: string | null, work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = await encodeSlots.acquire(ownerId ?? '');
  } catch (err) {
    if (!(err instanceof SlotsFullError)) throw err;
    const options = { retryAfterS: ENCODE_RETRY_AFTER_S };
    throw err.reason === 'keyFull'
      ? new AppError('RATE_LIMITED', 'tooManyRequests', undefined, options)
      : new AppError('BUSY', 'serverBusy', undefined, options);
  }
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Serialises everything that touches one file name (write+insert, recheck+unlink), so a release
 * of an image cannot delete the file that a simultaneous upload of the same bytes just reused.
 */
const fileLocks = new Map<string, Promise<void>>();

async function withFileLock<T>(fileName: string, work: () => Promise<T>): Promise<T> {
  const before = fileLocks.get(fileName) ?? Promise.resolve();
  const result = before.then(work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  fileLocks.set(fileName, settled);
  try {
    return await result;
  } finally {
    if (fileLocks.get(fileName) === settled) fileLocks.delete(fileName);
  }
}

/** True for sharp's own refusal of an image above limitInputPixels. */
const isPixelLimitError = (err: unknown) => err instanceof Error && /pixel limit/i.test(err.message);

type Encoded = { data: Buffer; width: number; height: number };

/**
 * Decodes once (honouring EXIF orientation, shrunk to the kind's longest side), then encodes
 * WebP at falling quality, and smaller sides after that, until the kind's byte budget holds.
 * Nothing of the input's metadata survives: the raw pixel buffer carries none, and sharp
 * converts embedded colour profiles to sRGB before it hands the pixels over.
 */
async function encodeWebp(bytes: Buffer, kind: ImageKind): Promise<Encoded> {
  const { maxSide, maxBytes } = imageBounds[kind];
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // Reads only the header, so a bomb's declared size is known before any pixel is decoded.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA', 'imageUnsupported');
  }
  const { width, height } = meta;
  if (!width || !height) throw new AppError('UNSUPPORTED_MEDIA', 'imageUnsupported');
  const pixelLimit = decodesWhole(meta) ? MAX_BUFFERED_PIXELS : MAX_INPUT_PIXELS;
  if (width * height > pixelLimit) throw new AppError('TOO_LARGE', 'imageTooManyPixels');

  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await sharp(bytes, { limitInputPixels: pixelLimit, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (isPixelLimitError(err)) throw new AppError('TOO_LARGE', 'imageTooManyPixels');
    throw new AppError('UNSUPPORTED_MEDIA', 'imageUnsupported');
  }
  const raw = {
    width: pixels.info.width,
    height: pixels.info.height,
    channels: pixels.info.channels,
  };

  let side = Math.max(raw.width, raw.height);
  for (;;) {
    for (const quality of QUALITY_STEPS) {
      const out = await sharp(pixels.data, { raw })
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .webp({ quality })
        .toBuffer({ resolveWithObject: true });
      if (out.data.length <= maxBytes) return { data: out.data, width: out.info.width, height: out.info.height };
    }
    if (side <= MIN_SIDE) throw new AppError('TOO_LARGE', 'imageTooLarge');
    side = Math.max(MIN_SIDE, Math.floor(side * 0.75));
  }
}

async function writeFileAtomic(dir: string, target: string, data: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `${TEMP_PREFIX}${newId()}`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      // The row that points at this file commits right after; the bytes must be on disk first.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

type NewFile = { data: Buffer; ext: 'webp' | 'svg'; mime: string; width: number; height: number; kind: string; ownerId: string | null };

/**
 * Stores bytes under their SHA-256 name and returns the row for them. Identical bytes (the same
 * photo uploaded twice) share one file and one row; when a different user uploads them, the
 * row's owner becomes null ("shared"), since both have shown they hold the picture.
 */
async function saveFile(deps: Deps, file: NewFile): Promise<StoredImage> {
  const fileName = `${createHash('sha256').update(file.data).digest('hex')}.${file.ext}`;
  const target = path.join(deps.paths.uploads, fileName);
  const url = uploadUrl(fileName) as string;
  return withFileLock(fileName, async () => {
    const existing = deps.db.select().from(images).where(eq(images.fileName, fileName)).get();
    const wrote = !(await fileExists(target));
    if (wrote) await writeFileAtomic(deps.paths.uploads, target, file.data);
    const now = Date.now();
    if (existing) {
      // A fresh upload restarts the 24 h grace period, so the sweep cannot take the image away
      // between this reply and the form that attaches it.
      deps.db
        .update(images)
        .set({ createdAt: now, ownerId: existing.ownerId === file.ownerId ? existing.ownerId : null })
        .where(eq(images.id, existing.id))
        .run();
      return { id: existing.id, url, fileName };
    }
    const id = newId();
    try {
      deps.db
        .insert(images)
        .values({
          id,
          fileName,
          kind: file.kind,
          mime: file.mime,
          width: file.width,
          height: file.height,
          bytes: file.data.length,
          ownerId: file.ownerId,
          createdAt: now,
        })
        .run();
    } catch (err) {
      if (wrote) await rm(target, { force: true });
      throw err;
    }
    return { id, url, fileName };
  });
}

/**
 * Validates an upload (size, sniffed type, pixel count), re-encodes it to a metadata-free WebP
 * within the kind's bounds and stores it. Throws 413 (too many bytes or pixels) or 415 (not a
 * decodable JPEG, PNG, WebP, GIF or AVIF); nothing is written unless it succeeds. Every caller
 * (uploads, avatars, pictures sent with posts, business images) counts against the owner's one
 * `image` limit, and the encode waits its turn (429/503 when the queue is full).
 */
export async function storeImage(deps: Deps, input: { bytes: Buffer; kind: ImageKind; ownerId: string | null }): Promise<StoredImage> {
  const { bytes, kind, ownerId } = input;
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError('TOO_LARGE', 'imageTooLarge');
  await deps.limits.consume('image', ownerId);
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!sniffed || !ACCEPTED_MIME.has(sniffed.mime)) throw new AppError('UNSUPPORTED_MEDIA', 'imageUnsupported');
  const encoded = await withEncodeSlot(ownerId, () => encodeWebp(bytes, kind));
  return saveFile(deps, { ...encoded, ext: 'webp', mime: 'image/webp', kind, ownerId });
}

/**
 * Stores an SVG the server generated itself (demo monogram icons). Never call it with user
 * input: SVG can carry script, which only the uploads' sandbox CSP would then contain.
 */
export async function storeSvgImage(deps: Deps, svg: string, kind: string): Promise<StoredImage> {
  const data = Buffer.from(svg, 'utf8');
  const sharp = await loadSharp();
  const { width, height } = await sharp(data).metadata();
  if (!width || !height) throw new Error('storeSvgImage: the SVG has no size');
  return saveFile(deps, { data, ext: 'svg', mime: 'image/svg+xml', width, height, kind, ownerId: null });
}

/**
 * Rasterises an SVG the server drew itself (the demo comments' pictures) to PNG, so it can be
 * stored with storeImage like any upload. Never call it with user input (see storeSvgImage).
 */
export async function pngOfSvg(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg, 'utf8')).png({ compressionLevel: 1 }).toBuffer();
}

/**
 * The image a client wants to attach. With `ownerId`, only the uploader's own (or shared, see
 * saveFile) images qualify; an unknown id and someone else's look the same to the client.
 */
export function requireImage(db: Db, id: string, ownerId?: string): ImageRow {
  const row = db.select().from(images).where(eq(images.id, id)).get();
  if (!row) throw new AppError('BAD_INPUT', 'imageUnknown');
  if (ownerId !== undefined && row.ownerId !== null && row.ownerId !== ownerId) throw new AppError('BAD_INPUT', 'imageUnknown');
  return row;
}

/** No user, business, comment or reply points at the image (the one place that list lives). */
function unreferenced(db: Db): SQL {
  return and(
    notExists(db.select({ id: users.id }).from(users).where(eq(users.imageId, images.id))),
    notExists(db.select({ id: businesses.id }).from(businesses).where(eq(businesses.imageId, images.id))),
    notExists(db.select({ id: businesses.id }).from(businesses).where(eq(businesses.iconId, images.id))),
    notExists(db.select({ id: comments.id }).from(comments).where(eq(comments.imageId, images.id))),
    notExists(db.select({ id: replies.id }).from(replies).where(eq(replies.imageId, images.id))),
    // An avatar sent with a repeat registration waits in its confirmation link.
    notExists(db.select({ id: emailTokens.id }).from(emailTokens).where(eq(emailTokens.pendingImageId, images.id))),
  ) as SQL;
}

/** File removals still running, per database: imageFilesSettled awaits them. */
const pendingRemovals = new WeakMap<Db, Set<Promise<unknown>>>();

/**
 * Resolves when every file removal started so far (by releaseImage, which callers need not
 * await) has finished: what a test or a stopping process awaits instead of guessing a delay.
 */
export async function imageFilesSettled(deps: Deps): Promise<void> {
  const pending = pendingRemovals.get(deps.db);
  while (pending && pending.size > 0) await Promise.allSettled([...pending]);
}

function trackRemoval<T>(deps: Deps, work: Promise<T>): Promise<T> {
  let pending = pendingRemovals.get(deps.db);
  if (!pending) pendingRemovals.set(deps.db, (pending = new Set()));
  const set = pending;
  const tracked = work.finally(() => set.delete(tracked));
  set.add(tracked);
  return tracked;
}

/**
 * Unlinks files whose rows are gone. Waits a macrotask first: a caller inside a (synchronous)
 * better-sqlite3 transaction has then committed or rolled back, and the recheck under the file
 * lock sees the outcome, so a rolled-back delete or a re-upload of the same bytes keeps its file.
 */
async function removeFiles(deps: Deps, fileNames: string[]): Promise<unknown[]> {
  await new Promise((resolve) => setImmediate(resolve));
  const failures: unknown[] = [];
  for (const fileName of fileNames) {
    // A name from the database becomes a path only when it is a content hash (a crafted backup).
    if (!isUploadFileName(fileName)) {
      failures.push(new Error(`not removed: ${JSON.stringify(fileName)} is not the name of an upload`));
      continue;
    }
    await withFileLock(fileName, async () => {
      if (deps.db.select({ id: images.id }).from(images).where(eq(images.fileName, fileName)).get()) return;
      try {
        await rm(path.join(deps.paths.uploads, fileName));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(err);
      }
    });
  }
  return failures;
}

/**
 * Call after an image was replaced or its owner row deleted: drops the row and file when nothing
 * references it any more. The row check and delete run synchronously before this returns its
 * promise, so it may be called inside another service's transaction without awaiting. The
 * promise never rejects: a file that cannot be unlinked only costs disk space, and a rejection
 * nobody awaits would take the process down.
 */
export async function releaseImage(deps: Deps, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const gone = deps.db
    .delete(images)
    .where(and(eq(images.id, id), unreferenced(deps.db)))
    .returning({ fileName: images.fileName })
    .all();
  if (gone.length > 0)
    await trackRemoval(
      deps,
      removeFiles(
        deps,
        gone.map((g) => g.fileName),
      ),
    ).catch(() => undefined);
}

export async function releaseImages(deps: Deps, ids: ReadonlyArray<string | null | undefined>): Promise<void> {
  // Each call must start synchronously (see releaseImage), so no await between them.
  await Promise.all(ids.map((id) => releaseImage(deps, id)));
}

/** Removes temp files a crash left half-written; they never get a row. */
async function removeStaleTempFiles(deps: Deps, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(deps.paths.uploads);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const file = path.join(deps.paths.uploads, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true });
  }
}

/** Deletes uploads that nothing has referenced for 24 hours; returns how many went. */
export async function sweepUnreferencedImages(deps: Deps, now = Date.now()): Promise<number> {
  const gone = deps.db
    .delete(images)
    .where(and(lt(images.createdAt, now - SWEEP_AFTER_MS), unreferenced(deps.db)))
    .returning({ fileName: images.fileName })
    .all();
  const failures = await removeFiles(
    deps,
    gone.map((g) => g.fileName),
  );
  await removeStaleTempFiles(deps, now);
  // Unlike releaseImage this runs from maintenance, which logs the failure for the operator.
  if (failures.length > 0) throw new AggregateError(failures, `could not remove ${failures.length} upload file(s)`);
  return gone.length;
}
