import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../db/schema';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import { createMailer } from './mail';
import { createOutbox, GIVEN_UP_BODY, retryDelayMs } from './mail-outbox';

let t: TestContext;
let admin: TestUser;
const clock = Date.now();
const servers: SMTPServer[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createTestUser(t.db, { isAdmin: true });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await t.close();
});
beforeEach(() => {
  t.db.delete(mailOutbox).run();
});

/** A real SMTP server (smtp-server, as the other mail tests) that answers as `options` say. */
async function smtpServer(options: SMTPServerOptions): Promise<number> {
  const server = new SMTPServer({ disabledCommands: ['STARTTLS'], logger: false, ...options });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.server.address() as AddressInfo).port;
}

const refusing = (code: number, text: (to: string) => string) =>
  smtpServer({
    authOptional: true,
    onRcptTo(address, _session, callback) {
      callback(Object.assign(new Error(text(address.address)), { responseCode: code }));
    },
  });

type Line = { level: 'info' | 'error'; obj: Record<string, unknown>; msg?: string };

/** An outbox sending through `smtpUrl` whose log lines are kept. */
function outboxFor(smtpUrl: string) {
  const lines: Line[] = [];
  const log = {
    info: (obj: object, msg?: string) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    error: (obj: object, msg?: string) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  const env = { ...t.deps.env, SMTP_URL: smtpUrl };
  const outbox = createOutbox(t.db, createMailer(env, t.deps.paths.outbox, log), log, { now: () => clock, pollMs: null });
  return { outbox, lines };
}

const mail = { to: 'Glomsk.Person@example.se', subject: 'Välj ett nytt lösenord', text: 'https://x.example/reset-password?token=abc' };

/** Issue 26 (9): permanent failures, a line per sent mail, and SMTP text without secrets or addresses. */
describe('mail the SMTP server refuses', { timeout: 30_000 }, () => {
  it('gives a mail up at the first 550 and shows it to admins as given up, without the address in the error', async () => {
    const port = await refusing(550, (to) => `5.1.1 <${to}>: Recipient address rejected: User unknown`);
    const { outbox, lines } = outboxFor(`smtp://127.0.0.1:${port}`);
    outbox.enqueue(mail);
    await outbox.deliverDue();
    outbox.stop();

    const row = t.db.select().from(mailOutbox).get();
    expect(row).toMatchObject({ attempts: 1, failedAt: clock, textBody: GIVEN_UP_BODY, htmlBody: null });
    expect(row?.lastError).toMatch(/^Refused: .*550/);
    expect(row?.lastError).toContain('[address]');
    expect(row?.lastError?.toLowerCase()).not.toContain('glomsk');
    expect(lines).toEqual([expect.objectContaining({ level: 'error', msg: 'mail given up: the mail server refused it' })]);
    expect(JSON.stringify(lines).toLowerCase()).not.toContain('glomsk');

    const report = (await t.app.inject({ method: 'GET', url: '/api/mail-outbox', headers: bearer(admin) })).json<{
      failed: number;
      failing: { attempts: number; nextAttemptAt: number | null; lastError: string }[];
    }>();
    expect(report.failed).toBe(1);
    expect(report.failing).toEqual([expect.objectContaining({ attempts: 1, nextAttemptAt: null, lastError: row?.lastError })]);
  });

  it('retries a temporary refusal (451) as before', async () => {
    const port = await refusing(451, () => '4.7.1 Try again later');
    const { outbox, lines } = outboxFor(`smtp://127.0.0.1:${port}`);
    outbox.enqueue(mail);
    await outbox.deliverDue();
    outbox.stop();
    const row = t.db.select().from(mailOutbox).get();
    expect(row).toMatchObject({ attempts: 1, failedAt: null, nextAttemptAt: clock + retryDelayMs(1), textBody: mail.text });
    expect(row?.lastError).toMatch(/451/);
    expect(row?.lastError).not.toMatch(/^Refused/);
    expect(lines.map((l) => l.msg)).toEqual(['mail not sent, will retry']);
  });

  it('keeps the SMTP login out of the error when the server echoes it, and retries (535 is not the mail’s fault)', async () => {
    const port = await smtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        const plain = Buffer.from(`\0${auth.username}\0${auth.password}`).toString('base64');
        callback(Object.assign(new Error(`Authentication failed for ${auth.username} / ${auth.password} (AUTH PLAIN ${plain})`), { responseCode: 535 }));
      },
    });
    const { outbox, lines } = outboxFor(`smtp://mailer%40example.se:hemligt-losen@127.0.0.1:${port}`);
    outbox.enqueue(mail);
    await outbox.deliverDue();
    outbox.stop();
    const row = t.db.select().from(mailOutbox).get();
    expect(row).toMatchObject({ attempts: 1, failedAt: null });
    expect(row?.lastError).toMatch(/535/);
    const everything = JSON.stringify([row, lines]);
    for (const secret of [
      'hemligt',
      Buffer.from('hemligt-losen').toString('base64'),
      Buffer.from('\0mailer@example.se\0hemligt-losen').toString('base64'),
      'mailer@example.se',
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('logs one line per mail sent, naming neither the address nor the subject', async () => {
    const port = await smtpServer({ authOptional: true });
    const { outbox, lines } = outboxFor(`smtp://127.0.0.1:${port}`);
    const id = outbox.enqueue(mail);
    await outbox.deliverDue();
    outbox.stop();
    expect(t.db.select().from(mailOutbox).all()).toEqual([]);
    expect(lines).toEqual([{ level: 'info', obj: { mailId: id, attempts: 1, queuedMs: 0 }, msg: 'mail sent' }]);
  });
});
