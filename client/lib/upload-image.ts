import { MAX_UPLOAD_BYTES, type ImageKind } from '../../shared/schemas/common';
import { isMessageKey, messageText, type MessageKey } from '../../shared/schemas/messages';
import { compressImage, isNotAnImage } from './compress-image';

export type UploadedImage = { id: string; url: string };

/**
 * A failed upload. `key` names the message to show (translate it with the i18n catalog);
 * `status` is the HTTP status, the status the server would have sent for a refusal made in the
 * browser (413 too large, 415 not an image), or 0 when the network failed.
 */
export class UploadError extends Error {
  readonly key: MessageKey;
  readonly status: number;

  constructor(key: MessageKey, status: number, message: string = messageText(key)) {
    super(message);
    this.name = 'UploadError';
    this.key = key;
    this.status = status;
  }
}

/** What the server decodes; a browser that cannot (AVIF on an old one) leaves it to the server. */
const SERVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

const fallbackKey = (status: number): MessageKey =>
  status === 413
    ? 'imageTooLarge'
    : status === 415
      ? 'imageUnsupported'
      : status === 401
        ? 'unauthenticated'
        : status === 403
          ? 'forbidden'
          : status === 429
            ? 'tooManyRequests'
            : 'internal';

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

async function prepare(file: File, kind: ImageKind): Promise<{ body: Blob; name: string }> {
  try {
    const body = await compressImage(file, kind);
    return { body, name: body.type === 'image/jpeg' ? 'image.jpg' : 'image.webp' };
  } catch (error) {
    if (isNotAnImage(error) && !SERVER_TYPES.has(file.type)) throw new UploadError('imageUnsupported', 415);
    // The server re-encodes everything anyway; sending the original only costs bandwidth.
    return { body: file, name: file.name || 'image' };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function errorFromReply(status: number, text: string): UploadError {
  const body = parseJson(text) as { key?: unknown; message?: unknown } | null;
  const key = typeof body?.key === 'string' && isMessageKey(body.key) ? body.key : fallbackKey(status);
  return new UploadError(key, status, typeof body?.message === 'string' ? body.message : messageText(key));
}

/**
 * Shrinks the picture in the browser, then posts it to /api/images with the session cookie.
 * XMLHttpRequest rather than fetch because only it reports upload progress; `onProgress`
 * gets the sent fraction (0–1). Rejects with UploadError, or an AbortError DOMException when
 * `signal` aborts.
 */
export async function uploadImage(file: File, kind: ImageKind, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedImage> {
  if (signal?.aborted) throw abortError();
  const { body, name } = await prepare(file, kind);
  if (body.size > MAX_UPLOAD_BYTES) throw new UploadError('imageTooLarge', 413);
  if (signal?.aborted) throw abortError();

  const form = new FormData();
  form.append('kind', kind);
  form.append('image', body, name);

  return new Promise<UploadedImage>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/images');
    // Same-origin requests carry the session cookie anyway; never send it anywhere else.
    xhr.withCredentials = false;
    xhr.responseType = 'text';
    xhr.setRequestHeader('Accept', 'application/json');

    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) return reject(errorFromReply(xhr.status, xhr.responseText));
      const reply = parseJson(xhr.responseText) as Partial<UploadedImage> | null;
      if (typeof reply?.id !== 'string' || typeof reply.url !== 'string') return reject(new UploadError('internal', xhr.status));
      onProgress?.(1);
      resolve({ id: reply.id, url: reply.url });
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadError('internal', 0));
    };
    xhr.onabort = () => {
      settle();
      reject(abortError());
    };
    xhr.send(form);
  });
}
