import { contactMessages } from '../../db/schema';
import type { Deps } from '../deps';
import { newId } from '../lib/ids';
import { filledHoneypot, type ContactInput, type Language } from '../schemas/common';

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
