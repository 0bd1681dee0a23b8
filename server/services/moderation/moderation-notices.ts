import { and, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import { businesses, comments, replies } from '../../../db/schema';
import type { Deps } from '../deps';
import { excerpt } from '../../../shared/schemas/text';
import type { ModeratedPost } from '../../../shared/schemas/moderation';
import { requireSignedIn, type Actor } from '../actor';

/** How many of a person's hidden or removed posts their profile lists, newest decision first. */
export const MODERATED_POSTS_MAX = 50;
/** Characters of a post's text the list quotes, so its author knows which post it was. */
const QUOTE_CHARS = 140;

/**
 * A person's own comments and replies that are hidden (by reports, waiting for a moderator) or
 * removed by one, with the reason they are told (issue 29 item 11): listed on their profile
 * beside the notification, so a notice is not found only by chance. Banned people see theirs
 * too. Each walk starts at the author's index (comments_user_idx, replies_user_idx): one
 * person's posts, of which few are ever moderated.
 */
export function listModeratedPosts(deps: Deps, actor: Actor): ModeratedPost[] {
  const me = requireSignedIn(actor);
  const moderated = (t: typeof comments | typeof replies) => or(isNotNull(t.hiddenAt), isNotNull(t.removedAt));
  const decidedAt = (t: typeof comments | typeof replies) => sql<number>`max(coalesce(${t.removedAt}, 0), coalesce(${t.hiddenAt}, 0))`;
  const commentRows = deps.db
    .select({
      id: comments.id,
      text: comments.text,
      hiddenAt: comments.hiddenAt,
      removedAt: comments.removedAt,
      reason: comments.removalReason,
      businessId: comments.businessId,
      businessTitle: businesses.title,
      decidedAt: decidedAt(comments),
    })
    .from(comments)
    .innerJoin(businesses, eq(businesses.id, comments.businessId))
    .where(and(eq(comments.userId, me.id), moderated(comments)))
    .orderBy(desc(decidedAt(comments)))
    .limit(MODERATED_POSTS_MAX)
    .all();
  const replyRows = deps.db
    .select({
      id: replies.id,
      commentId: replies.commentId,
      text: replies.text,
      hiddenAt: replies.hiddenAt,
      removedAt: replies.removedAt,
      reason: replies.removalReason,
      businessId: comments.businessId,
      businessTitle: businesses.title,
      decidedAt: decidedAt(replies),
    })
    .from(replies)
    .innerJoin(comments, eq(comments.id, replies.commentId))
    .innerJoin(businesses, eq(businesses.id, comments.businessId))
    .where(and(eq(replies.userId, me.id), moderated(replies)))
    .orderBy(desc(decidedAt(replies)))
    .limit(MODERATED_POSTS_MAX)
    .all();
  const posts: ModeratedPost[] = [
    ...commentRows.map((r) => ({ kind: 'comment' as const, _id: r.id, commentId: r.id, ...common(r) })),
    ...replyRows.map((r) => ({ kind: 'reply' as const, _id: r.id, commentId: r.commentId, ...common(r) })),
  ];
  return posts.sort((a, b) => b.date.localeCompare(a.date)).slice(0, MODERATED_POSTS_MAX);
}

function common(r: { text: string; removedAt: number | null; reason: string | null; businessId: string; businessTitle: string; decidedAt: number }) {
  const removed = r.removedAt !== null;
  return {
    businessId: r.businessId,
    businessTitle: r.businessTitle,
    excerpt: excerpt(r.text, QUOTE_CHARS),
    state: removed ? ('removed' as const) : ('hidden' as const),
    reason: removed ? r.reason : null,
    date: new Date(r.decidedAt).toISOString(),
  };
}
