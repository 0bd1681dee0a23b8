import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { emailTokens } from '../../../db/schema';
import type { Env } from '../../env';
import { newId } from '../../lib/ids';
import type { Language } from '../../../shared/schemas/common';
import type { Mail } from '../ops/mail';
import type { DbOrTx } from '../../../db/client';
import { DEFAULT_SITE_TEXT, inSiteName } from '../../../shared/schemas/site-settings';

export type EmailTokenKind = 'confirm' | 'reset';
export type EmailTokenRow = typeof emailTokens.$inferSelect;

/** What a confirmation link activates: the credentials of the registration that issued it. */
export type PendingCredentials = { passwordHash: string | null; firstName: string; lastName: string; language: Language; imageId: string | null };

/** docs/product.md §3: a confirmation link lives 24 hours, a password-reset link one hour. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenKind, number> = {
  confirm: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

export const hashEmailToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Registration links of one unconfirmed address kept valid at once (the newest): as many as
 * the address's confirmation mails in an hour from all networks, so strangers cannot push the
 * owner's link out within the hour without using up the mails that would carry theirs.
 */
const KEPT_REGISTRATION_LINKS = 20;

/** A confirmation link from a registration carries a password; one from "resend" does not. */
const registrationLinks = (userId: string) => and(eq(emailTokens.userId, userId), eq(emailTokens.kind, 'confirm'), isNotNull(emailTokens.pendingPasswordHash));

/**
 * Creates a single-use token for a mailed link and returns it; only its SHA-256 is stored. A new
 * reset link replaces the earlier ones. Confirmation links replace only their own sort: each
 * registration's link stays valid beside the others (the newest few), so a stranger who
 * registers the address again cannot cancel the owner's link, and a resend's link (no password)
 * replaces only earlier resends' links, so a stranger's resend cannot cancel it either (issue
 * 27). Synchronous, so it can run inside the transaction that creates the user.
 */
export function issueEmailToken(db: DbOrTx, userId: string, kind: EmailTokenKind, now = Date.now(), pending?: PendingCredentials): string {
  const token = randomBytes(32).toString('base64url');
  if (kind === 'reset')
    db.delete(emailTokens)
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind)))
      .run();
  else if (!pending?.passwordHash)
    db.delete(emailTokens)
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, 'confirm'), isNull(emailTokens.pendingPasswordHash)))
      .run();
  else {
    const older = db
      .select({ id: emailTokens.id })
      .from(emailTokens)
      .where(registrationLinks(userId))
      .orderBy(desc(emailTokens.createdAt))
      .offset(KEPT_REGISTRATION_LINKS - 1)
      .limit(100)
      .all();
    for (const { id } of older) db.delete(emailTokens).where(eq(emailTokens.id, id)).run();
  }
  db.insert(emailTokens)
    .values({
      id: newId(),
      userId,
      kind,
      tokenHash: hashEmailToken(token),
      createdAt: now,
      expiresAt: now + EMAIL_TOKEN_TTL_MS[kind],
      ...(pending && {
        pendingPasswordHash: pending.passwordHash,
        pendingFirstName: pending.firstName,
        pendingLastName: pending.lastName,
        pendingLanguage: pending.language,
        pendingImageId: pending.imageId,
      }),
    })
    .run();
  return token;
}

/**
 * How many registrations' links an address holds (used, expired or not): more than one means
 * someone else may have registered it too, so a link activates its password only for a person
 * who knows that password (see confirmEmail).
 */
export function registrationLinkCount(db: DbOrTx, userId: string): number {
  return db.select({ n: count() }).from(emailTokens).where(registrationLinks(userId)).get()?.n ?? 0;
}

export function findEmailToken(db: DbOrTx, token: string, kind: EmailTokenKind): EmailTokenRow | null {
  return (
    db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashEmailToken(token)), eq(emailTokens.kind, kind)))
      .get() ?? null
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

type MailText = { subject: string; greeting: (name: string) => string; lead: string; action: string; validity: string; ignore: string; signature: string };

const texts: Record<EmailTokenKind, Record<Language, MailText>> = {
  confirm: {
    sv: {
      subject: 'Bekräfta din e-postadress – Recensera',
      greeting: (name) => `Hej ${name}!`,
      lead: 'Tack för att du registrerade dig på Recensera. Bekräfta din e-postadress genom att öppna länken nedan:',
      action: 'Bekräfta e-postadressen',
      validity: 'Länken gäller i 24 timmar och kan bara användas en gång.',
      ignore: 'Om du inte har skapat något konto kan du bortse från det här meddelandet.',
      signature: 'Hälsningar,\nRecensera',
    },
    en: {
      subject: 'Confirm your email address – Recensera',
      greeting: (name) => `Hi ${name}!`,
      lead: 'Thank you for registering at Recensera. Please confirm your email address by opening the link below:',
      action: 'Confirm email address',
      validity: 'The link is valid for 24 hours and can be used once.',
      ignore: 'If you did not create an account, you can ignore this message.',
      signature: 'Best regards,\nRecensera',
    },
  },
  reset: {
    sv: {
      subject: 'Välj ett nytt lösenord – Recensera',
      greeting: (name) => `Hej ${name}!`,
      lead: 'Någon (förhoppningsvis du) bad om att få byta lösenordet till ditt konto på Recensera. Välj ett nytt lösenord via länken nedan:',
      action: 'Välj nytt lösenord',
      validity: 'Länken gäller i en timme och kan bara användas en gång. När lösenordet är bytt loggas du ut överallt.',
      ignore: 'Om du inte bad om detta kan du bortse från meddelandet; ditt lösenord är oförändrat.',
      signature: 'Hälsningar,\nRecensera',
    },
    en: {
      subject: 'Choose a new password – Recensera',
      greeting: (name) => `Hi ${name}!`,
      lead: 'Someone (hopefully you) asked to change the password of your Recensera account. Choose a new password with the link below:',
      action: 'Choose a new password',
      validity: 'The link is valid for one hour and can be used once. Changing the password logs you out everywhere.',
      ignore: 'If you did not ask for this, you can ignore this message; your password stays the same.',
      signature: 'Best regards,\nRecensera',
    },
  },
};

const linkPath: Record<EmailTokenKind, string> = { confirm: '/users/confirm-email', reset: '/reset-password' };

/** The mail carrying a confirmation or reset link, in the user's language, plain text first. */
/** `siteName`: the site's name an admin set (services/site/site-settings.ts), in the subject, the text and the signature. */
export function accountMail(
  env: Env,
  kind: EmailTokenKind,
  to: { email: string; firstName: string; language: Language },
  token: string,
  siteName: string = DEFAULT_SITE_TEXT.name,
): Mail {
  const release = texts[kind][to.language];
  const t = {
    ...release,
    subject: inSiteName(release.subject, siteName),
    lead: inSiteName(release.lead, siteName),
    signature: inSiteName(release.signature, siteName),
  };
  const link = `${env.PUBLIC_URL}${linkPath[kind]}?token=${encodeURIComponent(token)}`;
  const name = to.firstName.replace(/\s+/g, ' ').trim();
  const text = [t.greeting(name), '', t.lead, '', link, '', t.validity, t.ignore, '', t.signature, ''].join('\n');
  const html = [
    `<p>${escapeHtml(t.greeting(name))}</p>`,
    `<p>${escapeHtml(t.lead)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t.action)}</a></p>`,
    `<p>${escapeHtml(link)}</p>`,
    `<p>${escapeHtml(t.validity)} ${escapeHtml(t.ignore)}</p>`,
    `<p>${escapeHtml(t.signature).replace('\n', '<br>')}</p>`,
  ].join('\n');
  return { to: to.email, subject: t.subject, text, html };
}
