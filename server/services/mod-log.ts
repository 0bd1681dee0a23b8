import { desc, sql } from 'drizzle-orm';
import { modLog } from '../../db/schema';
import type { Deps } from '../deps';
import { newId } from '../lib/ids';
import type { ModAction, ModLogEntry, ModTargetKind } from '../schemas/moderation';
import { requireAdmin, type Actor, type SignedIn } from './actor';
import type { DbOrTx } from './users';

/** Characters of a post or name the log keeps, so it still says what was removed. */
export const EXCERPT_CHARS = 120;
/** Entries the log page shows, newest first. */
export const MOD_LOG_PAGE = 200;

export const excerptOf = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text);

/**
 * Records a moderator action (PRODUCT.md 11) in the caller's transaction, so the log and the
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

/** The newest moderator actions (admins). */
export function listModLog(deps: Deps, actor: Actor): ModLogEntry[] {
  requireAdmin(actor);
  return deps.db
    .select()
    .from(modLog)
    // mod_log_created_idx ends in the rowid: same-millisecond entries keep their order, without a sort.
    .orderBy(desc(modLog.createdAt), desc(sql`${modLog}.rowid`))
    .limit(MOD_LOG_PAGE)
    .all()
    .map((r) => ({
      _id: r.id,
      actorId: r.actorId,
      actorName: r.actorName,
      action: r.action as ModAction,
      targetKind: r.targetKind as ModTargetKind,
      targetId: r.targetId,
      excerpt: r.excerpt,
      reason: r.reason,
      date: new Date(r.createdAt).toISOString(),
    }));
}
