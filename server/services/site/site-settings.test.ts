import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, modLog, siteSettings } from '../../../db/schema';
import { DEFAULT_SITE_TEXT, parseSiteText, SITE_NAME_MAX, SITE_TEXT_META } from '../../../shared/schemas/site-settings';
import { bearer, callerFor, createCast, createTestApp, type TestContext } from '../../test/helpers';
import { createBusiness } from '../business/business-admin';
import { createComment } from '../comments/comments';

// Issue 29 item 15: admins set the site's name, tagline and welcome text (both languages);
// titles, mails, share previews and schema.org data use them, and every kept page shows a change.

const INDEX = '<!doctype html><html lang="sv"><head><title>R</title></head><body><div id="root"></div></body></html>';
const HOME_PAINT = '<main>Release home</main>';

let t: TestContext;
let clientDir: string;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-site-'));
  mkdirSync(path.join(clientDir, '.vite', 'ssr'), { recursive: true });
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, '.vite', 'prerender.json'), JSON.stringify({ 'pages/home.tsx': { sv: HOME_PAINT, en: HOME_PAINT } }));
  // The build bundles client/prerender.tsx here; the test renders with the source.
  const source = path.join(import.meta.dirname, '../../../client/prerender.tsx');
  writeFileSync(path.join(clientDir, '.vite', 'ssr', 'prerender.js'), `export { renderPage, renderFirstPaint } from ${JSON.stringify(source)};\n`);
  t = await createTestApp({ clientDir });
  cast = await createCast(t.db);
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});
beforeEach(() => {
  t.deps.limits.reset();
  t.db.delete(siteSettings).run();
  t.db.delete(modLog).run();
});

const LUND = {
  name: 'Lund tycker',
  tagline: { sv: 'omdömen om butikerna i Lund', en: 'reviews of the stores of Lund' },
  welcome: { sv: 'Välkommen, lundabo! Här skriver grannar om butikerna i stan.', en: 'Welcome, people of Lund! Neighbours write about the stores in town.' },
};
const EMPTY = { name: '', tagline: { sv: '', en: '' }, welcome: { sv: '', en: '' } };
const json = { 'content-type': 'application/json' };
const put = (body: unknown, headers: Record<string, string> = bearer(cast.admin)) =>
  t.app.inject({ method: 'PUT', url: '/api/site-settings', headers: { ...json, ...headers }, payload: JSON.stringify(body) });
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const metaOf = (html: string, property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];
const siteMeta = (html: string) => {
  const m = new RegExp(`<meta name="${SITE_TEXT_META}" content="([^"]*)">`).exec(html);
  return m
    ? parseSiteText(
        m[1]
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      )
    : null;
};

describe('the site settings, both doors', () => {
  it('are the release words until an admin sets them; REST and tRPC read the same', async () => {
    const rest = await t.app.inject('/api/site-settings');
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toEqual({ ...DEFAULT_SITE_TEXT, updatedAt: null });
    expect(await callerFor(t.deps, null).site.settings()).toEqual({ ...DEFAULT_SITE_TEXT, updatedAt: null });

    const saved = await put(LUND);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject(LUND);
    expect((await t.app.inject('/api/site-settings')).json()).toMatchObject({ ...LUND, updatedAt: expect.any(String) });
    expect(await callerFor(t.deps, null).site.settings()).toMatchObject(LUND);

    // tRPC writes too; an empty field is the default again.
    const viaTrpc = await callerFor(t.deps, cast.admin).site.updateSettings({ ...LUND, tagline: { sv: '', en: LUND.tagline.en } });
    expect(viaTrpc.tagline).toEqual({ sv: DEFAULT_SITE_TEXT.tagline.sv, en: LUND.tagline.en });
    expect(t.db.select().from(siteSettings).get()?.taglineSv).toBeNull();
  });

  it('only admins write them; visitors 401, members and banned admins 403', async () => {
    expect((await put(LUND, {})).statusCode).toBe(401);
    for (const who of ['owner', 'banned'] as const) expect((await put(LUND, bearer(cast[who]))).statusCode).toBe(403);
    await expect(callerFor(t.deps, cast.owner).site.updateSettings(LUND)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(t.db.select().from(siteSettings).all()).toEqual([]);
  });

  it('bounds every field and keeps names on one line; a missing field is a 400, never a 500', async () => {
    const long = await put({ ...LUND, name: 'x'.repeat(SITE_NAME_MAX + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ key: 'invalidInput' });
    expect((await put({ ...LUND, welcome: { sv: 'x'.repeat(601), en: '' } })).statusCode).toBe(400);
    expect((await put({ name: 'Lund' })).statusCode).toBe(400);
    expect((await put('not json')).statusCode).toBe(400);
    const oneLine = await put({ ...EMPTY, name: 'Lund\r\nBcc: x@example.com\u200B' });
    expect(oneLine.json().name).toBe('Lund Bcc: x@example.com');
  });

  it('counts against the admin’s edits (429) and is written to the moderation log', async () => {
    await put(LUND);
    const log = t.db.select().from(modLog).all();
    expect(log).toMatchObject([{ action: 'siteSettings', targetKind: 'site', actorId: cast.admin.id, excerpt: 'Lund tycker' }]);
    let status = 200;
    for (let i = 0; i < 40 && status === 200; i++) status = (await put(LUND)).statusCode;
    expect(status).toBe(429);
  });
});

describe('pages, previews, schema.org data and mails use them', () => {
  // The first render loads the client's source into the test: slow on a busy machine.
  it('titles, og:site_name, the meta for the app and the home page painted with the words', { timeout: 90_000 }, async () => {
    const before = (await t.app.inject('/')).body;
    expect(titleOf(before)).toBe('Recensera – betyg och omdömen om butiker och tjänster i Sverige');
    // Home is rendered with its feed (issue 29.7) in the release's words.
    expect(before).toContain('Välkommen till Recensera');
    expect(siteMeta(before)).toBeNull();
    expect(titleOf((await t.app.inject('/about')).body)).toBe('Om Recensera | Recensera');

    await put(LUND);
    const home = (await t.app.inject('/')).body;
    expect(titleOf(home)).toBe('Lund tycker – omdömen om butikerna i Lund');
    expect(metaOf(home, 'og:site_name')).toBe('Lund tycker');
    expect(siteMeta(home)).toEqual(LUND);
    // The build's paint has the release's words: the page is painted again with these.
    expect(home).not.toContain(HOME_PAINT);
    expect(home).toContain(LUND.welcome.sv);
    expect(home).toContain('Välkommen till Lund tycker');
    // The release's texts that name the site name this one.
    expect(home).toContain('Butiker på Lund tycker');
    const english = (await t.app.inject('/?lang=en')).body;
    expect(titleOf(english)).toBe('Lund tycker – reviews of the stores of Lund');
    expect(english).toContain(LUND.welcome.en);
    expect(titleOf((await t.app.inject('/about')).body)).toBe('Om Lund tycker | Lund tycker');
    expect(titleOf((await t.app.inject('/user')).body)).toBe('Din profil | Lund tycker');

    // Back to the release's words, no meta.
    await put(EMPTY);
    const reset = (await t.app.inject('/')).body;
    expect(reset).toContain('Välkommen till Recensera');
    expect(reset).not.toContain(LUND.welcome.sv);
    expect(siteMeta(reset)).toBeNull();
  });

  it('business and comment pages (rendered and kept) pick up a change at once', { timeout: 90_000 }, async () => {
    const business = await createBusiness(t.deps, cast.admin.actor, {
      title: 'Hörnbutiken',
      category: 'Livsmedel',
      description: 'Mat',
      branches: [{ location: 'Lund' }],
    });
    const comment = await createComment(t.deps, cast.owner.actor, {
      businessId: business.id,
      text: 'Trevlig personal och bra frukt.',
      branchId: business.branches[0].id,
    });
    const first = (await t.app.inject(`/business/${business.id}`)).body;
    expect(titleOf(first)).toMatch(/ \| Recensera$/);
    await put(LUND);
    const page = (await t.app.inject(`/business/${business.id}`)).body;
    expect(titleOf(page)).toMatch(/^Hörnbutiken – omdömen och betyg \| Lund tycker$/);
    expect(metaOf(page, 'og:site_name')).toBe('Lund tycker');
    expect(page).toContain('Lund tycker</span>');
    const commentPage = (await t.app.inject(`/comment/${comment._id}`)).body;
    expect(titleOf(commentPage)).toMatch(/ \| Lund tycker$/);
    const ld = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(commentPage)![1]) as { publisher: { name: string } };
    expect(ld.publisher.name).toBe('Lund tycker');
  });

  it('account mails carry the name in the subject, the text and the signature', async () => {
    await put(LUND);
    t.db.delete(mailOutbox).run();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { firstName: 'Nils', lastName: 'Nilsson', email: 'nils@example.se', password: 'Secret-pass-123', confirmPassword: 'Secret-pass-123' },
    });
    expect(res.statusCode).toBe(201);
    const [mail] = t.db.select().from(mailOutbox).all();
    expect(mail.subject).toBe('Bekräfta din e-postadress – Lund tycker');
    expect(mail.textBody).toContain('registrerade dig på Lund tycker');
    expect(mail.textBody).toContain('Hälsningar,\nLund tycker');
    expect(mail.textBody).not.toContain('Recensera');
  });
});
