import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { createBusiness, updateBusiness } from '../services/business/business-admin';
import { matchRoute, NOT_FOUND_PAGE, ROUTES, type Route as AppRoute } from '../../shared/schemas/routes';
import { createComment } from '../services/comments/comments';
import { setFavorite } from '../services/business/favorites';
import { createReply } from '../services/comments/replies';
import { reportPost, resolveReports } from '../services/moderation/reports';
import { establish } from '../test/trust';
import { createCast, createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { jsonForScript } from './page-head';
import { oneByteHtml, type RenderPage } from './spa-build';
import type { PageData } from '../../shared/schemas/page-data';
import { siteText } from '../services/site/site-settings';
import { routeOf } from './spa-html';
import { STATE_PAINTS, statePaints } from './spa-pages';

const INDEX =
  '<!doctype html><html lang="sv"><head><title>R</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
// The shape Vite writes to .vite/manifest.json: a small entry, the app behind it, pages.
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_preload-1.js'], css: ['assets/index-1.css'] },
  '_preload-1.js': { file: 'assets/preload-1.js' },
  'start.tsx': { file: 'assets/start-1.js', isDynamicEntry: true, imports: ['_react-1.js'], css: ['assets/start-1.css'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_card-1.js': { file: 'assets/card-1.js', imports: ['_react-1.js'], css: ['assets/card-1.css'] },
  'pages/home.tsx': {
    file: 'assets/home-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_react-1.js', '_card-1.js'],
    dynamicImports: ['features/home/faq.tsx'],
    css: ['assets/home-1.css'],
  },
  // A lazy part of a prerendered page that its first paint does not hold: its CSS comes with it.
  'features/home/faq.tsx': { file: 'assets/faq-1.js', isDynamicEntry: true, css: ['assets/faq-1.css'] },
  'pages/directory.tsx': { file: 'assets/directory-1.js', isDynamicEntry: true, imports: ['index.html', '_card-1.js'] },
  'pages/business-detail.tsx': {
    file: 'assets/business-detail-1.js',
    isDynamicEntry: true,
    imports: ['index.html'],
    dynamicImports: ['features/comments/comment-section.tsx'],
  },
  // A section the page loads lazily but the server renders with it (the business page's comments).
  'features/comments/comment-section.tsx': { file: 'assets/comments-1.js', isDynamicEntry: true, imports: ['_card-1.js'], css: ['assets/comments-1.css'] },
  'pages/about.tsx': { file: 'assets/about-1.js', isDynamicEntry: true, imports: ['index.html', '_react-1.js'], css: ['assets/about-1.css'] },
  'i18n/en-first.ts': { file: 'assets/en-1.js', isDynamicEntry: true },
};

const PRERENDER = { 'pages/home.tsx': { sv: '<main>Välkommen</main>', en: '<main>Welcome</main>' } };

/** The hints the server added ("rel href"), in order. */
const links = (html: string) => [...html.matchAll(/<link rel="(modulepreload|stylesheet)" crossorigin href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);

describe('index.html per route', () => {
  let ctx: TestContext;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-spa-'));
    mkdirSync(path.join(clientDir, '.vite'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(path.join(clientDir, '.vite', 'prerender.json'), JSON.stringify(PRERENDER));
    ctx = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('gives a page without a prerender the app and its chunks as modulepreloads, with their CSS', async () => {
    const about = await ctx.app.inject('/about');
    expect(about.statusCode).toBe(200);
    expect(about.headers['content-type']).toContain('text/html');
    expect(links(about.body)).toEqual([
      'modulepreload /assets/react-1.js',
      'modulepreload /assets/start-1.js',
      'stylesheet /assets/start-1.css',
      'modulepreload /assets/about-1.js',
      'stylesheet /assets/about-1.css',
    ]);
    expect(about.body).toContain('<html lang="sv"');
    expect(about.body).toContain('<div id="root"></div>');
  });

  it('adds the English catalog and lang="en" for visitors whose cookie asks for English', async () => {
    const res = await ctx.app.inject({ url: '/about', headers: { cookie: 'session=x; lang=en' } });
    expect(links(res.body)).toContain('modulepreload /assets/en-1.js');
    expect(res.body).toContain('<html lang="en"');
    expect(res.headers.vary).toContain('Cookie');
  });

  it("puts a page's prerendered first render in #root, in the visitor's language, with CSS but no script hints", async () => {
    const home = (await ctx.app.inject('/')).body;
    expect(home).toContain('<div id="root"><main>Välkommen</main></div>');
    // The scripts come after the first paint (client/main.tsx), so only stylesheets are linked.
    expect(links(home)).toEqual(['stylesheet /assets/start-1.css', 'stylesheet /assets/card-1.css', 'stylesheet /assets/home-1.css']);
    expect(home).toContain('<script type="module" crossorigin src="/assets/index-1.js">');
    const english = await ctx.app.inject({ url: '/', headers: { cookie: 'lang=en' } });
    expect(english.body).toContain('<div id="root"><main>Welcome</main></div>');
    expect(english.body).toContain('<html lang="en"');
    expect(links(english.body)).not.toContain('modulepreload /assets/en-1.js');

    // No prerender for this page and language: the scripts are preloaded instead.
    const directory = (await ctx.app.inject('/business?x=1')).body;
    expect(directory).toContain('<div id="root"></div>');
    expect(links(directory)).toContain('modulepreload /assets/directory-1.js');
    expect(links((await ctx.app.inject('/business/abc')).body)).toContain('modulepreload /assets/business-detail-1.js');
  });

  it('gives other routes the app alone, as a 404, and keeps the build files to itself', async () => {
    const other = await ctx.app.inject('/no/such/page');
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toContain('text/html');
    expect(links(other.body)).toEqual(['modulepreload /assets/react-1.js', 'modulepreload /assets/start-1.js', 'stylesheet /assets/start-1.css']);
    expect(other.body).toContain('<div id="root"></div>');
    const manifest = await ctx.app.inject('/.vite/manifest.json');
    expect(manifest.body).not.toContain('isEntry');
    expect((await ctx.app.inject('/.vite/prerender.json')).body).not.toContain('"sv":');
  });

  it('answers 200 for every route of the manifest (as wouter matches them: any case, trailing slash) and 404 for the rest', async () => {
    for (const route of ROUTES as readonly AppRoute[]) {
      if (route.query) continue; // An id: see the pages rendered with their data below.
      const url = route.path.replace(/:\w+/g, 'abc123');
      for (const variant of [url, `${url.toUpperCase()}/`.replace(/^\/\/$/, '/')]) {
        expect((await ctx.app.inject(variant)).statusCode, variant).toBe(200);
      }
    }
    for (const unknown of ['/abouts', '/business/a/b', '/user/x', '/comment', '/favorites', '/index.html.bak']) {
      const res = await ctx.app.inject(unknown);
      expect(res.statusCode, unknown).toBe(404);
      expect(res.body, unknown).toContain('<div id="root"></div>');
    }
  });
});

describe('the route manifest (shared/schemas/routes.ts)', () => {
  const clientDir = path.join(import.meta.dirname, '../../client');
  const pages = readdirSync(path.join(clientDir, 'pages'))
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => f.replace(/\.tsx$/, ''));

  it("matches a path to the same route as wouter's own Switch (what the client router shows)", () => {
    const samples = [
      '/',
      '',
      '/About',
      '/about/',
      '/abouts',
      '/logIn',
      '/login',
      '/LOGIN/',
      '/business',
      '/business/',
      '/business/abc',
      '/Business/a%20b/',
      '/business/a/b',
      '/comment/x1',
      '/comment',
      '/favorites/u1',
      '/favorites',
      '/user',
      '/user/x',
      '/user-mng',
      '/mod-log/',
      '/products',
      '/nope',
    ];
    for (const urlPath of samples) {
      const routes = [...ROUTES.map((r) => createElement(Route, { key: r.path, path: r.path }, r.path)), createElement(Route, { key: '*' }, 'not found')];
      const shown = renderToString(createElement(Router, { ssrPath: urlPath, children: createElement(Switch, null, ...routes) }));
      expect(matchRoute(urlPath)?.route.path ?? 'not found', urlPath).toBe(shown);
    }
  });

  it('names a module of client/pages for every page, and every module there is a page', () => {
    const named = new Set<string>([NOT_FOUND_PAGE, ...(ROUTES as readonly AppRoute[]).flatMap((r) => (r.page ? [r.page] : []))]);
    expect([...named].sort()).toEqual([...pages].sort());
    for (const route of ROUTES as readonly AppRoute[]) expect(Boolean(route.page) !== Boolean(route.redirect), route.path).toBe(true);
  });

  it("has the entry fetch each first page's own chunk (client/main.tsx)", () => {
    const main = readFileSync(path.join(clientDir, 'main.tsx'), 'utf8');
    const loaders = [...main.matchAll(/^\s+'?([\w-]+)'?: \(\) => import\('\.\/pages\/([\w-]+)'\),$/gm)].map((m) => [m[1], m[2]]);
    const first = (ROUTES as readonly AppRoute[]).filter((r) => r.prerender || r.query).map((r) => r.page);
    expect(loaders.map(([key]) => key).sort()).toEqual([...first].sort());
    for (const [key, module] of loaders) expect(module, key).toBe(key);
  });

  it('gives index.html the chunk of the page a path shows', () => {
    expect(routeOf('/')).toBe('pages/home.tsx');
    expect(routeOf('/Business/x1/')).toBe('pages/business-detail.tsx');
    expect(routeOf('/comment/x1')).toBe('pages/comment.tsx');
    expect(routeOf('/products')).toBe('');
    expect(routeOf('/nope')).toBe('');
  });
});

describe('business page rendered with its data', () => {
  let ctx: TestContext;
  let clientDir: string;
  const BUSINESS_SKELETON = '<div aria-busy="true">skelett</div>';
  const TITLE = '<script>alert("x")</script> & Co';

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-spa-ssr-'));
    mkdirSync(path.join(clientDir, '.vite', 'ssr'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(
      path.join(clientDir, '.vite', 'prerender.json'),
      JSON.stringify({ 'pages/business-detail.tsx': { sv: BUSINESS_SKELETON, en: BUSINESS_SKELETON } }),
    );
    // The build puts the bundled client/prerender.tsx here; the test renders with the source.
    const source = path.join(import.meta.dirname, '../../client/prerender.tsx');
    writeFileSync(path.join(clientDir, '.vite', 'ssr', 'prerender.js'), `export { renderPage } from ${JSON.stringify(source)};\n`);
    ctx = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const dataBlock = (html: string) => {
    const m = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html);
    return m ? (JSON.parse(m[1]) as { path: string; input: { id: string }; data: { title: string; description: string }; anonymous: boolean }) : null;
  };

  it('puts the business (escaped) in #root and the same data in a JSON block; no inline script', async () => {
    const { admin } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: TITLE,
      category: 'Livsmedel',
      description: 'Första stycket </p><img src=x onerror=alert(1)>\nAndra stycket',
      rate: 4,
      branches: [{ location: 'Malmö', address: 'Storgatan 1' }],
    });
    const res = await ctx.app.inject(`/business/${business.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain('<h1 class=');
    expect(body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</h1>');
    expect(body).toContain('<p>Första stycket &lt;/p&gt;&lt;img src=x onerror=alert(1)&gt;</p><p>Andra stycket</p>');
    expect(body).not.toContain('<img src=x');
    // The only scripts: the entry and the (non-executed) data blocks: schema.org data and page data.
    expect(body.match(/<script\b[^>]*>/g)).toEqual([
      '<script type="application/ld+json">',
      '<script type="module" crossorigin src="/assets/index-1.js">',
      '<script type="application/json" id="page-data">',
    ]);
    expect(body).not.toContain(BUSINESS_SKELETON);
    expect(body).toMatch(/<\/div><script type="application\/json" id="page-data">/);
    const data = dataBlock(body);
    expect(data).toMatchObject({ path: 'business.byId', input: { id: business.id }, anonymous: true });
    expect(data?.data.title).toBe(TITLE);
    // Rendered in the browser's language, with stylesheets but no script preloads (as a prerendered
    // page), among them those of the lazy comment section the render holds, so it paints styled.
    expect(links(body)).toEqual(['stylesheet /assets/start-1.css', 'stylesheet /assets/card-1.css', 'stylesheet /assets/comments-1.css']);
    const english = (await ctx.app.inject({ url: `/business/${business.id}`, headers: { cookie: 'lang=en' } })).body;
    expect(english).toContain('<html lang="en"');
    expect(english).toContain('>Go Back</a>');
    expect(body).toContain('>Gå tillbaka</a>');

    // A visitor with a session gets the same page, marked so the browser fetches its own view.
    const signedIn = await ctx.app.inject({ url: `/business/${business.id}`, headers: { cookie: `session=${admin.token}` } });
    expect(dataBlock(signedIn.body)).toMatchObject({ anonymous: false, data: { title: TITLE } });

    // A change shows on the next load.
    await updateBusiness(ctx.deps, admin.actor, business.id, { description: 'Ny beskrivning', branches: [{ location: 'Lund' }] });
    const after = (await ctx.app.inject(`/business/${business.id}`)).body;
    expect(after).toContain('<p>Ny beskrivning</p>');
    expect(dataBlock(after)?.data.description).toBe('Ny beskrivning');
  });

  it('keeps the render as one-byte text: characters above U+00FF as character references, the same text once read', async () => {
    const { admin } = await createCast(ctx.db);
    const title = 'Kafé ☕ – bullar 🥐';
    const business = await createBusiness(ctx.deps, admin.actor, {
      title,
      category: 'Café',
      description: 'Öppet “varje” dag →',
      branches: [{ location: 'Ystad' }],
    });
    const body = (await ctx.app.inject(`/business/${business.id}`)).body;
    const root = body.slice(body.indexOf('<div id="root">'), body.indexOf('<script type="application/json" id="page-data">'));
    expect(root).toContain('<h1');
    expect([...root].every((char) => char.codePointAt(0)! <= 0xff)).toBe(true);
    expect(root).toContain('Kafé &#x2615; &#x2013; bullar &#x1f950;</h1>');
    // Read as a browser reads character references: the title and description as written.
    const read = root.replace(/&#x([0-9a-f]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
    expect(read).toContain(`${title}</h1>`);
    expect(read).toContain('Öppet “varje” dag →');
    // The data block is the data as it is.
    expect(dataBlock(body)?.data.title).toBe(title);
    // Against React's own render of the same data: the same HTML once the references are read.
    // (the build's renderer file, which re-exports client/prerender.tsx, before serverRenderer wraps it)
    const react = (await import(pathToFileURL(path.join(clientDir, '.vite', 'ssr', 'prerender.js')).href)) as { renderPage: RenderPage };
    const own = await react.renderPage(`/business/${business.id}`, 'sv', dataBlock(body) as unknown as PageData, siteText(ctx.deps));
    expect([...own].some((char) => char.codePointAt(0)! > 0xff)).toBe(true);
    expect(read).toBe(`<div id="root">${own}</div>`);
    // A lone surrogate is written as a reference too, never cut to a byte (U+D83C would be `<`).
    expect(oneByteHtml('a\ud83c<b\udc00')).toBe('a&#xd83c;<b&#xdc00;');
    expect(oneByteHtml('Malmö')).toBe('Malmö');
    // Kept one byte a character (V8's serializer tags a one-byte string `"`, a two-byte one `c`).
    expect(v8.serialize(oneByteHtml('Kafé ☕ – bullar 🥐'))[2]).toBe(0x22);
  });

  it('sends pages compressed by Accept-Encoding, the kept ones with an ETag per encoding (304), the same HTML decoded', async () => {
    const { admin } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Packat & klart',
      category: 'Livsmedel',
      description: 'Ett stycke som upprepas. '.repeat(30),
      branches: [{ location: 'Malmö' }],
    });
    const url = `/business/${business.id}`;
    const plain = await ctx.app.inject(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('Packat &amp; klart');
    const decoded = { br: (b: Buffer) => brotliDecompressSync(b), gzip: (b: Buffer) => gunzipSync(b) };
    const tags = new Set<string>([plain.headers.etag as string]);
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['gzip, br;q=0', 'gzip'],
    ] as const) {
      const res = await ctx.app.inject({ url, headers: { 'accept-encoding': acceptEncoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(decoded[encoding](res.rawPayload).toString()).toBe(plain.body);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      // What shared caches were told is unchanged; they must also keep the encodings apart.
      expect(res.headers['cache-control']).toBe(plain.headers['cache-control']);
      expect(res.headers['cache-control']).toContain('s-maxage=');
      expect(String(res.headers.vary).split(/,\s*/)).toEqual(expect.arrayContaining(['Cookie', 'Accept-Encoding']));
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      tags.add(res.headers.etag as string);
      // Revalidation: the tag of any encoding answers 304 without a body.
      const again = await ctx.app.inject({ url, headers: { 'accept-encoding': acceptEncoding, 'if-none-match': plain.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(res.headers.etag);
    }
    expect(tags.size).toBe(3);
    // Signed in, the page says so in its data block: its own kept HTML, not the visitor's.
    const signedIn = await ctx.app.inject({ url, headers: { cookie: `session=${admin.token}`, 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(signedIn.rawPayload).toString()).toContain('"anonymous":false');
    expect(signedIn.headers.etag).not.toBe(plain.headers.etag);
    // After a write the old tag no longer matches, and the page is the new one.
    await updateBusiness(ctx.deps, admin.actor, business.id, { description: 'Nytt och kort.', branches: [{ location: 'Malmö' }] });
    const after = await ctx.app.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(brotliDecompressSync(after.rawPayload).toString()).toContain('Nytt och kort.');
    // A page made per request (no kept render) is compressed too, without an ETag.
    const about = await ctx.app.inject({ url: '/about', headers: { 'accept-encoding': 'gzip' } });
    expect(about.statusCode).toBe(200);
    expect(about.headers.etag).toBeUndefined();
    expect(about.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(about.rawPayload).toString()).toBe((await ctx.app.inject('/about')).body);
  });

  it('over a real server, answers a kept page before Fastify with the bytes and headers Fastify gave it, per language and encoding', async () => {
    const { admin } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Snabbt svar',
      category: 'Livsmedel',
      description: 'Sidan som hålls färdig. '.repeat(30),
      branches: [{ location: 'Malmö' }],
    });
    const other = await createBusiness(ctx.deps, admin.actor, {
      title: 'Granne',
      category: 'Livsmedel',
      description: 'Granne.',
      branches: [{ location: 'Lund' }],
    });
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/business/${business.id}`;
    const headersOf = (reply: Response) =>
      [...reply.headers].filter(([name]) => !['date', 'keep-alive', 'connection', 'content-length', 'transfer-encoding'].includes(name)).sort();
    const fetched = async (target: string, headers: Record<string, string>) => {
      const reply = await fetch(target, { headers });
      return { status: reply.status, headers: headersOf(reply), bytes: Buffer.from(await reply.arrayBuffer()), raw: reply };
    };
    let n = 0;
    for (const headers of [
      { 'accept-encoding': 'gzip, deflate, br, zstd' } as Record<string, string>,
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br', cookie: 'lang=en; theme=dark' },
    ]) {
      // A write (to another business) empties every kept reply: the next one is Fastify's own.
      await updateBusiness(ctx.deps, admin.actor, other.id, { description: `Ändrad ${n++}`, branches: [{ location: 'Lund' }] });
      const framework = await fetched(url, headers);
      const fast = await fetched(url, headers);
      expect(framework.status).toBe(200);
      expect(fast.status).toBe(200);
      expect(fast.headers, JSON.stringify(headers)).toEqual(framework.headers);
      expect(fast.bytes.equals(framework.bytes), JSON.stringify(headers)).toBe(true);
      expect(fast.raw.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(fast.raw.headers.get('cache-control')).toContain('s-maxage=');
      // Revalidation on the fast path: 304 with the tag of the encoding.
      const again = await fetch(url, { headers: { ...headers, 'if-none-match': String(fast.raw.headers.get('etag')) } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(fast.raw.headers.get('etag'));
    }
    // The language is part of the key: a visitor asking for Swedish never gets the English page.
    const english = await (await fetch(`${url}?lang=en`)).text();
    const swedish = await (await fetch(url, { headers: { cookie: 'lang=en', 'accept-encoding': 'identity' } })).text();
    expect(english).toContain('<html lang="en"');
    expect(swedish).toContain('<html lang="en"');
    expect(await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).text()).toContain('<html lang="sv"');
    // A signed-in visitor never gets the kept visitor's page.
    const signedIn = await (await fetch(url, { headers: { cookie: `session=${admin.token}`, 'accept-encoding': 'identity' } })).text();
    expect(dataBlock(signedIn)).toMatchObject({ anonymous: false });
    // A write shows on the next load.
    await updateBusiness(ctx.deps, admin.actor, business.id, { description: 'Nu ändrad.', branches: [{ location: 'Malmö' }] });
    expect(await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).text()).toContain('<p>Nu ändrad.</p>');
  });

  it('answers kept pages without counting them against the per-client limit (they never reach Fastify)', async () => {
    const limited = await createTestApp({ clientDir, env: { REQUESTS_PER_MINUTE: '3' } });
    try {
      const { admin } = await createCast(limited.db);
      const business = await createBusiness(limited.deps, admin.actor, {
        title: 'Räknas inte',
        category: 'Livsmedel',
        description: 'Räknas inte.',
        branches: [{ location: 'Malmö' }],
      });
      const address = await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await fetch(`${address}/business/${business.id}`)).status);
      expect(statuses).toEqual(Array(8).fill(200));
      // A page made per request still counts: the fourth in the minute is refused.
      const about: number[] = [];
      for (let i = 0; i < 4; i++) about.push((await fetch(`${address}/about`)).status);
      expect(about).toContain(429);
    } finally {
      await limited.close();
    }
  });

  it('serves an unknown or invalid id as a 404 with the page without data, for the browser to ask (and show not-found)', async () => {
    for (const url of ['/business/no-such-id', `/business/${'x'.repeat(65)}`]) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(`<div id="root">${BUSINESS_SKELETON}</div>`);
      expect(dataBlock(res.body), url).toBeNull();
    }
  });

  it('renders a comment page with the comment (the anonymous view) and the same data in a JSON block', async () => {
    const { admin, owner } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Kaffebaren',
      category: 'Livsmedel',
      description: 'Kaffe',
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const comment = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Gott kaffe <b>och</b> bullar', businessLocation: 'Lund' });
    const res = await ctx.app.inject(`/comment/${comment._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<div id="root">[\s\S]*<article id="comment-[\s\S]*>Gott kaffe &lt;b&gt;och&lt;\/b&gt; bullar<\/p>/);
    expect(res.body).toContain('Kaffebaren');
    expect(dataBlock(res.body)).toMatchObject({ path: 'comments.byId', input: { id: comment._id }, anonymous: true, data: { _id: comment._id } });
    // Rendered as the anonymous visitor sees it, for everyone: the author's own buttons are not in it.
    const mine = await ctx.app.inject({ url: `/comment/${comment._id}`, headers: { cookie: `session=${owner.token}` } });
    expect(dataBlock(mine.body)).toMatchObject({ anonymous: false, data: { reportedByMe: false } });
    expect(mine.body).not.toContain('btn-danger');
    const english = (await ctx.app.inject(`/comment/${comment._id}?lang=en`)).body;
    expect(english).toContain('<html lang="en"');
    expect(english).toContain('Gott kaffe');
    for (const url of ['/comment/no-such-comment', `/comment/${'x'.repeat(65)}`]) {
      const missing = await ctx.app.inject(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type'], url).toContain('text/html');
      expect(missing.body, url).toContain('<div id="root"></div>');
      expect(dataBlock(missing.body), url).toBeNull();
    }
  });

  it("keeps `$`, `$'`, `$&` in a comment and a business name as typed (never a replacement pattern)", async () => {
    const { admin, owner } = await createCast(ctx.db);
    const NAME = "Dollar $` $' $& $$ AB";
    const TEXT = `Pris $\` och $' och $& ${'$`'.repeat(500)}`;
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: NAME,
      category: 'Livsmedel',
      description: "$' $`",
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const comment = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: TEXT, businessLocation: 'Lund' });
    const page = await ctx.app.inject(`/comment/${comment._id}`);
    expect(page.statusCode).toBe(200);
    // One document: the text once in #root and once in the data block, nothing expanded.
    expect(page.body.match(/<!doctype html>/g)).toHaveLength(1);
    expect(page.body.length).toBeLessThan(60_000);
    expect(page.body).toContain('Pris $` och $&#x27; och $&amp; $`$`');
    expect(dataBlock(page.body)?.data).toMatchObject({ text: TEXT });
    const businessPage = await ctx.app.inject(`/business/${business.id}`);
    expect(businessPage.body.match(/<!doctype html>/g)).toHaveLength(1);
    expect(businessPage.body).toContain('Dollar $` $&#x27; $&amp; $$ AB</h1>');
    expect(dataBlock(businessPage.body)?.data.title).toBe(NAME);
  });

  it('never puts a hidden or removed comment in the shared render', async () => {
    const { admin, owner, other } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Bageriet',
      category: 'Livsmedel',
      description: 'Bröd',
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const hidden = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Dold text om bröd', businessLocation: 'Lund' });
    // Rendered (and kept) before it is hidden: the reports are writes, so the kept render goes.
    expect((await ctx.app.inject(`/comment/${hidden._id}`)).body).toContain('Dold text om bröd');
    const reporters = await Promise.all([1, 2, 3].map((i) => createTestUser(ctx.db, { firstName: `Rapportör${i}`, lastName: 'R' })));
    await establish(ctx.deps, reporters);
    for (const r of reporters) await reportPost(ctx.deps, r.actor, 'comment', { id: hidden._id, reason: 'offensive' });
    const anonymous = await ctx.app.inject(`/comment/${hidden._id}`);
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.body).not.toContain('Dold text');
    // Its author still has the page (they see it marked), but from their own request, not in the HTML.
    const author = await ctx.app.inject({ url: `/comment/${hidden._id}`, headers: { cookie: `session=${owner.token}` } });
    expect(author.statusCode).toBe(200);
    expect(author.body).toContain('noindex');
    expect(author.body).not.toContain('Dold text');
    expect(dataBlock(author.body)).toBeNull();

    const removed = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Borttagen text om bröd', businessLocation: 'Lund' });
    await createReply(ctx.deps, other.actor, { commentId: removed._id, text: 'Ett svar' });
    expect((await ctx.app.inject(`/comment/${removed._id}`)).body).toContain('Borttagen text om bröd');
    await reportPost(ctx.deps, other.actor, 'comment', { id: removed._id, reason: 'offensive' });
    await resolveReports(ctx.deps, admin.actor, { id: removed._id, action: 'remove' });
    const gone = await ctx.app.inject(`/comment/${removed._id}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).not.toContain('Borttagen text');
    expect(dataBlock(gone.body)).toBeNull();
  });

  it('writes JSON that cannot end its script element', () => {
    const text = '</script><!-- & \u2028';
    const json = jsonForScript({ text });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ text });
  });
});

describe('first paint in the state the query string asks for', () => {
  let ctx: TestContext;
  let clientDir: string;
  const HOME = '<main>startsidan</main>';
  const DIRECTORY = '<main>katalogen</main>';

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-spa-state-'));
    mkdirSync(path.join(clientDir, '.vite', 'ssr'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(
      path.join(clientDir, '.vite', 'prerender.json'),
      JSON.stringify({ 'pages/home.tsx': { sv: HOME, en: HOME }, 'pages/directory.tsx': { sv: DIRECTORY, en: DIRECTORY } }),
    );
    const source = path.join(import.meta.dirname, '../../client/prerender.tsx');
    writeFileSync(path.join(clientDir, '.vite', 'ssr', 'prerender.js'), `export { renderPage, renderFirstPaint } from ${JSON.stringify(source)};\n`);
    ctx = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const root = (html: string) =>
    /<div id="root">([\s\S]*)<\/div>(?:<script type="application\/json" id="page-data">[^<]*<\/script>)?<\/body>/.exec(html)?.[1] ?? '';

  it('paints the home feed with the filter of the address, its controls inert until the app takes over', async () => {
    const res = await ctx.app.inject('/?filter=topRated');
    expect(res.statusCode).toBe(200);
    const html = root(res.body);
    expect(html).not.toContain(HOME);
    // The checked segment is the one the address names (Ark UI marks it data-state="checked").
    const checked = [...html.matchAll(/<label[^>]*data-state="checked"[^>]*>[\s\S]*?<\/label>/g)].map((m) => m[0]);
    expect(checked).toHaveLength(1);
    expect(checked[0]).toContain('value="topRated"');
    expect(checked[0]).toContain('>HÖGST BETYG<');
    expect(html).not.toMatch(/<(button|input)(?![^>]*disabled)[\s>]/);
    const english = root((await ctx.app.inject({ url: '/?filter=mostReplied', headers: { cookie: 'lang=en' } })).body);
    expect([...english.matchAll(/<label[^>]*data-state="checked"[^>]*>[\s\S]*?<\/label>/g)][0]?.[0]).toContain('value="mostReplied"');
  });

  it('paints the default state, and what no page reads, as the bare address (with its list, no longer the build-time paint)', async () => {
    for (const [bare, urls] of [
      ['/', ['/?filter=all', '/?filter=bogus', '/?utm_source=x']],
      ['/business', ['/business?q=%20%20', '/business?utm_source=x']],
    ] as const) {
      const expected = root((await ctx.app.inject(bare)).body);
      expect(expected, bare).not.toMatch(/^<main>(startsidan|katalogen)<\/main>$/);
      expect(expected, bare).not.toBe('');
      for (const url of urls) expect(root((await ctx.app.inject(url)).body), url).toBe(expected);
    }
  });

  it('paints the directory with its search text, escaped', async () => {
    const html = root((await ctx.app.inject('/business?q=ica&utm=1')).body);
    expect(html).not.toContain(DIRECTORY);
    expect(html).toMatch(/<input[^>]*disabled[^>]*value="ica"/);
    // Every control inert, none marked twice (the header's are disabled by React already).
    expect(html).not.toMatch(/<(button|input)(?![^>]*disabled)[\s>]/);
    expect(html).not.toMatch(/<[a-z]+\s[^>]*\sdisabled(?:=""|(?=[\s>/]))[^>]*\sdisabled(?:=""|(?=[\s>/]))/);
    const hostile = root((await ctx.app.inject(`/business?q=${encodeURIComponent('"><script>x</script>')}`)).body);
    expect(hostile).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(hostile).not.toContain('<script>');
  });

  it("paints a search text holding `$`, `$'` or `$&` once, as typed", async () => {
    // The box keeps 100 characters.
    const q = "$`$'$&$$" + '$`'.repeat(46);
    const res = await ctx.app.inject(`/business?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/<!doctype html>/g)).toHaveLength(1);
    expect(res.body.length).toBeLessThan(60_000);
    expect(root(res.body)).toContain(`value="$\`$&#x27;$&amp;$$${'$`'.repeat(46)}"`);
  });

  it('renders at most 20 new states a minute per network; past that the browser paints (issue 27)', async () => {
    ctx.deps.limits.reset();
    const painted = async (url: string, ip: string) => root((await ctx.app.inject({ url, remoteAddress: ip })).body) !== '';
    const fromOneNetwork: boolean[] = [];
    for (let i = 0; i < 21; i++) fromOneNetwork.push(await painted(`/business?q=limit-${i}`, `10.30.0.${i}`));
    expect(fromOneNetwork.slice(0, 20).every(Boolean)).toBe(true);
    expect(fromOneNetwork[20]).toBe(false);
    // A state already rendered costs nothing and is still served; other networks still get theirs.
    expect(await painted('/business?q=limit-3', '10.30.0.99')).toBe(true);
    expect(await painted('/business?q=limit-21', '10.31.0.1')).toBe(true);
    ctx.deps.limits.reset();
  });

  it('never keeps these pages in the public reply cache', async () => {
    const first = await ctx.app.inject('/business?q=apotek');
    expect(first.headers.etag).toBeUndefined();
    expect(first.headers['cache-control']).toBe('no-cache');
  });

  it('keeps at most STATE_PAINTS renders, the oldest going first', async () => {
    const rendered: string[] = [];
    const paint = statePaints(
      async () => ({
        renderFirstPaint: async (url: string) => {
          rendered.push(url);
          return `<p>${url}</p>`;
        },
      }),
      () => ({ error() {} }),
    );
    for (let i = 0; i < STATE_PAINTS + 1; i += 1) await paint('/business', 'pages/directory.tsx', `?q=${i}`, 'sv');
    expect(rendered).toHaveLength(STATE_PAINTS + 1);
    expect(await paint('/business', 'pages/directory.tsx', `?q=${STATE_PAINTS}`, 'sv')).toBe(`<p>/business?q=${STATE_PAINTS}</p>`);
    expect(rendered).toHaveLength(STATE_PAINTS + 1);
    await paint('/business', 'pages/directory.tsx', '?q=0', 'sv');
    expect(rendered).toHaveLength(STATE_PAINTS + 2);
  });

  it('answers without a first paint when the render fails, and tries again next time', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const paint = statePaints(
      async () => ({
        renderFirstPaint: async () => {
          if (fail) throw new Error('render failed');
          return '<p>ok</p>';
        },
      }),
      () => ({ error: (e: unknown) => errors.push(e) }),
    );
    expect(await paint('/', 'pages/home.tsx', '?filter=topRated', 'sv')).toBeNull();
    expect(errors).toHaveLength(1);
    fail = false;
    expect(await paint('/', 'pages/home.tsx', '?filter=topRated', 'sv')).toBe('<p>ok</p>');
  });
});

describe('first page of reviews, the feed and the directory in the first HTML (issue 29.7)', () => {
  let ctx: TestContext;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-spa-lists-'));
    mkdirSync(path.join(clientDir, '.vite', 'ssr'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(
      path.join(clientDir, '.vite', 'prerender.json'),
      JSON.stringify({
        'pages/home.tsx': { sv: '<main>hem</main>', en: '<main>home</main>' },
        'pages/directory.tsx': { sv: '<main>kat</main>', en: '<main>dir</main>' },
      }),
    );
    const source = path.join(import.meta.dirname, '../../client/prerender.tsx');
    writeFileSync(path.join(clientDir, '.vite', 'ssr', 'prerender.js'), `export { renderPage, renderFirstPaint } from ${JSON.stringify(source)};\n`);
    ctx = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  type Block = {
    path?: string;
    data?: unknown;
    lists?: { path: string; input: unknown; data: { items: Record<string, unknown>[]; nextCursor: string | null } }[];
    anonymous: boolean;
  };
  const dataBlock = (html: string): Block | null => {
    const m = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html);
    return m ? (JSON.parse(m[1]) as Block) : null;
  };
  const root = (html: string) => /<div id="root">([\s\S]*)<\/div>(?:<script type="application\/json" id="page-data">|<\/body>)/.exec(html)?.[1] ?? '';

  async function seed() {
    const cast = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, cast.admin.actor, {
      title: 'Bageriet Vetekatten',
      category: 'Livsmedel',
      description: 'Bröd och bullar',
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const comment = await createComment(ctx.deps, cast.owner.actor, {
      businessId: business.id,
      text: 'Kardemummabullarna är <b>bäst</b>',
      businessLocation: 'Lund',
    });
    return { ...cast, business, comment };
  }

  it("renders a business page's first reviews (the anonymous view) and hands the same page to the list", async () => {
    const { business, comment, owner, admin } = await seed();
    const res = await ctx.app.inject(`/business/${business.id}`);
    expect(res.statusCode).toBe(200);
    const html = root(res.body);
    expect(html).toContain('Kardemummabullarna är &lt;b&gt;bäst&lt;/b&gt;');
    expect(html).toContain(`id="comment-${comment._id}"`);
    // Its controls wait for the app: the section is a disabled fieldset until hydration.
    expect(html).toMatch(/<fieldset[^>]*disabled=""[^>]*>[\s\S]*<h2[^>]*>Kommentarer/);
    const block = dataBlock(res.body)!;
    expect(block).toMatchObject({ path: 'business.byId', anonymous: true });
    expect(block.lists).toEqual([expect.objectContaining({ path: 'comments.byBusiness', input: { businessId: business.id } })]);
    expect(block.lists?.[0]?.data.items.map((c) => c._id)).toEqual([comment._id]);

    // The author signed in gets the same anonymous render (none of their own buttons), marked
    // so their browser asks for their own view.
    const mine = await ctx.app.inject({ url: `/business/${business.id}`, headers: { cookie: `session=${owner.token}` } });
    expect(root(mine.body)).toBe(html);
    expect(dataBlock(mine.body)).toMatchObject({ anonymous: false, lists: block.lists });
    const adminView = await ctx.app.inject({ url: `/business/${business.id}`, headers: { cookie: `session=${admin.token}` } });
    expect(root(adminView.body)).toBe(html);

    // A new review shows on the next load.
    const newer = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Och kanelbullarna', businessLocation: 'Lund' });
    const after = await ctx.app.inject(`/business/${business.id}`);
    expect(root(after.body)).toContain('Och kanelbullarna');
    expect(dataBlock(after.body)?.lists?.[0]?.data.items.map((c) => c._id)).toEqual([newer._id, comment._id]);
  });

  it('leaves the list to the browser when the address asks for another order, filter or search', async () => {
    const { business } = await seed();
    for (const query of ['?sort=highest', '?q=bullar', '?stars=5', '?photos=1', '?branch=x']) {
      const res = await ctx.app.inject(`/business/${business.id}${query}`);
      expect(res.statusCode, query).toBe(200);
      const block = dataBlock(res.body);
      expect(block?.path, query).toBe('business.byId');
      expect(block?.lists, query).toBeUndefined();
      expect(root(res.body), query).not.toContain('Kardemummabullarna');
    }
    // What the list does not read keeps the render with the list.
    expect(dataBlock((await ctx.app.inject(`/business/${business.id}?lang=sv&utm_source=x`)).body)?.lists).toHaveLength(1);
  });

  it('paints the home feed with its first cards, the same for a signed-in visitor, marked for a refetch', async () => {
    const { comment, other } = await seed();
    const res = await ctx.app.inject('/');
    const html = root(res.body);
    // A feed card shows the start of the text (FEED_EXCERPT_CHARS).
    expect(html).toContain('>Kardemummabullarna');
    expect(html).toContain(`href="/comment/${comment._id}"`);
    // React's own markup, which the browser hydrates: its controls render disabled until then.
    expect(html).not.toMatch(/<(button|input)(?![^>]*disabled="")[\s>]/);
    const block = dataBlock(res.body)!;
    expect(block).toMatchObject({ anonymous: true, lists: [{ path: 'comments.feed', input: { filter: 'all' } }] });
    expect(block.path).toBeUndefined();
    expect(block.lists?.[0]?.data.items[0]).toMatchObject({ _id: comment._id });
    // Signed in: the same render, nothing of theirs in it (no name in the header, no own choices).
    const signedIn = await ctx.app.inject({ url: '/', headers: { cookie: `session=${other.token}` } });
    expect(root(signedIn.body)).toBe(html);
    expect(signedIn.body).not.toContain('Ada');
    expect(signedIn.body).not.toContain(other.email);
    expect(dataBlock(signedIn.body)).toMatchObject({ anonymous: false });
    // Another filter, another first page.
    const top = dataBlock((await ctx.app.inject('/?filter=mostReplied')).body);
    expect(top?.lists?.[0]).toMatchObject({ path: 'comments.feed', input: { filter: 'mostReplied' } });
  });

  it('paints the directory with its first cards; a favourite is never in the shared render', async () => {
    const { business, owner } = await seed();
    await setFavorite(ctx.deps, owner.actor, { businessId: business.id, favorite: true });
    const res = await ctx.app.inject('/business');
    const html = root(res.body);
    expect(html).toContain('Bageriet Vetekatten');
    const block = dataBlock(res.body)!;
    expect(block).toMatchObject({ anonymous: true, lists: [{ path: 'business.directoryPage', input: {} }] });
    // React's own markup, which the browser hydrates: its controls render disabled until then.
    expect(html).not.toMatch(/<(button|input|select)(?![^>]*disabled="")[\s>]/);
    const card = block.lists?.[0]?.data.items.find((b) => b.id === business.id);
    expect(card).toMatchObject({ isFavorite: false });
    const signedIn = await ctx.app.inject({ url: '/business', headers: { cookie: `session=${owner.token}` } });
    expect(root(signedIn.body)).toBe(html);
    expect(dataBlock(signedIn.body)?.lists?.[0]?.data.items.find((b) => b.id === business.id)).toMatchObject({ isFavorite: false });
    expect(dataBlock(signedIn.body)?.anonymous).toBe(false);
    // A search or a filter keeps the first paint without data (a skeleton), as before.
    expect(dataBlock((await ctx.app.inject('/business?q=bageri')).body)).toBeNull();
    expect(dataBlock((await ctx.app.inject('/business?category=Livsmedel')).body)).toBeNull();
  });
});
