import { eq } from 'drizzle-orm';
import { contactMessages } from '../../db/schema';
import type { Deps } from '../deps';
import { newId } from '../lib/ids';
import type { ContactInput, Language } from '../schemas/common';
import { consumeLimit } from './rate-limits';

type Log = { error(obj: object, msg?: string): void };

export type ContactMeta = {
  ip: string;
  /** The sender's interface language, so whoever answers knows which language to reply in. */
  language: Language;
  log: Log;
};

export type ContactResult = { id: string; mailed: boolean };

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
 * Stores a contact message and, when CONTACT_EMAIL is set, mails it there with Reply-To the
 * sender. The stored row is the record: a mail failure is logged and leaves mailed_at null
 * (an operator can still read the message in the database) rather than failing the sender.
 */
export async function sendContactMessage(deps: Deps, input: ContactInput, meta: ContactMeta): Promise<ContactResult> {
  await consumeLimit('contact', meta.ip, input.user_email);

  const id = newId();
  const now = new Date();
  deps.db
    .insert(contactMessages)
    .values({
      id,
      fromName: input.from_name,
      userEmail: input.user_email,
      message: input.message,
      language: meta.language,
      createdAt: now.getTime(),
    })
    .run();

  const to = deps.env.CONTACT_EMAIL;
  if (!to) return { id, mailed: false };
  try {
    await deps.mailer.send({ to, replyTo: input.user_email, ...contactMail(input, meta.language, now) });
  } catch (err) {
    meta.log.error({ err, contactMessageId: id }, 'contact message stored but not mailed');
    return { id, mailed: false };
  }
  deps.db.update(contactMessages).set({ mailedAt: Date.now() }).where(eq(contactMessages.id, id)).run();
  return { id, mailed: true };
}
