import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, images, mailOutbox, users } from '../../../db/schema';
import { callerFor, createTestApp, pngForm, type TestContext } from '../../test/helpers';
import { startSmtp, type TestSmtp } from '../../test/accounts-testing';

const CONTACT_EMAIL = 'kontakt@recensera.example';

let smtp: TestSmtp;
let t: TestContext;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, CONTACT_EMAIL } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => t.deps.limits.reset());

const registration = (email: string, extra: Record<string, string> = {}) => ({
  firstName: 'Robot',
  lastName: 'Robotsson',
  email,
  password: 'Secret-pass-123',
  confirmPassword: 'Secret-pass-123',
  ...extra,
});
const contact = (n: number, extra: Record<string, string> = {}) => ({
  from_name: 'Robot',
  user_email: `robot.${n}@example.se`,
  message: `Köp billiga klockor (meddelande ${n})`,
  ...extra,
});
const userRow = (email: string) => t.db.select().from(users).where(eq(users.email, email)).get();

describe('the hidden spam trap (honeypot) on registration', () => {
  it('REST, multipart: a filled trap gets the reply of a new account, and no account, avatar or mail exists', async () => {
    const email = 'robot-multipart@example.se';
    const form = await pngForm(registration(email, { website: 'https://billiga-klockor.example' }), { image: Buffer.from('not even a picture') });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/register', ...form });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('You registered successfully! Please check your email and confirm your registration to complete the process.');
    expect(body.user).toMatchObject({ email, firstName: 'Robot', emailConfirmed: false, isAdmin: false });
    expect(userRow(email)).toBeUndefined();
    expect(t.db.select().from(images).all()).toEqual([]);
    expect(t.db.select().from(mailOutbox).all()).toEqual([]);
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo(email)).toEqual([]);
  });

  it('REST, JSON: the same; an empty trap (what people send) registers as usual and mails the link', async () => {
    const trapped = await t.app.inject({ method: 'POST', url: '/api/users/register', payload: registration('robot-json@example.se', { website: 'x' }) });
    expect(trapped.statusCode).toBe(201);
    expect(userRow('robot-json@example.se')).toBeUndefined();
    // Only blanks is not filled: nobody typed anything.
    const person = await t.app.inject({ method: 'POST', url: '/api/users/register', payload: registration('person@example.se', { website: '  ' }) });
    expect(person.statusCode).toBe(201);
    expect(userRow('person@example.se')).toMatchObject({ emailConfirmed: false });
    await t.deps.outbox.deliverDue();
    expect(smtp.mailsTo('person@example.se')).toHaveLength(1);
    expect(smtp.mailsTo('robot-json@example.se')).toEqual([]);
    // A registered address still looks new to a robot: the trap answers before anything is looked up.
    const again = await t.app.inject({ method: 'POST', url: '/api/users/register', payload: registration('person@example.se', { website: 'x' }) });
    expect(again.statusCode).toBe(201);
  });

  it('is in the OpenAPI document of both forms', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    expect(doc.paths['/api/users/register'].post.description).toMatch(/`website` is a spam trap/);
    const body = doc.paths['/api/contact'].post.requestBody.content['application/json'].schema;
    expect(body.properties.website).toMatchObject({ type: 'string', description: 'Leave empty.' });
    expect(body.required).not.toContain('website');
  });
});

describe('the hidden spam trap (honeypot) on the contact form', () => {
  it('REST: a filled trap gets the usual 201, and nothing is stored or mailed', async () => {
    const before = t.db.select().from(contactMessages).all().length;
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: contact(1, { website: 'https://spam.example' }) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Message was sent successfully' });
    expect(t.db.select().from(contactMessages).all()).toHaveLength(before);
    expect(t.db.select().from(mailOutbox).all()).toEqual([]);
  });

  it('tRPC: the same reply as a real message; only the real one is stored and mailed', async () => {
    const visitor = callerFor(t.deps, null);
    const before = t.db.select().from(contactMessages).all().length;
    expect(await visitor.site.contact(contact(2, { website: 'spam' }))).toEqual({ ok: true });
    expect(await visitor.site.contact(contact(3, { website: '' }))).toEqual({ ok: true });
    const stored = t.db.select().from(contactMessages).all();
    expect(stored).toHaveLength(before + 1);
    expect(stored.map((m) => m.userEmail)).toContain('robot.3@example.se');
    expect(stored.map((m) => m.userEmail)).not.toContain('robot.2@example.se');
    await t.deps.outbox.deliverDue();
    const mailed = smtp.mailsTo(CONTACT_EMAIL).map((m) => m.text ?? '');
    expect(mailed.some((text) => text.includes('meddelande 3'))).toBe(true);
    expect(mailed.some((text) => text.includes('meddelande 2'))).toBe(false);
  });
});
