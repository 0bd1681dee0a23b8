import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { contactMessages } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import {
  CONTACT_INBOX_PAGE,
  type ContactInboxInput,
  type ContactInboxPage,
  type ContactMessage,
  type ContactReadInput,
} from '../../../shared/schemas/contact-inbox';
import { requireAdmin, type Actor } from '../actor';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { filledHoneypot, type ContactInput, type Language } from '../../../shared/schemas/common';

export type ContactMeta = {
  ip: string;
  /** The sender's interface language, so whoever answers knows which language to reply in. */
  language: Language;
};

export type ContactResult = { id: string; queued: boolean };

/** The plain-text mail the site's operator receives; labels in both site languages. */
function contactMail(input: ContactInput, language: Language, sentAt: Date) {
  // A name is one line in a subject; collapsing whitespace keeps a pasted newline harmless.
  const name = input.from_name.replace(/\s+/g, ' ');
  return {
    subject: `Recensera – kontaktformulär / contact form: ${name}`,
    text: [
      'Nytt meddelande från kontaktformuläret / New message from the contact form',
      '',
      `Namn / Name: ${name}`,
      `E-post / E-mail: ${input.user_email}`,
      `Språk / Language: ${language}`,
      `Skickat / Sent: ${sentAt.toISOString()}`,
      '',
      'Meddelande / Message:',
      input.message,
      '',
    ].join('\n'),
  };
}

/**
 * Stores a contact message and, when CONTACT_EMAIL is set, queues it for mailing there with
 * Reply-To the sender, in one transaction. The stored row is the record; the outbox sets its
 * mailed_at once the mail is sent, and a mail server that is slow or down never fails the sender.
 * A message whose hidden spam trap (`website`) is filled is answered the same and dropped.
 */
export async function sendContactMessage(deps: Deps, input: ContactInput, meta: ContactMeta): Promise<ContactResult> {
  await deps.limits.consume('contact', meta.ip, input.user_email);
  // The spam trap was filled: the usual reply, nothing stored or mailed.
  if (filledHoneypot(input)) return { id: newId(), queued: Boolean(deps.env.CONTACT_EMAIL) };

  const id = newId();
  const now = new Date();
  const to = deps.env.CONTACT_EMAIL;
  deps.db.transaction((tx) => {
    tx.insert(contactMessages)
      .values({
        id,
        fromName: input.from_name,
        userEmail: input.user_email,
        message: input.message,
        language: meta.language,
        createdAt: now.getTime(),
      })
      .run();
    if (to) deps.outbox.enqueue({ to, replyTo: input.user_email, ...contactMail(input, meta.language, now) }, { db: tx, contactMessageId: id });
  });
  return { id, queued: Boolean(to) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toContactMessage(row: typeof contactMessages.$inferSelect): ContactMessage {
  return {
    _id: row.id,
    fromName: row.fromName,
    email: row.userEmail,
    message: row.message,
    language: row.language === 'en' ? 'en' : 'sv',
    date: new Date(row.createdAt).toISOString(),
    mailedAt: iso(row.mailedAt),
    readAt: iso(row.readAt),
  };
}

/** How many stored contact messages nobody has marked read (a walk of the partial unread index). */
export function unreadContactCount(db: DbOrTx): number {
  return db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)).get()?.n ?? 0;
}

/**
 * The admins' contact inbox (issue 29, item 12): stored messages newest first, a page at a time,
 * `unread` narrowing to those not marked read; with the unread count. Pages walk
 * contact_messages_created_at_idx (or the unread partial index) and stop at the limit.
 */
export function listContactMessages(deps: Deps, actor: Actor, input: ContactInboxInput = {}): ContactInboxPage {
  requireAdmin(actor);
  const limit = input.limit ?? CONTACT_INBOX_PAGE;
  const cursor = decodeCursor(input.cursor, 'number');
  const rowid = sql<number>`${contactMessages}.rowid`;
  const rows = deps.db
    .select({ row: contactMessages, rowid })
    .from(contactMessages)
    .where(
      and(
        input.unread ? isNull(contactMessages.readAt) : undefined,
        cursor ? sql`(${contactMessages.createdAt}, ${rowid}) < (${cursor.t}, ${cursor.k})` : undefined,
      ),
    )
    .orderBy(desc(contactMessages.createdAt), desc(rowid))
    .limit(limit + 1)
    .all();
  const page = pageOf(
    rows,
    limit,
    (r) => [r.row.createdAt, r.rowid],
    (r) => toContactMessage(r.row),
  );
  return { ...page, unread: unreadContactCount(deps.db) };
}

/** Marks one contact message read or unread again (admins). */
export async function setContactMessageRead(deps: Deps, actor: Actor, input: ContactReadInput): Promise<ContactMessage> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  const row = deps.db
    .update(contactMessages)
    .set({ readAt: input.read ? sql`coalesce(${contactMessages.readAt}, ${Date.now()})` : null })
    .where(eq(contactMessages.id, input.id))
    .returning()
    .get();
  if (!row) throw new AppError('NOT_FOUND', 'notFound');
  return toContactMessage(row);
}
