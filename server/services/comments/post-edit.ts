import { and, eq, isNull } from 'drizzle-orm';
import { comments, replies } from '../../../db/schema';
import type { Tx } from '../../../db/client';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import type { CommentUpdateInput, ReplyUpdateInput } from '../../../shared/schemas/comments';
import { requireActive, type Actor } from '../actor';
import { releaseImage } from './images';
import { resolvePostImage, writeWithImage, type WithUpload } from './post-images';
import { checkEditedPost } from '../moderation/spam';

/** What differs between editing a comment and editing a reply: the table and the messages. */
const postKinds = {
  comment: { table: comments, notFound: 'commentNotFound', notYours: 'commentNotYours', imageKind: 'comment' },
  reply: { table: replies, notFound: 'replyNotFound', notYours: 'replyNotYours', imageKind: 'reply-edit' },
} as const;

export type PostKind = keyof typeof postKinds;

/** What one kind's edit adds, inside the same checks and transaction (a comment: stars, a new place). */
export type EditExtras = {
  /** Limits taken before anything is read, beside the edit limit. */
  limits?: (authorId: string) => Promise<void>;
  /** Checks made before any picture is stored (a 400 leaves nothing behind). */
  check?: (businessId: string) => void;
  /** Columns written with the text, worked out in the transaction. */
  set?: (tx: Tx, businessId: string) => { branchId?: string | null; businessLocation?: string; placeKey?: string | null };
  /** Runs in the transaction after the post is written. */
  alongside?: (tx: Tx, businessId: string, authorId: string) => void;
};

/**
 * The author edits a comment's or a reply's text and picture (`imageId` null removes it, a new
 * upload replaces it, neither keeps it); nobody else may, admins neither. A moderator's removal
 * stands: the author cannot write the text back (403 postRemoved).
 */
export async function editPost(
  deps: Deps,
  actor: Actor,
  kind: PostKind,
  input: WithUpload<CommentUpdateInput | ReplyUpdateInput>,
  extras: EditExtras = {},
): Promise<void> {
  const { table, notFound, notYours, imageKind } = postKinds[kind];
  const author = requireActive(actor);
  await deps.limits.consume('edit', author.id);
  await extras.limits?.(author.id);
  const { db } = deps;
  const before = db.select({ userId: table.userId, businessId: table.businessId, imageId: table.imageId }).from(table).where(eq(table.id, input.id)).get();
  if (!before) throw new AppError('NOT_FOUND', notFound);
  if (before.userId !== author.id) throw new AppError('FORBIDDEN', notYours);
  checkEditedPost(deps, author.id, input.text);
  extras.check?.(before.businessId);
  const image = await resolvePostImage(deps, author.id, imageKind, input);
  const imageId = image.imageId === undefined ? before.imageId : image.imageId;
  await writeWithImage(deps, image.stored, () =>
    db.transaction((tx) => {
      const more = extras.set?.(tx, before.businessId) ?? {};
      const changed = tx
        .update(table)
        .set({ text: input.text, imageId, ...more, updatedAt: Date.now() })
        .where(and(eq(table.id, input.id), isNull(table.removedAt)))
        .returning({ id: table.id })
        .all();
      if (changed.length === 0) throw new AppError('FORBIDDEN', 'postRemoved');
      extras.alongside?.(tx, before.businessId, author.id);
    }),
  );
  if (before.imageId !== imageId) await releaseImage(deps, before.imageId);
}
