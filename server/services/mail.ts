import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Env } from '../env';

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
    return {
      async send(mail) {
        // Bounded, so one unresponsive server cannot hold the outbox worker for minutes.
        const options = { url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };
        await (await transportOf(options)).sendMail({ from: env.MAIL_FROM, ...mail });
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
