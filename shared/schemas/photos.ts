import { z } from 'zod';
import { idSchema } from './common';
import { pageInputSchema } from './comments';

/** Photos a gallery page shows: a grid of 4 × 6 on a desktop. */
export const PHOTOS_PAGE = 24;

export const businessPhotosInputSchema = pageInputSchema.extend({ id: idSchema });
export type BusinessPhotosInput = z.output<typeof businessPhotosInputSchema>;

/** One picture of a business's gallery: from a comment, or from a reply to one. */
export const photoSchema = z.object({
  /** The post's id: a comment's or a reply's. */
  id: z.string(),
  kind: z.enum(['comment', 'reply']),
  /** The comment the picture belongs to (the reply's comment for a reply): its page is /comment/{commentId}. */
  commentId: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  author: z.object({ firstName: z.string(), lastName: z.string() }),
  /** Milliseconds since the epoch. */
  createdAt: z.number().int(),
});
export type Photo = z.infer<typeof photoSchema>;

export const photosPageSchema = z.object({
  /** Every public photo of the business, not only this page's. */
  total: z.number().int(),
  items: z.array(photoSchema),
  nextCursor: z.string().nullable(),
});
export type PhotosPage = z.infer<typeof photosPageSchema>;
