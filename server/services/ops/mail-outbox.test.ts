import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../db/schema';
import { bearer, callerFor, createTestApp, createTestUser, freePort, type TestContext, type TestUser } from '../../test/helpers';
import { linkFrom, startSmtp } from '../../test/accounts-testing';
import { createMailer } from './mail';
import { createOutbox, GIVEN_UP_BODY, MAIL_MAX_ATTEMPTS, retryDelayMs } from './mail-outbox';

const silent = { info() {}, error() {} };

let clock = Date.now();
const now = () => clock;
let port: number;
let t: TestContext;
let user: TestUser;
let admin: TestUser;

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, now });
  user = await createTestUser(t.db, { email: 'glomsk@example.se' });
  admin = await createTestUser(t.db, { isAdmin: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.deps.limits.reset();
  t.db.delete(mailOutbox).run();
});

const forgot = (email: string) => t.app.inject({ method: 'POST', url: '/trpc/users.forgotPassword', payload: { email } });

describe('the mail outbox', () => {
  it('answers forgot-password at once while the mail server is down, and sends the mail when it is back', async () => {
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    await t.deps.outbox.deliverDue();
    const [queued] = t.db.select().from(mailOutbox).all();
    expect(queued).toMatchObject({ toAddress: user.email, attempts: 1, failedAt: null, nextAttemptAt: clock + retryDelayMs(1) });
    expect(queued.lastError).toMatch(/ECONNREFUSED/);

    // The server comes up on the configured port; nothing is sent before the retry is due.
    const smtp = await startSmtp({ port });
    try {
      await t.deps.outbox.deliverDue();
      expect(smtp.received).toEqual([]);
      clock += retryDelayMs(1);
      await t.deps.outbox.deliverDue();
      const link = linkFrom(smtp.lastMailTo(user.email), '/reset-password');
      expect(link.searchParams.get('token')).toMatch(/^[\w-]{40,}$/);
      // A sent mail is deleted: its body held a reset link.
      expect(t.db.select().from(mailOutbox).all()).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it('answers forgot-password at once when the mail server accepts the connection and never speaks', async () => {
    const sockets = new Set<net.Socket>();
    const silentServer = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    const other = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${(silentServer.address() as AddressInfo).port}` } });
    try {
      const otherUser = await createTestUser(other.db);
      const started = performance.now();
      const res = await other.app.inject({ method: 'POST', url: '/trpc/users.forgotPassword', payload: { email: otherUser.email } });
      const ms = performance.now() - started;
      expect(res.statusCode).toBe(200);
      // Before the outbox the request waited for the server's greeting (30 s by default).
      expect(ms).toBeLessThan(1_000);
      expect(other.db.select().from(mailOutbox).all()).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await other.close();
      silentServer.close();
    }
  });

  it('keeps queued mails across a restart: a new worker on the same database sends them', async () => {
    expect((await forgot(user.email)).statusCode).toBe(200);
    t.deps.outbox.stop();
    await t.deps.outbox.deliverDue();
    expect(t.db.select().from(mailOutbox).all()).toHaveLength(1);

    const smtp = await startSmtp();
    const restarted = createOutbox(t.db, createMailer({ ...t.deps.env, SMTP_URL: smtp.url }, t.deps.paths.outbox, silent), silent, { now, pollMs: null });
    try {
      await restarted.deliverDue();
      expect(smtp.mailsTo(user.email)).toHaveLength(1);
      expect(t.db.select().from(mailOutbox).all()).toEqual([]);
    } finally {
      restarted.stop();
      await smtp.close();
      t.deps.outbox = createOutbox(t.db, createMailer(t.deps.env, t.deps.paths.outbox, silent), silent, { now, pollMs: null });
    }
  });

  it(`gives a mail up after ${MAIL_MAX_ATTEMPTS} attempts with growing gaps, and shows admins what fails (REST and tRPC)`, async () => {
    expect((await forgot(user.email)).statusCode).toBe(200);
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      await t.deps.outbox.deliverDue();
      const row = t.db.select().from(mailOutbox).get();
      expect(row?.attempts).toBe(attempt);
      gaps.push((row?.nextAttemptAt ?? 0) - clock);
      clock = row?.nextAttemptAt ?? clock;
    }
    expect(gaps.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...gaps)).toBe(6 * 60 * 60 * 1000);
    const given = t.db.select().from(mailOutbox).get();
    expect(given?.failedAt).toEqual(expect.any(Number));
    // Given up: no further attempt, however much time passes.
    clock += 24 * 60 * 60 * 1000;
    await t.deps.outbox.deliverDue();
    expect(t.db.select().from(mailOutbox).get()?.attempts).toBe(MAIL_MAX_ATTEMPTS);

    const rest = await t.app.inject({ method: 'GET', url: '/api/mail-outbox', headers: bearer(admin) });
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['cache-control']).toBe('private, no-store');
    const report = rest.json();
    expect(report).toMatchObject({ waiting: 0, failed: 1 });
    // The given-up mail's body (its reset link) is not kept.
    expect(t.db.select().from(mailOutbox).get()).toMatchObject({ textBody: GIVEN_UP_BODY, htmlBody: null });
    expect(report.failing).toEqual([
      expect.objectContaining({ to: user.email, subject: 'Välj ett nytt lösenord – Recensera', attempts: MAIL_MAX_ATTEMPTS, nextAttemptAt: null }),
    ]);
    // Never the body: it holds the reset link.
    expect(JSON.stringify(report)).not.toMatch(/token|reset-password/);
    expect(await callerFor(t.deps, admin).site.mailOutbox()).toEqual(report);

    expect((await t.app.inject({ method: 'GET', url: '/api/mail-outbox', headers: bearer(user) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/mail-outbox' })).statusCode).toBe(401);
    await expect(callerFor(t.deps, user).site.mailOutbox()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('never writes the SMTP password into the recorded error', async () => {
    const other = await createTestApp({ env: { SMTP_URL: `smtp://mailer:hemligt-losen@127.0.0.1:${port}` } });
    try {
      other.deps.outbox.enqueue({ to: 'a@example.se', subject: 'x', text: 'y' });
      await other.deps.outbox.deliverDue();
      expect(other.db.select().from(mailOutbox).get()?.lastError).not.toContain('hemligt');
    } finally {
      await other.close();
    }
  });
});
