import type { Deps } from '../deps';
import { releaseImage, requireImage, storeImage } from './images';

/** An upload that arrived with the request (REST multipart) instead of a prior /api/images id. */
export type WithUpload<T> = T & { imageBytes?: Buffer };

/**
 * The picture a comment or reply will point at: bytes sent along are stored now, before any
 * transaction (better-sqlite3 transactions cannot await); an id must be one the actor uploaded.
 * `stored` is the id this call created, so a failed write can release it again. `imageId`
 * undefined means "keep", null "remove".
 */
export async function resolvePostImage(
  deps: Deps,
  actorId: string,
  kind: 'comment' | 'reply' | 'reply-edit',
  input: { imageId?: string | null; imageBytes?: Buffer },
): Promise<{ imageId: string | null | undefined; stored: string | null }> {
  if (input.imageBytes && input.imageBytes.length > 0) {
    const stored = await storeImage(deps, { bytes: input.imageBytes, kind, ownerId: actorId });
    return { imageId: stored.id, stored: stored.id };
  }
  if (input.imageId) requireImage(deps.db, input.imageId, actorId);
  return { imageId: input.imageId, stored: null };
}

/** Runs the write; a picture this request stored is released again if the write fails. */
export async function writeWithImage<T>(deps: Deps, stored: string | null, write: () => T): Promise<T> {
  try {
    return write();
  } catch (err) {
    await releaseImage(deps, stored);
    throw err;
  }
}
