import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { pageChunk, ROUTES, type Route } from './shared/schemas/routes';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The pages whose first render (their loading state, before any data) is written at build time
 * to .vite/prerender.json, by page chunk and language (the routes marked `prerender` in
 * shared/schemas/routes.ts); server/plugins/spa-html.ts puts it in index.html so the page paints
 * before its scripts have run (and spa.ts renders the same first paint at request time for an
 * address whose query string changes it, e.g. /business?q=ica).
 */
const PRERENDERED = (ROUTES as readonly Route[]).flatMap((r) => (r.page && r.prerender ? [[pageChunk(r.page), r.prerender] as const] : []));

/**
 * date-fns falls back to its en-US locale where no locale is given, so `formatDistanceToNow`
 * brings that locale (about 2 KB of gzip) into every page, although the app always passes one
 * (Swedish, or en-GB from the English catalog's own chunk). The fallback is the Swedish locale
 * instead, which the first page loads anyway (docs/decisions/013).
 */
function dateFnsFallbackLocale(): Plugin {
  return {
    name: 'recensera-date-fns-fallback-locale',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]date-fns[\\/]/.test(importer) || !source.endsWith('/_lib/defaultLocale.js')) return null;
      return this.resolve(path.join(here, 'client', 'i18n', 'date-fallback-locale.ts'), importer, { skipSelf: true });
    },
  };
}

function prerender(): Plugin {
  let outDir = '';
  let isSsr = false;
  return {
    name: 'recensera-prerender',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      isSsr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (isSsr) return;
      // Kept in the build: the server renders pages with their data at request time with it
      // (server/plugins/spa.ts). .vite/ is not served to browsers.
      const ssrDir = path.join(outDir, '.vite', 'ssr');
      await build({
        configFile: false,
        root: path.join(here, 'client'),
        plugins: [react()],
        logLevel: 'warn',
        // Packages bundled in: the renderer runs wherever the build is (no node_modules beside it).
        ssr: { noExternal: true },
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: { ssr: 'prerender.tsx', outDir: ssrDir, emptyOutDir: true, target: 'node24', copyPublicDir: false },
      });
      const { renderFirstPaint } = (await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href)) as {
        renderFirstPaint: (path: string, lang: 'sv' | 'en') => Promise<string>;
      };
      const pages: Record<string, Record<string, string>> = {};
      for (const [chunk, url] of PRERENDERED) {
        pages[chunk] = { sv: await renderFirstPaint(url, 'sv'), en: await renderFirstPaint(url, 'en') };
      }
      mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      writeFileSync(path.join(outDir, '.vite', 'prerender.json'), JSON.stringify(pages));
    },
  };
}

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react(), dateFnsFallbackLocale(), prerender()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: true,
    // No <link rel=modulepreload> appended by script for every chunk an import() needs: on a
    // served page the entry's first imports appended ~65, one long task on a phone. The
    // modules' own imports fetch them (docs/decisions/021, twelfth session).
    modulePreload: false,
    sourcemap: false,
    // .vite/manifest.json: server/plugins/spa.ts reads it to preload each route's chunks.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/trpc': 'http://localhost:8000', '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000' },
  },
});
