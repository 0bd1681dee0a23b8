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
  renderFirstPaint(path: string, lang: 'sv' | 'en', pageData?: PageData | null, site?: SiteText): Promise<string>;
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

/** Loads the build's server renderer on first use; null when the build has none or it fails to load. */
export function serverRenderer(clientDir: string, log: () => FastifyBaseLogger): () => Promise<Renderer | null> {
  const file = path.join(clientDir, '.vite', 'ssr', 'prerender.js');
  let loading: Promise<Renderer | null> | null = null;
  return () =>
    (loading ??= existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (m: Renderer) => m,
          (err: unknown) => {
            log().error({ err }, 'server renderer failed to load; pages are served without their data');
            return null;
          },
        )
      : Promise.resolve(null));
}
