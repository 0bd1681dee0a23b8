import { and, desc, eq, sql } from 'drizzle-orm';
import { modLog } from '../../../db/schema';
import type { Deps } from '../deps';
import { newId } from '../../lib/ids';
import type { Page } from '../../../shared/schemas/comments';
import type { ModAction, ModLogEntry, ModLogInput, ModTargetKind } from '../../../shared/schemas/moderation';
import { requireModerator, type Actor, type SignedIn } from '../actor';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import type { DbOrTx } from '../../../db/client';

/** Characters of a post or name the log keeps, so it still says what was removed. */
export const EXCERPT_CHARS = 120;
/** Entries a page of the log shows unless asked for fewer, newest first. */
export const MOD_LOG_PAGE = 50;

export const excerptOf = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text);

/**
 * Records a moderator action (docs/product.md §11) in the caller's transaction, so the log and the
 * change it describes are written together or not at all.
 */
export function recordModAction(
  tx: DbOrTx,
  moderator: SignedIn,
  entry: { action: ModAction; targetKind: ModTargetKind; targetId: string; excerpt?: string; reason?: string | null },
): void {
  tx.insert(modLog)
    .values({
      id: newId(),
      actorId: moderator.id,
      actorName: `${moderator.firstName} ${moderator.lastName}`.trim(),
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      excerpt: excerptOf(entry.excerpt ?? ''),
      reason: entry.reason ?? null,
      createdAt: Date.now(),
    })
    .run();
}

/**
 * The moderator actions, newest first (moderators and admins), a page at a time; `action` and `targetKind`
 * narrow it. Each filter has its own index ending in created_at (and the rowid), so every page is
 * a walk in order that stops at the limit.
 */
export function listModLog(deps: Deps, actor: Actor, input: ModLogInput = {}): Page<ModLogEntry> {
  requireModerator(actor);
  const limit = input.limit ?? MOD_LOG_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const rowid = sql<number>`${modLog}.rowid`;
  const rows = deps.db
    .select({ entry: modLog, rowid })
    .from(modLog)
    .where(
      and(
        input.action ? eq(modLog.action, input.action) : undefined,
        input.targetKind ? eq(modLog.targetKind, input.targetKind) : undefined,
        cursor ? sql`(${modLog.createdAt}, ${rowid}) < (${cursor.t}, ${cursor.k})` : undefined,
      ),
    )
    // Same-millisecond entries keep their order by rowid, which every index on created_at ends in.
    .orderBy(desc(modLog.createdAt), desc(rowid))
    .limit(limit + 1)
    .all();
  return pageOf(
    rows,
    limit,
    (r) => [r.entry.createdAt, r.rowid],
    ({ entry: r }) => ({
      _id: r.id,
      actorId: r.actorId,
      actorName: r.actorName,
      action: r.action as ModAction,
      targetKind: r.targetKind as ModTargetKind,
      targetId: r.targetId,
      excerpt: r.excerpt,
      reason: r.reason,
      date: new Date(r.createdAt).toISOString(),
    }),
  );
}
