import { and, asc, eq, gte } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { autoHides, businesses, comments, modDigests, replies, users } from '../../../db/schema';
import type { Deps } from '../deps';
import type { Env } from '../../env';
import { newId } from '../../lib/ids';
import type { Language } from '../../../shared/schemas/common';
import { requireAdmin, type Actor } from '../actor';
import { excerptOf } from './mod-log';
import { rewriteWaitingMail } from '../ops/mail-outbox';
import type { DbOrTx } from '../../../db/client';
import { inSiteName } from '../../../shared/schemas/site-settings';
import { siteText } from '../site/site-settings';

/** At most one digest an hour to each admin who asked for them. */
export const MOD_DIGEST_EVERY_MS = 60 * 60 * 1000;
/** Posts one digest lists; the rest are counted ("and 3 more"). */
const DIGEST_ITEMS_MAX = 30;

const replyBusiness = alias(businesses, 'reply_business');

type DigestItem = { kind: 'comment' | 'reply'; commentId: string; text: string; businessTitle: string };

/** Posts hidden by reports from `from` on, oldest first (auto_hides_hidden_at_idx). */
function itemsFrom(tx: DbOrTx, from: number): { items: DigestItem[]; more: number } {
  const rows = tx
    .select({
      commentId: autoHides.commentId,
      replyId: autoHides.replyId,
      commentText: comments.text,
      replyText: replies.text,
      replyCommentId: replies.commentId,
      commentBusiness: businesses.title,
      replyBusiness: replyBusiness.title,
    })
    .from(autoHides)
    .leftJoin(comments, eq(comments.id, autoHides.commentId))
    .leftJoin(businesses, eq(businesses.id, comments.businessId))
    .leftJoin(replies, eq(replies.id, autoHides.replyId))
    .leftJoin(replyBusiness, eq(replyBusiness.id, replies.businessId))
    .where(gte(autoHides.hiddenAt, from))
    .orderBy(asc(autoHides.hiddenAt))
    .limit(1000)
    .all();
  const items: DigestItem[] = rows.map((r) =>
    r.replyId
      ? { kind: 'reply', commentId: r.replyCommentId ?? '', text: r.replyText ?? '', businessTitle: r.replyBusiness ?? '' }
      : { kind: 'comment', commentId: r.commentId ?? '', text: r.commentText ?? '', businessTitle: r.commentBusiness ?? '' },
  );
  return { items: items.slice(0, DIGEST_ITEMS_MAX), more: Math.max(0, items.length - DIGEST_ITEMS_MAX) };
}

const digestText = {
  sv: {
    subject: (n: number) => `Recensera: ${n} inlägg har dolts efter rapporter`,
    hello: (name: string) => `Hej ${name}!`,
    intro: 'Följande inlägg har fått så många rapporter att de döljs tills en moderator avgör dem:',
    comment: 'Kommentar',
    reply: 'Svar',
    on: (title: string) => `om ${title}`,
    more: (n: number) => `… och ${n} till.`,
    queue: 'Granska dem i rapportkön:',
    why: 'Du får det här brevet för att du har valt sammanfattningar i din profil. Där kan du också stänga av dem.',
  },
  en: {
    subject: (n: number) => `Recensera: ${n} ${n === 1 ? 'post was' : 'posts were'} hidden after reports`,
    hello: (name: string) => `Hello ${name},`,
    intro: 'These posts were reported by enough users to be hidden until a moderator decides:',
    comment: 'Comment',
    reply: 'Reply',
    on: (title: string) => `on ${title}`,
    more: (n: number) => `… and ${n} more.`,
    queue: 'Review them in the moderation queue:',
    why: 'You get this mail because you chose digests in your profile, where you can also turn them off.',
  },
} as const;

function digestMail(env: Env, admin: { firstName: string; language: Language }, list: { items: DigestItem[]; more: number }, siteName: string) {
  const d = digestText[admin.language];
  const lines = list.items.map(
    (i) =>
      `- ${i.kind === 'comment' ? d.comment : d.reply} ${d.on(i.businessTitle)}: "${excerptOf(i.text.replace(/\s+/g, ' '))}"\n  ${env.PUBLIC_URL}/comment/${i.commentId}`,
  );
  return {
    subject: inSiteName(d.subject(list.items.length + list.more), siteName),
    text: [
      d.hello(admin.firstName),
      '',
      d.intro,
      '',
      ...lines,
      ...(list.more ? [d.more(list.more)] : []),
      '',
      d.queue,
      `${env.PUBLIC_URL}/mod-queue`,
      '',
      d.why,
      '',
    ].join('\n'),
  };
}

/**
 * After reports hid a post (in that transaction): every admin who chose digests gets the posts
 * hidden since their last digest, at most one mail an hour. A digest still waiting in the outbox
 * (its hour has not come) is rewritten with the new post; otherwise a new one is queued for now,
 * or for an hour after the previous one. So nothing is mailed twice and nothing waits past an hour.
 */
export function queueModDigests(deps: Deps, tx: DbOrTx, now: number): void {
  const admins = tx
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      language: users.language,
      fromAt: modDigests.fromAt,
      sendAt: modDigests.sendAt,
      mailId: modDigests.mailId,
    })
    .from(users)
    .leftJoin(modDigests, eq(modDigests.userId, users.id))
    // users_is_admin_idx: the admins, a handful of rows.
    .where(and(eq(users.isAdmin, true), eq(users.modDigest, true), eq(users.isBanned, false), eq(users.emailConfirmed, true)))
    .all();
  for (const admin of admins) {
    const language: Language = admin.language === 'en' ? 'en' : 'sv';
    const to = { firstName: admin.firstName, language };
    if (admin.sendAt !== null && admin.fromAt !== null && admin.mailId !== null && admin.sendAt > now) {
      if (rewriteWaitingMail(tx, admin.mailId, digestMail(deps.env, to, itemsFrom(tx, admin.fromAt), siteText(deps).name))) continue;
    }
    const sendAt = admin.sendAt === null ? now : Math.max(now, admin.sendAt + MOD_DIGEST_EVERY_MS);
    const mailId = deps.outbox.enqueue({ to: admin.email, ...digestMail(deps.env, to, itemsFrom(tx, now), siteText(deps).name) }, { db: tx, sendAt });
    tx.insert(modDigests)
      .values({ userId: admin.id, fromAt: now, sendAt, mailId })
      .onConflictDoUpdate({ target: modDigests.userId, set: { fromAt: now, sendAt, mailId } })
      .run();
  }
}

/** Records that reports hid a post, for the digest. */
export function recordAutoHide(tx: DbOrTx, kind: 'comment' | 'reply', id: string, now: number): void {
  tx.insert(autoHides)
    .values({ id: newId(), commentId: kind === 'comment' ? id : null, replyId: kind === 'reply' ? id : null, hiddenAt: now })
    .run();
}

/** Whether the admin gets digests (their profile's switch). */
export function getModDigest(deps: Deps, actor: Actor): { modDigest: boolean } {
  const admin = requireAdmin(actor);
  const row = deps.db.select({ on: users.modDigest }).from(users).where(eq(users.id, admin.id)).get();
  return { modDigest: row?.on ?? false };
}

/** An admin turns the digest mails on or off for themself. */
export async function setModDigest(deps: Deps, actor: Actor, input: { modDigest: boolean }): Promise<{ modDigest: boolean }> {
  const admin = requireAdmin(actor);
  // A setting like any other edit: limited per user.
  await deps.limits.consume('edit', admin.id);
  deps.db.update(users).set({ modDigest: input.modDigest }).where(eq(users.id, admin.id)).run();
  return { modDigest: input.modDigest };
}
