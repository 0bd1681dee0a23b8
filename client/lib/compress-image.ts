import { imageBounds, type ImageKind } from '../../shared/schemas/common';

const QUALITY_STEPS = [0.8, 0.7, 0.6, 0.5, 0.4] as const;
/** Below this the picture is useless; real photos fit their budget long before. */
const MIN_SIDE = 64;

type OutputType = 'image/webp' | 'image/jpeg';

/** Thrown when the browser cannot read the file as a picture; `name` is 'NotAnImage'. */
export function notAnImageError(cause?: unknown): Error {
  const error = new Error('The file is not an image this browser can read.', { cause });
  error.name = 'NotAnImage';
  return error;
}

export const isNotAnImage = (error: unknown): boolean => error instanceof Error && error.name === 'NotAnImage';

async function decode(file: Blob): Promise<ImageBitmap> {
  if (file.type && !file.type.startsWith('image/')) throw notAnImageError();
  try {
    // 'from-image' turns a phone photo upright by its EXIF orientation before we drop the EXIF.
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (cause) {
    throw notAnImageError(cause);
  }
}

type Painted = { encode(type: OutputType, quality: number): Promise<Blob | null> };

/** Draws the bitmap at the given size; JPEG has no alpha, so it gets white behind transparency. */
function paint(bitmap: ImageBitmap, width: number, height: number, opaque: boolean): Painted {
  const draw = (ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
    ctx.imageSmoothingQuality = 'high';
    if (opaque) {
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, width, height);
    }
    ctx.drawImage(bitmap, 0, 0, width, height);
  };
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D canvas available');
    draw(ctx);
    return { encode: (type, quality) => canvas.convertToBlob({ type, quality }) };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas available');
  draw(ctx);
  return { encode: (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)) };
}

/**
 * Shrinks a picture to the bounds of its kind before upload (longest side, then byte budget by
 * falling quality, then smaller sides) and re-encodes it as WebP, or JPEG where the browser
 * cannot write WebP. Re-encoding also leaves the photo's EXIF (GPS position) on the device.
 * Throws an Error named 'NotAnImage' when the file cannot be decoded.
 */
export async function compressImage(file: File, kind: ImageKind): Promise<Blob> {
  const { maxSide, maxBytes } = imageBounds[kind];
  const bitmap = await decode(file);
  try {
    const longest = Math.max(bitmap.width, bitmap.height);
    let side = Math.min(maxSide, longest);
    let type: OutputType = 'image/webp';
    for (;;) {
      const scale = side / longest;
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      let painted = paint(bitmap, width, height, type === 'image/jpeg');
      let blob: Blob | null = null;
      for (const quality of QUALITY_STEPS) {
        blob = await painted.encode(type, quality);
        // Browsers answer an encoding they lack with PNG; older Safari cannot write WebP.
        if (type === 'image/webp' && blob?.type !== 'image/webp') {
          type = 'image/jpeg';
          painted = paint(bitmap, width, height, true);
          blob = await painted.encode(type, quality);
        }
        if (!blob) throw new Error('The browser could not encode the image');
        if (blob.size <= maxBytes) return blob;
      }
      // The server re-encodes within the same bounds, so the smallest try is still worth sending.
      if (side <= MIN_SIDE && blob) return blob;
      side = Math.max(MIN_SIDE, Math.floor(side * 0.75));
    }
  } finally {
    bitmap.close();
  }
}
