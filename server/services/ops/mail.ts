import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Env } from '../../env';

/**
 * A mail the SMTP server did not take, its text fit for the log, the database and the admin's
 * outbox page: no credentials, no addresses. `permanent`: the server refused it for good (a 5xx
 * answer such as 550 "no such user"), so trying again cannot help. A refused login (535) is not
 * permanent for the mail: the operator fixes SMTP_URL and the queue goes out.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const ADDRESS = /[^\s<>"'(),;:[\]@]+@[^\s<>"'(),;:[\]@]+\.[^\s<>"'(),;:[\]@]+/g;

/**
 * Text from or about an SMTP exchange with what it must not carry: the credentials in a URL,
 * what follows an AUTH command (a server may echo the login), each given secret (the SMTP user
 * and password, plain and base64) and every e-mail address.
 */
export function redactMailText(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/\/\/[^@/\s]*@/g, '//[redacted]@').replace(/\b(AUTH\s+[A-Z0-9-]+)\s+\S+/gi, '$1 [redacted]');
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('[redacted]');
  return out.replace(ADDRESS, '[address]');
}

/** The user name and password of SMTP_URL as they may appear in the server's answers. */
function smtpSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const plain = [b64(`\0${user}\0${password}`), b64(`${user}\0${user}\0${password}`)];
  // Longest first, so a password containing the user name goes whole.
  return [...plain, password, b64(password), user, b64(user)].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
}

/** nodemailer's error as a MailSendError: permanent for a 5xx answer other than a refused login. */
function smtpFailure(err: unknown, secrets: string[]): MailSendError {
  const { responseCode, code } = (err ?? {}) as { responseCode?: unknown; code?: unknown };
  const message = err instanceof Error ? err.message : String(err);
  const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
  const label = typeof code === 'string' ? `${code}: ` : '';
  return new MailSendError(redactMailText(`${label}${message}`, secrets), permanent);
}

/** `replyTo` lets a mail relayed for someone else (the contact form) be answered to them. */
export type Mail = { to: string; subject: string; text: string; html?: string; replyTo?: string; headers?: Record<string, string> };
export type Mailer = { send(mail: Mail): Promise<void> };
type Log = { info(obj: object, msg?: string): void };

/**
 * The transport the outbox worker (mail-outbox.ts) sends with: SMTP_URL when set. Without it every mail is written as an .eml file into
 * DATA_DIR/outbox and its links are logged, so a local install works with no mail server.
 */
export function createMailer(env: Env, outboxDir: string, log: Log): Mailer {
  // nodemailer loads with the first mail, not at start (it is one of the heaviest packages here).
  let transport: Promise<Transporter> | null = null;
  const transportOf = (options: Parameters<typeof import('nodemailer').createTransport>[0]) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
  if (env.SMTP_URL) {
    const url = env.SMTP_URL;
    const secrets = smtpSecrets(url);
    return {
      async send(mail) {
        // Bounded, so one unresponsive server cannot hold the outbox worker for minutes.
        const options = { url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };
        try {
          await (await transportOf(options)).sendMail({ from: env.MAIL_FROM, ...mail });
        } catch (err) {
          throw smtpFailure(err, secrets);
        }
      },
    };
  }
  return {
    async send(mail) {
      const outbox = await transportOf({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = (await outbox.sendMail({ from: env.MAIL_FROM, ...mail })) as { messageId: string; message: Buffer };
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await writeFile(file, info.message);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to outbox');
    },
  };
}
