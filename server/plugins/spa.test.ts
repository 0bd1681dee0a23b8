import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers';
import { routeChunks } from './spa';

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

  it('gives other routes the app alone and keeps the build files to itself', async () => {
    const other = await ctx.app.inject('/no/such/page');
    expect(other.statusCode).toBe(200);
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
});
