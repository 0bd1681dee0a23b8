import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness, updateBusiness } from '../services/business';
import { createComment } from '../services/comments';
import { createCast, createTestApp, type TestContext } from '../test/helpers';
import { jsonForScript, pagePaths, routeChunks, STATE_PAINTS, statePaints } from './spa';

const INDEX =
  '<!doctype html><html lang="sv"><head><title>R</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
// The shape Vite writes to .vite/manifest.json: a small entry, the app behind it, pages.
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_preload-1.js'], css: ['assets/index-1.css'] },
  '_preload-1.js': { file: 'assets/preload-1.js' },
  'start.tsx': { file: 'assets/start-1.js', isDynamicEntry: true, imports: ['_react-1.js'], css: ['assets/start-1.css'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_card-1.js': { file: 'assets/card-1.js', imports: ['_react-1.js'], css: ['assets/card-1.css'] },
  'pages/home.tsx': { file: 'assets/home-1.js', isDynamicEntry: true, imports: ['index.html', '_react-1.js', '_card-1.js'], css: ['assets/home-1.css'] },
  'pages/directory.tsx': { file: 'assets/directory-1.js', isDynamicEntry: true, imports: ['index.html', '_card-1.js'] },
  'pages/business-detail.tsx': { file: 'assets/business-detail-1.js', isDynamicEntry: true, imports: ['index.html'] },
  'pages/about.tsx': { file: 'assets/about-1.js', isDynamicEntry: true, imports: ['index.html', '_react-1.js'], css: ['assets/about-1.css'] },
  'i18n/en.ts': { file: 'assets/en-1.js', isDynamicEntry: true },
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

  it('names only pages that exist in the client router', () => {
    const routes = readFileSync(path.join(import.meta.dirname, '../../client/routes.tsx'), 'utf8');
    for (const [, chunk] of routeChunks) expect(routes, chunk).toContain(`import('./${chunk.replace(/\.tsx$/, '')}')`);
  });

  it('answers 200 for every path the client router knows (as wouter matches them) and 404 for the rest', async () => {
    const routes = readFileSync(path.join(import.meta.dirname, '../../client/routes.tsx'), 'utf8');
    const paths = [...routes.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1].replace(/:\w+/g, 'abc123'));
    expect(paths.length).toBeGreaterThan(15);
    for (const known of paths) expect(pagePaths.some((p) => p.test(known)), known).toBe(true);
    for (const known of ['/about', '/About/', '/login', '/user', '/cmt-mng', '/favorites/abc123']) {
      expect((await ctx.app.inject(known)).statusCode, known).toBe(200);
    }
    for (const unknown of ['/abouts', '/business/a/b', '/user/x', '/comment', '/favorites', '/index.html.bak']) {
      const res = await ctx.app.inject(unknown);
      expect(res.statusCode, unknown).toBe(404);
      expect(res.body, unknown).toContain('<div id="root"></div>');
    }
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
    // Rendered in the browser's language, with stylesheets but no script preloads (as a prerendered page).
    expect(links(body)).toEqual(['stylesheet /assets/start-1.css']);
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

  it('serves an unknown or invalid id as a 404 with the page without data, for the browser to ask (and show not-found)', async () => {
    for (const url of ['/business/no-such-id', `/business/${'x'.repeat(65)}`]) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(`<div id="root">${BUSINESS_SKELETON}</div>`);
      expect(dataBlock(res.body), url).toBeNull();
    }
  });

  it('answers a comment page 200 when the comment exists and 404 (still the app) when it does not', async () => {
    const { admin, owner } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, { title: 'Kaffebaren', category: 'Livsmedel', description: 'Kaffe', rate: 4, branches: [{ location: 'Lund' }] });
    const comment = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Gott kaffe', businessLocation: 'Lund' });
    expect((await ctx.app.inject(`/comment/${comment._id}`)).statusCode).toBe(200);
    for (const url of ['/comment/no-such-comment', `/comment/${'x'.repeat(65)}`]) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<div id="root">');
    }
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

  const root = (html: string) => /<div id="root">([\s\S]*)<\/div><\/body>/.exec(html)?.[1] ?? '';

  it('paints the home feed with the filter of the address, its controls inert until the scripts run', async () => {
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

  it('keeps the build-time paint for the default state and for what no page reads', async () => {
    for (const url of ['/', '/?filter=all', '/?filter=bogus', '/?utm_source=x', '/business', '/business?q=%20%20']) {
      const body = (await ctx.app.inject(url)).body;
      expect(root(body), url).toMatch(/^<main>(startsidan|katalogen)<\/main>$/);
    }
  });

  it('paints the directory with its search text, escaped', async () => {
    const html = root((await ctx.app.inject('/business?q=ica&utm=1')).body);
    expect(html).not.toContain(DIRECTORY);
    expect(html).toMatch(/<input disabled[^>]*value="ica"/);
    const hostile = root((await ctx.app.inject(`/business?q=${encodeURIComponent('"><script>x</script>')}`)).body);
    expect(hostile).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(hostile).not.toContain('<script>');
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
