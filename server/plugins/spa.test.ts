import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers';
import { routeChunks } from './spa';

const INDEX =
  '<!doctype html><html lang="sv"><head><title>R</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
// The shape Vite writes to .vite/manifest.json.
const MANIFEST = {
  'main.tsx': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'], css: ['assets/index-1.css'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_card-1.js': { file: 'assets/card-1.js', imports: ['_shared-1.js'], css: ['assets/card-1.css'] },
  'pages/home.tsx': { file: 'assets/home-1.js', isDynamicEntry: true, imports: ['main.tsx', '_shared-1.js', '_card-1.js'], css: ['assets/home-1.css'] },
  'pages/directory.tsx': { file: 'assets/directory-1.js', isDynamicEntry: true, imports: ['main.tsx', '_card-1.js'] },
  'pages/business-detail.tsx': { file: 'assets/business-detail-1.js', isDynamicEntry: true, imports: ['main.tsx'] },
  'i18n/en.ts': { file: 'assets/en-1.js', isDynamicEntry: true },
};

const PRERENDER = { 'pages/home.tsx': { sv: '<main>Välkommen</main>', en: '<main>Welcome</main>' } };

const preloads = (html: string) => [...html.matchAll(/<link rel="(?:modulepreload|stylesheet)"[^>]*href="([^"]+)"/g)].map((m) => m[1]);

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

  it("preloads the route's chunks and CSS, minus what the entry already loads", async () => {
    const home = await ctx.app.inject('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    expect(preloads(home.body)).toEqual(['/assets/home-1.js', '/assets/home-1.css', '/assets/card-1.js', '/assets/card-1.css']);
    expect(home.body).toContain('<html lang="sv"');

    const directory = await ctx.app.inject('/business?x=1');
    expect(preloads(directory.body)).toEqual(['/assets/directory-1.js', '/assets/card-1.js', '/assets/card-1.css']);
    const business = await ctx.app.inject('/business/abc');
    expect(preloads(business.body)).toEqual(['/assets/business-detail-1.js']);
  });

  it('adds the English catalog and lang="en" for visitors whose cookie asks for English', async () => {
    const res = await ctx.app.inject({ url: '/business/abc', headers: { cookie: 'session=x; lang=en' } });
    expect(preloads(res.body)).toEqual(['/assets/business-detail-1.js', '/assets/en-1.js']);
    expect(res.body).toContain('<html lang="en"');
    expect(res.headers.vary).toContain('Cookie');
  });

  it("puts the page's prerendered first render in #root, in the visitor's language", async () => {
    const home = (await ctx.app.inject('/')).body;
    expect(home).toContain('<div id="root"><main>Välkommen</main></div>');
    // Scripts are not needed for that first paint, so they yield to the stylesheets.
    expect(home).toContain('<script type="module" crossorigin fetchpriority="low" src="/assets/index-1.js">');
    expect(home).toMatch(/<link rel="modulepreload" crossorigin fetchpriority="low" href="\/assets\/home-1.js">/);
    expect((await ctx.app.inject({ url: '/', headers: { cookie: 'lang=en' } })).body).toContain('<div id="root"><main>Welcome</main></div>');
    const directory = (await ctx.app.inject('/business')).body;
    expect(directory).toContain('<div id="root"></div>');
    expect(directory).not.toContain('fetchpriority');
  });

  it('serves other routes unchanged and keeps the build files to itself', async () => {
    const other = await ctx.app.inject('/no/such/page');
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(INDEX);
    const manifest = await ctx.app.inject('/.vite/manifest.json');
    expect(manifest.body).not.toContain('isEntry');
    expect((await ctx.app.inject('/.vite/prerender.json')).body).not.toContain('"sv":');
  });

  it('names only pages that exist in the client router', () => {
    const routes = readFileSync(path.join(import.meta.dirname, '../../client/routes.tsx'), 'utf8');
    for (const [, chunk] of routeChunks) expect(routes, chunk).toContain(`import('./${chunk.replace(/\.tsx$/, '')}')`);
  });
});
