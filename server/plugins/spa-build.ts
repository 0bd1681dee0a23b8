// What the client build leaves for the server (vite.config.ts): Vite's manifest of chunks, the
// prerendered first paints and the server renderer, all under the build's .vite/ (not served).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { PageData } from '../../shared/schemas/page-data';
import type { SiteText } from '../../shared/schemas/site-settings';

/** One chunk of Vite's build manifest (client/.vite/manifest.json). */
export type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
export type Manifest = Record<string, ManifestChunk>;
/** .vite/prerender.json (vite.config.ts): a page's first render before data, by page chunk and language. */
export type Prerendered = Record<string, Partial<Record<'sv' | 'en', string>>>;

/** client/prerender.tsx as built into .vite/ssr/prerender.js. */
export type RenderPage = (path: string, lang: 'sv' | 'en', pageData: PageData, site?: SiteText) => Promise<string>;
export type Renderer = {
  renderPage: RenderPage;
  renderFirstPaint(path: string, lang: 'sv' | 'en', site?: SiteText): Promise<string>;
};

/** A build file of .vite/ (manifest.json, prerender.json); null when the build has none. */
export function readBuildJson<T>(clientDir: string, name: string): T | null {
  const file = path.join(clientDir, '.vite', name);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Any character above U+00FF: a dash, a star, an emoji (a pair of surrogates, matched as one),
 * and a lone surrogate, which Latin-1 would otherwise cut to its low byte (U+D83C to `<`).
 * Without the `u` flag: the same matches in about half the time (0.6 ms for a business page).
 */
const WIDE = /[\u0100-\ud7ff\ue000-\uffff]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

/**
 * A render's HTML with every character above U+00FF written as a character reference (`&#x1f44d;`
 * for 👍). V8 keeps a string with any such character at two bytes a character, so a business
 * page's 109 KB render with its reactions' emoji took 218 KB while kept (spa-pages.ts keeps 64);
 * with none it takes one byte a character. The browser reads the same text and attributes (a
 * render has no script or style, whose text would be read as written: client/prerender.tsx
 * refuses both), so hydration finds what React rendered.
 */
export function oneByteHtml(html: string): string {
  const referenced = html.replace(WIDE, (char) => `&#x${char.codePointAt(0)!.toString(16)};`);
  // V8 builds a replacement's result in its subject's width, so the string is made anew from its
  // Latin-1 bytes (every character is one now): one byte a character.
  return referenced === html ? html : Buffer.from(referenced, 'latin1').toString('latin1');
}

/**
 * Loads the build's server renderer on first use; null when the build has none or it fails to
 * load. Its renders come back as one-byte strings (oneByteHtml).
 */
export function serverRenderer(clientDir: string, log: () => FastifyBaseLogger): () => Promise<Renderer | null> {
  const file = path.join(clientDir, '.vite', 'ssr', 'prerender.js');
  let loading: Promise<Renderer | null> | null = null;
  return () =>
    (loading ??= existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (m: Renderer): Renderer => ({
            renderPage: (...args) => m.renderPage(...args).then(oneByteHtml),
            renderFirstPaint: (...args) => m.renderFirstPaint(...args).then(oneByteHtml),
          }),
          (err: unknown) => {
            log().error({ err }, 'server renderer failed to load; pages are served without their data');
            return null;
          },
        )
      : Promise.resolve(null));
}
