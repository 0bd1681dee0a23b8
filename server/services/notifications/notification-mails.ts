import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNull, sql, type Placeholder } from 'drizzle-orm';
import { alias, type SQLiteColumn, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../../../db/client';
import {
  businessSuggestions,
  businesses,
  comments,
  notifications,
  notificationSettings,
  notificationThreads,
  ownerReplies,
  replies,
  users,
} from '../../../db/schema';
import type { Deps } from '../deps';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { keptLimit, preparedStatements } from '../../lib/prepared';
import type { Language } from '../../../shared/schemas/common';
import {
  categoryOfKind,
  notificationMailDefaults,
  type MailCategory,
  type NotificationKind,
  type NotificationSettings,
  type NotificationSettingsInput,
} from '../../../shared/schemas/notifications';
import { requireSignedIn, type Actor } from '../actor';
import { shownLastName } from '../accounts/names';
import { enqueueMail } from '../ops/mail-outbox';
import { pullFavoriteReviewsForMail } from './favorite-reviews';
import { drainNotificationEvents, firstReplyOf, liveActor, liveCount, notificationPath, openThread, settledThread } from './notifications';
import { inSiteName } from '../../../shared/schemas/site-settings';
import { siteText } from '../site/site-settings';
import { notifications as svCatalog } from '../../../shared/i18n/sv/notifications';
import { notifications as enCatalog } from '../../../shared/i18n/en/notifications';

/** At most one instant mail per thread and user in this time. */
export const THREAD_MAIL_EVERY_MS = 60 * 60 * 1000;
/** The daily digest. */
export const DIGEST_EVERY_MS = 24 * 60 * 60 * 1000;
/** Notifications the mail job reads in one run; the rest wait for the next. */
export const MAIL_BATCH = 500;
/** Entries one mail lists; the rest are counted. */
const MAIL_ITEMS_MAX = 20;

// ---------------------------------------------------------------------------------------------
// Settings

function settingsRow(db: DbOrTx, userId: string) {
  return db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).get();
}

type StoredChoices = Partial<Record<MailCategory, string | null>> | undefined;

const choicesOf = (row: StoredChoices): NotificationSettings => ({
  replies: (row?.replies as NotificationSettings['replies'] | null) ?? notificationMailDefaults.replies,
  reactions: (row?.reactions as NotificationSettings['reactions'] | null) ?? notificationMailDefaults.reactions,
  reviews: (row?.reviews as NotificationSettings['reviews'] | null) ?? notificationMailDefaults.reviews,
  moderation: (row?.moderation as NotificationSettings['moderation'] | null) ?? notificationMailDefaults.moderation,
});

/** A new unsubscribe token (a settings row's, made once per user). */
const newToken = () => randomBytes(24).toString('base64url');

/** The user's settings row, made (with its unsubscribe token, no digest clock yet) when missing. */
function ensureSettings(db: Db, userId: string): void {
  mailJob(db).newSettings.run({ userId, token: newToken(), digestAt: null });
}

/** The caller's e-mail choice per kind (GET /api/notification-settings). */
export function getNotificationSettings(deps: Deps, actor: Actor): NotificationSettings {
  const me = requireSignedIn(actor);
  return choicesOf(settingsRow(deps.db, me.id));
}

/** Changes some of the caller's choices; the others stay. */
export async function setNotificationSettings(deps: Deps, actor: Actor, input: NotificationSettingsInput): Promise<NotificationSettings> {
  const me = requireSignedIn(actor);
  await deps.limits.consume('edit', me.id);
  deps.db.transaction((tx) => {
    // The compiled statement runs on the same connection, inside this transaction.
    ensureSettings(deps.db, me.id);
    if (Object.keys(input).length > 0) tx.update(notificationSettings).set(input).where(eq(notificationSettings.userId, me.id)).run();
  });
  return getNotificationSettings(deps, actor);
}

/** The one-click link of a mail (RFC 8058): names the user and the kind, proven by the user's token. */
export function unsubscribeUrl(env: Env, userId: string, category: MailCategory, token: string): string {
  const q = new URLSearchParams({ user: userId, kind: category, token });
  return `${env.PUBLIC_URL}/unsubscribe?${q.toString()}`;
}

export type UnsubscribeTarget = { user: string; kind: MailCategory; token: string };

/** Checks a link's token; the user's language for the page it answers with. */
export function checkUnsubscribe(db: Db, target: UnsubscribeTarget): { language: Language } {
  const row = db
    .select({ token: notificationSettings.token, language: users.language })
    .from(notificationSettings)
    .innerJoin(users, eq(users.id, notificationSettings.userId))
    .where(eq(notificationSettings.userId, target.user))
    .get();
  const given = Buffer.from(target.token);
  if (!row || given.length !== Buffer.from(row.token).length || !timingSafeEqual(given, Buffer.from(row.token))) {
    throw new AppError('NOT_FOUND', 'unsubscribeLinkInvalid');
  }
  return { language: row.language === 'en' ? 'en' : 'sv' };
}

/** The one-click POST (no cookie): turns that kind of mail off; again changes nothing. */
export function unsubscribe(db: Db, target: UnsubscribeTarget): { language: Language } {
  const found = checkUnsubscribe(db, target);
  db.update(notificationSettings)
    .set({ [target.kind]: 'off' })
    .where(eq(notificationSettings.userId, target.user))
    .run();
  return found;
}

// ---------------------------------------------------------------------------------------------
// Mails

const recipient = alias(users, 'recipient');
const actorUser = alias(users, 'mail_actor');
const linkedReply = alias(replies, 'mail_reply');
/** An open thread notice's latest replier (notifications.ts, openThread). */
const latestUser = alias(users, 'mail_latest');

/** What a mail may tell: as the list (services/notifications/notifications.ts) shows it. */
const shown = sql<number>`case when (${notifications.actorId} is null or ${actorUser.isBanned} = 0)
  and (${notifications.kind} not in ('reply', 'threadReply', 'ownerReply') or (${linkedReply.hiddenAt} is null and ${linkedReply.removedAt} is null))
  and (${notifications.kind} <> 'favoriteReview' or (${comments.hiddenAt} is null and ${comments.removedAt} is null)) then 1 else 0 end`;

export type Pending = {
  id: number;
  userId: string;
  kind: string;
  commentId: string | null;
  replyId: string | null;
  businessId: string | null;
  count: number;
  reason: string | null;
  email: string;
  language: string;
  firstName: string;
  banned: boolean;
  demo: boolean;
  actorFirst: string | null;
  actorLast: string | null;
  businessTitle: string;
  shown: number;
  settingsToken: string | null;
  digestAt: number | null;
  replies: string | null;
  reactions: string | null;
  reviews: string | null;
  moderation: string | null;
};

/** The queue's order: when a row is due for the mail job (the index's expression, migration 0033). */
const mailDue = sql`coalesce(${notifications.mailDueAt}, ${notifications.createdAt})`;

/**
 * The waiting rows that are due, oldest first. A row held back for a digest that is not due or
 * for its thread's hour gets the time it is due (mail_due_at) and is not read again before: such
 * rows at the queue's head kept every mail behind them waiting, and read again each run they
 * cost the job a scan (2026-11-26: 10 s of a bench run's 95).
 */
export function pendingRows(db: Db, now = Date.now(), batch = MAIL_BATCH): Pending[] {
  return mailJob(db).pending.all({ now, batch });
}

/** The statement of pendingRows; exported so the query-plan test checks it. */
export function pendingQuery(db: Db, now: number | Placeholder, batch: number | Placeholder) {
  return (
    db
      .select({
        id: notifications.id,
        userId: notifications.userId,
        kind: notifications.kind,
        commentId: notifications.commentId,
        replyId: notifications.replyId,
        businessId: businesses.id,
        count: sql<number>`case when ${openThread} then max(1, ${liveCount(firstReplyOf(linkedReply))}) else ${notifications.count} end`,
        reason: notifications.reason,
        email: recipient.email,
        language: recipient.language,
        firstName: recipient.firstName,
        banned: recipient.isBanned,
        demo: recipient.isDemo,
        actorFirst: sql<string | null>`coalesce(${latestUser.firstName}, ${actorUser.firstName})`,
        actorLast: sql<string | null>`coalesce(${shownLastName(latestUser)}, ${shownLastName(actorUser)})`,
        businessTitle: sql<string>`coalesce(${businesses.title}, ${businessSuggestions.title}, '')`,
        shown,
        settingsToken: notificationSettings.token,
        digestAt: notificationSettings.digestAt,
        replies: notificationSettings.replies,
        reactions: notificationSettings.reactions,
        reviews: notificationSettings.reviews,
        moderation: notificationSettings.moderation,
      })
      .from(notifications)
      .innerJoin(recipient, eq(recipient.id, notifications.userId))
      // As the list: a notice about a suggestion or a claim has no comment.
      .leftJoin(comments, eq(comments.id, notifications.commentId))
      .leftJoin(businesses, eq(businesses.id, sql`coalesce(${notifications.businessId}, ${comments.businessId})`))
      .leftJoin(businessSuggestions, eq(businessSuggestions.id, notifications.suggestionId))
      .leftJoin(actorUser, eq(actorUser.id, notifications.actorId))
      .leftJoin(linkedReply, eq(linkedReply.id, notifications.replyId))
      .leftJoin(latestUser, and(openThread, eq(latestUser.id, liveActor(firstReplyOf(linkedReply)))))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, notifications.userId))
      // On notifications_mail_due_idx: rows the job held back (mail_due_at) wait there unread.
      .where(and(isNull(notifications.mailedAt), sql`${mailDue} <= ${now}`))
      .orderBy(mailDue)
      .limit(keptLimit(batch))
  );
}

const q = {
  userId: sql.placeholder('userId'),
  commentId: sql.placeholder('commentId'),
  token: sql.placeholder('token'),
  digestAt: sql.placeholder('digestAt'),
  now: sql.placeholder('now'),
};

/**
 * The mail job's statements, compiled once: it reads every notification once, so they run about
 * as often as notices are made. Exported so the query-plan test checks them.
 */
export function mailJobQueries(db: Db) {
  // Whether the recipient has ever posted (a review, a reply, a business's answer), each from
  // its author index alone (no row read); someone who never posted gets no mail.
  const postedIn = (table: SQLiteTable, author: SQLiteColumn) =>
    db
      .select({ one: sql<number>`1` })
      .from(table)
      .where(eq(author, q.userId))
      .limit(keptLimit(1));
  return {
    pending: pendingQuery(db, q.now, sql.placeholder('batch')),
    postedComment: postedIn(comments, comments.userId),
    postedReply: postedIn(replies, replies.userId),
    postedAnswer: postedIn(ownerReplies, ownerReplies.userId),
    // A recipient's first mail makes their settings row, with the unsubscribe token its links carry.
    newSettings: db.insert(notificationSettings).values({ userId: q.userId, token: q.token, digestAt: q.digestAt }).onConflictDoNothing(),
    digestStarted: db
      .update(notificationSettings)
      .set({ digestAt: sql`${q.now}` })
      .where(eq(notificationSettings.userId, q.userId)),
    threadMailedAt: db
      .select({ at: notificationThreads.mailedAt })
      .from(notificationThreads)
      .where(and(eq(notificationThreads.userId, q.userId), eq(notificationThreads.commentId, q.commentId))),
    threadMailed: db
      .insert(notificationThreads)
      .values({ userId: q.userId, commentId: q.commentId, mailedAt: q.now })
      .onConflictDoUpdate({ target: [notificationThreads.userId, notificationThreads.commentId], set: { mailedAt: sql`${q.now}` } }),
  };
}

const mailJob = preparedStatements(mailJobQueries);

const mailText = {
  sv: {
    hello: (name: string) => `Hej ${name}!`,
    someone: svCatalog.someone,
    subject: {
      replies: (place: string, site: string) => `Nytt svar om ${place} på ${site}`,
      reactions: (place: string) => `Reaktioner på ditt inlägg om ${place}`,
      reviews: (place: string) => `Ny recension av ${place}`,
      moderation: (place: string) => `Om ditt inlägg om ${place}`,
    },
    decisionSubject: (place: string) => `Beslut om ${place}`,
    digestSubject: (n: number) => `Recensera: ${n} ${n === 1 ? 'nyhet' : 'nyheter'} sedan i går`,
    digestIntro: 'Det här har hänt sedan förra sammanfattningen:',
    more: (n: number) => `… och ${n} till.`,
    categories: { replies: 'svar', reactions: 'reaktioner', reviews: 'nya recensioner av dina favoriter', moderation: 'moderering' },
    why: (category: string, daily: boolean) => `Du får det här för att du valt e-post om ${category} ${daily ? 'en gång om dagen' : 'direkt'}.`,
    settings: 'Ändra dina val under Notiser på din profil:',
    stop: (category: string) => `Sluta få e-post om ${category}:`,
    // The sentences are the bell's own (shared/i18n): a mail says what the app says.
    text: svCatalog.text,
    reason: svCatalog.reason,
  },
  en: {
    hello: (name: string) => `Hello ${name}!`,
    someone: enCatalog.someone,
    subject: {
      replies: (place: string, site: string) => `New reply about ${place} on ${site}`,
      reactions: (place: string) => `Reactions to your post about ${place}`,
      reviews: (place: string) => `New review of ${place}`,
      moderation: (place: string) => `About your post about ${place}`,
    },
    decisionSubject: (place: string) => `Decision about ${place}`,
    digestSubject: (n: number) => `Recensera: ${n} ${n === 1 ? 'update' : 'updates'} since yesterday`,
    digestIntro: 'This is what happened since the last summary:',
    more: (n: number) => `… and ${n} more.`,
    categories: { replies: 'replies', reactions: 'reactions', reviews: 'new reviews of your favourites', moderation: 'moderation' },
    why: (category: string, daily: boolean) => `You get this because you chose e-mail about ${category} ${daily ? 'once a day' : 'at once'}.`,
    settings: 'Change your choices under Notifications on your profile:',
    stop: (category: string) => `Stop e-mail about ${category}:`,
    // The sentences are the bell's own (shared/i18n): a mail says what the app says.
    text: enCatalog.text,
    reason: enCatalog.reason,
  },
};

const languageOf = (value: string): Language => (value === 'en' ? 'en' : 'sv');

function sentence(lang: Language, r: Pending): string {
  const m = mailText[lang];
  const who = r.actorFirst === null ? m.someone : `${r.actorFirst} ${r.actorLast ?? ''}`.trim();
  const place = r.businessTitle;
  const kind = r.kind as NotificationKind;
  switch (kind) {
    case 'favoriteReview':
    case 'ownerReply':
      return m.text[kind](who, place);
    case 'reaction':
      return m.text.reaction(who, r.count, place);
    case 'reply':
    case 'threadReply':
      return m.text[kind](who, r.count, place);
    case 'hidden':
    case 'restored':
      return m.text[kind](place);
    case 'ownerReplyHidden':
    case 'ownerReplyRestored':
      return m.text[kind](place);
    case 'removed':
    case 'ownerReplyRemoved':
      return r.reason ? `${m.text[kind](place)}. ${m.reason(r.reason)}` : m.text[kind](place);
    case 'reportResolved':
      return r.reason === 'remove' ? m.text.reportRemoved(place) : m.text.reportDismissed(place);
    case 'suggestionApproved':
    case 'claimApproved':
      return m.text[kind](place);
    case 'suggestionRejected':
    case 'claimRejected':
      return r.reason ? `${m.text[kind](place)}. ${m.reason(r.reason)}` : m.text[kind](place);
  }
}

/** The entry's page in the reader's language (`?lang=`): the exact post, or the business, suggestions or profile page. */
export function entryLink(env: Env, lang: Language, r: Pick<Pending, 'kind' | 'commentId' | 'replyId' | 'businessId'>): string {
  const path = notificationPath(r);
  const hash = path.indexOf('#');
  const [page, fragment] = hash < 0 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${env.PUBLIC_URL}${page}?lang=${lang}${fragment}`;
}

function composeMail(env: Env, rows: Pending[], category: MailCategory, token: string, daily: boolean, siteName: string) {
  const first = rows[0];
  const lang = languageOf(first.language);
  const m = mailText[lang];
  const listed = rows.slice(0, MAIL_ITEMS_MAX);
  const stop = unsubscribeUrl(env, first.userId, category, token);
  const lines = [
    m.hello(first.firstName),
    '',
    ...(daily ? [m.digestIntro, ''] : []),
    ...listed.flatMap((r) => [sentence(lang, r), entryLink(env, lang, r), '']),
    ...(rows.length > listed.length ? [m.more(rows.length - listed.length), ''] : []),
    '—',
    m.why(m.categories[category], daily),
    m.settings,
    `${env.PUBLIC_URL}/user?lang=${lang}`,
    m.stop(m.categories[category]),
    stop,
  ];
  return {
    to: first.email,
    subject: daily
      ? inSiteName(m.digestSubject(rows.length), siteName)
      : first.commentId === null
        ? m.decisionSubject(first.businessTitle)
        : m.subject[category](first.businessTitle, siteName),
    text: lines.join('\n'),
    headers: { 'List-Unsubscribe': `<${stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * Turns waiting notifications into mails through the outbox (run every minute beside the
 * maintenance, services/ops/maintenance.ts): each in the recipient's language, per their choice of
 * its kind. Instant ones go out per thread, at most one mail per thread and user an hour (later
 * ones wait and go together); daily ones go in one digest per kind once a day; `off`, a banned or
 * demo recipient, someone who has never posted, or what the list would not show, get none. Returns
 * the number of mails queued.
 */
const mailQueueFull = new WeakMap<Db, boolean>();
/** Whether the mail job's last run read a whole batch: more rows may wait (the maintenance timer runs it again). */
export const mailQueueHasMore = (db: Db) => mailQueueFull.get(db) ?? false;

export function queueNotificationMails(deps: Deps, now = Date.now(), batch = MAIL_BATCH): number {
  const { db, env } = deps;
  const siteName = siteText(deps).name;
  // Queued replies and reactions become rows (notifications.ts), and new reviews of favourites
  // only once pulled (favorite-reviews.ts): for those who get mail of them, now.
  drainNotificationEvents(db);
  pullFavoriteReviewsForMail(db, now, DIGEST_EVERY_MS);
  const rows = pendingRows(db, now, batch);
  mailQueueFull.set(db, rows.length === batch);
  if (rows.length === 0) return 0;
  const stmts = mailJob(db);
  const postedCache = new Map<string, boolean>();
  const hasPosted = (userId: string) => {
    let known = postedCache.get(userId);
    if (known === undefined) {
      known =
        stmts.postedComment.get({ userId }) !== undefined ||
        stmts.postedReply.get({ userId }) !== undefined ||
        // A business's answer is a post of the owner who wrote it (owner_replies_user_idx).
        stmts.postedAnswer.get({ userId }) !== undefined;
      postedCache.set(userId, known);
    }
    return known;
  };
  // Each recipient's settings row as the rows read it (a null token: none yet), kept up to date
  // below as the run makes rows and starts digest clocks: no look-up per group.
  const settingsOf = new Map<string, { token: string | null; digestAt: number | null }>();
  for (const r of rows) if (!settingsOf.has(r.userId)) settingsOf.set(r.userId, { token: r.settingsToken, digestAt: r.digestAt });
  /** The recipient's settings; a missing row is made, with `digestAt` (a first daily item's clock). */
  const ensure = (userId: string, digestAt: number | null): { token: string; digestAt: number | null } => {
    const known = settingsOf.get(userId)!;
    if (known.token === null) {
      // Nothing else writes between the rows' read and here (one connection, no await).
      const token = newToken();
      stmts.newSettings.run({ userId, token, digestAt });
      Object.assign(known, { token, digestAt });
    }
    return { token: known.token!, digestAt: known.digestAt };
  };
  const passed: number[] = [];
  const instant = new Map<string, Pending[]>();
  const daily = new Map<string, Pending[]>();
  for (const r of rows) {
    const category = categoryOfKind[r.kind as NotificationKind];
    const choice = choicesOf(r)[category];
    // Demo accounts' addresses are made up: nothing is sent to them.
    if (choice === 'off' || r.banned || r.demo || r.shown === 0 || !hasPosted(r.userId)) {
      passed.push(r.id);
      continue;
    }
    const groups = choice === 'instant' ? instant : daily;
    // A notice without a thread (a decision on a suggestion or a claim) is a mail of its own.
    const key = choice === 'instant' ? `${r.userId} ${r.commentId ?? r.id} ${category}` : `${r.userId} ${category}`;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  let queued = 0;
  db.transaction((tx) => {
    const mailed: number[] = [...passed];
    // Rows whose mail went into the outbox (not those passed over).
    const sent: number[] = [];
    // Rows held back, by when they are due: they wait on the queue's index until then.
    const held = new Map<number, number[]>();
    const hold = (rows: Pending[], until: number) => {
      const ids = held.get(until) ?? [];
      ids.push(...rows.map((r) => r.id));
      held.set(until, ids);
    };
    for (const group of instant.values()) {
      const { userId, commentId } = group[0];
      const last = commentId === null ? undefined : stmts.threadMailedAt.get({ userId, commentId });
      if (last && last.at > now - THREAD_MAIL_EVERY_MS) {
        hold(group, last.at + THREAD_MAIL_EVERY_MS);
        continue;
      }
      const { token } = ensure(userId, null);
      enqueueMail(tx, composeMail(env, group, categoryOfKind[group[0].kind as NotificationKind], token, false, siteName), { now });
      if (commentId !== null) stmts.threadMailed.run({ userId, commentId, now });
      mailed.push(...group.map((r) => r.id));
      sent.push(...group.map((r) => r.id));
      queued++;
    }
    // Per user: 0 when the digest goes now, else when it is due.
    const digestDue = new Map<string, number>();
    for (const group of daily.values()) {
      const { userId } = group[0];
      let dueAt = digestDue.get(userId);
      if (dueAt === undefined) {
        // The first daily item starts the user's clock (a new row is made with it started); the
        // digest goes a day later.
        const at = ensure(userId, now).digestAt;
        const due = at !== null && at <= now - DIGEST_EVERY_MS;
        if (at === null || due) stmts.digestStarted.run({ userId, now });
        dueAt = due ? 0 : (at ?? now) + DIGEST_EVERY_MS;
        digestDue.set(userId, dueAt);
      }
      if (dueAt !== 0) {
        hold(group, dueAt);
        continue;
      }
      const { token } = ensure(userId, now);
      enqueueMail(tx, composeMail(env, group, categoryOfKind[group[0].kind as NotificationKind], token, true, siteName), { now });
      mailed.push(...group.map((r) => r.id));
      sent.push(...group.map((r) => r.id));
      queued++;
    }
    for (let i = 0; i < mailed.length; i += 200) {
      tx.update(notifications)
        .set({ mailedAt: now })
        .where(inArray(notifications.id, mailed.slice(i, i + 200)))
        .run();
    }
    // A thread's notice that went out by mail is settled as the mail told it and closed
    // (notifications.ts, openThread): the thread's next reply starts a notice of its own.
    for (let i = 0; i < sent.length; i += 200) {
      tx.update(notifications)
        .set({ ...settledThread, groupKey: null })
        .where(and(inArray(notifications.id, sent.slice(i, i + 200)), openThread))
        .run();
    }
    for (const [until, ids] of held) {
      for (let i = 0; i < ids.length; i += 200) {
        tx.update(notifications)
          .set({ mailDueAt: until })
          .where(inArray(notifications.id, ids.slice(i, i + 200)))
          .run();
      }
    }
  });
  if (queued > 0) void deps.outbox.deliverDue();
  return queued;
}
