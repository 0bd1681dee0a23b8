import type { AddressInfo } from 'node:net';
import { desc } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, mailOutbox } from '../../../db/schema';
import { callerFor, createTestApp, type TestContext } from '../../test/helpers';

const CONTACT_EMAIL = 'kontakt@recensera.example';

type Received = { mail: ParsedMail; rcptTo: string[] };

/** A real SMTP server on a free port; `reject` makes it refuse every message after DATA for now (451: a temporary refusal, retried). */
async function startSmtp(options: { reject?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (options.reject) return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          received.push({ mail, rcptTo: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const valid = (n = 1) => ({
  from_name: 'Åsa Öberg',
  user_email: `asa.${n}@example.se`,
  message: `Hej! Öppettiderna för ICA Kvantum i Västerås stämmer inte (meddelande ${n}).`,
});

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestContext;

const rows = (ctx: TestContext = t) => ctx.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).all();

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, CONTACT_EMAIL } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  t.deps.limits.reset();
  // Mails queued by the test before go out now, not into this test's inbox.
  await t.deps.outbox.deliverDue();
  smtp.received.length = 0;
  t.db.delete(contactMessages).run();
});

describe('POST /api/contact', () => {
  it('stores the message and mails it to CONTACT_EMAIL with Reply-To the sender', async () => {
    const input = valid();
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: input, cookies: { lang: 'en' } });

    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Message was sent successfully' });
    await t.deps.outbox.deliverDue();

    const [row, ...others] = rows();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ fromName: input.from_name, userEmail: input.user_email, message: input.message, language: 'en' });
    expect(row.mailedAt).toEqual(expect.any(Number));

    expect(smtp.received).toHaveLength(1);
    const { mail, rcptTo } = smtp.received[0];
    expect(rcptTo).toEqual([CONTACT_EMAIL]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([CONTACT_EMAIL]);
    expect(mail.subject).toBe('Recensera – kontaktformulär / contact form: Åsa Öberg');
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual([input.user_email]);
    expect(mail.text).toContain(input.message);
    expect(mail.text).toContain(`Namn / Name: ${input.from_name}`);
    expect(mail.text).toContain(`E-post / E-mail: ${input.user_email}`);
    expect(mail.html).toBe(false);
  });

  it('trims the fields and records Swedish when no language cookie is sent', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { from_name: '  Nils  ', user_email: ' nils@example.se ', message: '\n Hej \n' },
    });
    expect(res.statusCode).toBe(201);
    expect(rows()[0]).toMatchObject({ fromName: 'Nils', userEmail: 'nils@example.se', message: 'Hej', language: 'sv' });
  });

  it('refuses invalid input with 400 and field errors, storing and mailing nothing', async () => {
    const cases = [
      {
        payload: { from_name: '', user_email: 'not-an-email', message: '   ' },
        errors: { from_name: 'Please enter your name', user_email: 'Invalid Email', message: 'Please write a message' },
      },
      { payload: {}, errors: { from_name: 'Please enter your name', user_email: 'Please enter your email', message: 'Please write a message' } },
      { payload: { ...valid(), message: 'x'.repeat(5001) }, errors: { message: 'Too long!' } },
      { payload: { ...valid(), from_name: 42 }, errors: { from_name: 'Please enter your name' } },
    ];
    for (const { payload, errors } of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Invalid input.', errors });
    }
    await t.deps.outbox.deliverDue();
    expect(rows()).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('answers 400, never 500, for a body that is not a JSON object', async () => {
    for (const [payload, type] of [
      ['{"from_name":', 'application/json'],
      ['[1,2,3]', 'application/json'],
      ['from_name=a', 'text/plain'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload, headers: { 'content-type': type } });
      expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload).toBeLessThan(500);
    }
    expect(rows()).toEqual([]);
  });

  it('answers 429 to the sixth message in a minute from one IP address', async () => {
    for (let n = 1; n <= 5; n++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid(n), remoteAddress: '203.0.113.7' });
      expect(res.statusCode).toBe(201);
    }
    const sixth = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid(6), remoteAddress: '203.0.113.7' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ message: 'Too many requests. Please wait a moment and try again.' });
    expect(rows()).toHaveLength(5);

    const otherIp = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid(7), remoteAddress: '203.0.113.8' });
    expect(otherIp.statusCode).toBe(201);
  });

  it('answers 429 to the sixth message in a minute from one e-mail address, whatever the IP', async () => {
    for (let n = 1; n <= 5; n++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid(1), remoteAddress: `198.51.100.${n}` });
      expect(res.statusCode).toBe(201);
    }
    const sixth = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...valid(1), user_email: 'ASA.1@example.se' },
      remoteAddress: '198.51.100.6',
    });
    expect(sixth.statusCode).toBe(429);
    expect(rows()).toHaveLength(5);
  });
});

describe('API documentation', () => {
  it('lists POST /api/contact with its body fields under the site tag', async () => {
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    const operation = docs.paths['/api/contact']?.post;
    expect(operation?.tags).toEqual(['site']);
    const schema = operation?.requestBody?.content?.['application/json']?.schema;
    expect(schema?.required).toEqual(['from_name', 'user_email', 'message']);
    expect(Object.keys(operation?.responses ?? {})).toContain('201');
  });
});

describe('tRPC site.contact', () => {
  it('stores and mails the message, taking the language from the lang cookie', async () => {
    const input = valid();
    const res = await t.app.inject({ method: 'POST', url: '/trpc/site.contact', payload: input, cookies: { lang: 'en' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: { data: { ok: true } } });
    await t.deps.outbox.deliverDue();
    expect(rows()[0]).toMatchObject({ userEmail: input.user_email, language: 'en', mailedAt: expect.any(Number) });
    expect(smtp.received.map((r) => r.mail.replyTo?.text)).toEqual([input.user_email]);
  });

  it('refuses invalid input with BAD_REQUEST and field keys the client translates', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/trpc/site.contact', payload: { from_name: ' ', user_email: 'x@', message: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data).toMatchObject({
      code: 'BAD_REQUEST',
      key: 'invalidInput',
      fields: { from_name: 'contactNameRequired', user_email: 'invalidEmail', message: 'contactMessageRequired' },
    });
    expect(rows()).toEqual([]);
  });

  it('records Swedish for an unknown language cookie or a call without a request', async () => {
    await t.app.inject({ method: 'POST', url: '/trpc/site.contact', payload: valid(1), cookies: { lang: 'de' } });
    await callerFor(t.deps, null).site.contact(valid(2));
    expect(rows().map((r) => r.language)).toEqual(['sv', 'sv']);
  });

  it('answers TOO_MANY_REQUESTS to the sixth message from one IP address', async () => {
    for (let n = 1; n <= 5; n++) {
      const res = await t.app.inject({ method: 'POST', url: '/trpc/site.contact', payload: valid(n), remoteAddress: '203.0.113.9' });
      expect(res.statusCode).toBe(200);
    }
    const sixth = await t.app.inject({ method: 'POST', url: '/trpc/site.contact', payload: valid(6), remoteAddress: '203.0.113.9' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', key: 'tooManyRequests' });
  });
});

describe('without CONTACT_EMAIL', () => {
  it('stores the message and mails nothing', async () => {
    const other = await createTestApp({ env: { SMTP_URL: smtp.url } });
    try {
      const res = await other.app.inject({ method: 'POST', url: '/api/contact', payload: valid() });
      expect(res.statusCode).toBe(201);
      await other.deps.outbox.deliverDue();
      expect(rows(other)).toEqual([expect.objectContaining({ userEmail: valid().user_email, mailedAt: null })]);
      expect(other.db.select().from(mailOutbox).all()).toEqual([]);
      expect(smtp.received).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('when the mail server refuses the message', () => {
  it('keeps the stored message, leaves mailed_at empty, still answers 201 and keeps the mail queued for a retry', async () => {
    const refusing = await startSmtp({ reject: true });
    const other = await createTestApp({ env: { SMTP_URL: refusing.url, CONTACT_EMAIL } });
    try {
      const res = await other.app.inject({ method: 'POST', url: '/api/contact', payload: valid() });
      expect(res.statusCode).toBe(201);
      await other.deps.outbox.deliverDue();
      const [stored] = rows(other);
      expect(stored).toMatchObject({ message: valid().message, mailedAt: null });
      expect(refusing.received).toEqual([]);
      expect(other.db.select().from(mailOutbox).all()).toEqual([
        expect.objectContaining({ contactMessageId: stored.id, toAddress: CONTACT_EMAIL, attempts: 1, lastError: expect.stringMatching(/\S/), failedAt: null }),
      ]);
    } finally {
      await other.close();
      await refusing.close();
    }
  });
});
