import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a free local port for the account tests: mails arrive the way they
 * would at a user's provider, and tests read them with `lastMailTo`.
 */
export async function startSmtp(options: { port?: number } = {}) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Mails to `address` so far. */
    mailsTo: (address: string) => received.filter((m) => to(m).includes(address.toLowerCase())),
    /** The newest mail to `address` (await the app's `deps.outbox.deliverDue()` first). */
    lastMailTo(address: string): ParsedMail {
      const mails = received.filter((m) => to(m).includes(address.toLowerCase()));
      if (mails.length === 0) throw new Error(`no mail to ${address}`);
      return mails[mails.length - 1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

/** The link under `pathPrefix` in a mail's plain-text part, as a user would click it. */
export function linkFrom(mail: ParsedMail, pathPrefix: string): URL {
  const match = (mail.text ?? '').match(new RegExp(`https?://\\S*${pathPrefix.replace(/[/?]/g, '\\$&')}\\S*`));
  if (!match) throw new Error(`no ${pathPrefix} link in mail`);
  return new URL(match[0]);
}
