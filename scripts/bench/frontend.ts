/** Front-end weight (gzip of the JS/CSS each page really loads) and Lighthouse scores. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { onCleanup } from './processes';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type PageWeight = {
  page: string;
  url: string;
  jsFiles: number;
  cssFiles: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsRawBytes: number;
  missing: string[];
  error?: string;
};

/**
 * Loads each page in the system Chromium, records the .js/.css it requests from our origin, and
 * gzips those files' bytes from the build (level 9, as scripts/precompress.mjs writes them).
 */
export async function measurePageWeights(origin: string, clientDir: string, pages: { name: string; path: string }[]): Promise<PageWeight[]> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS, timeout: 30_000 });
  onCleanup(() => void browser.close().catch(() => {}));
  const results: PageWeight[] = [];
  try {
    for (const page of pages) {
      const url = origin + page.path;
      const weight: PageWeight = { page: page.name, url, jsFiles: 0, cssFiles: 0, jsGzipBytes: 0, cssGzipBytes: 0, jsRawBytes: 0, missing: [] };
      const context = await browser.newContext();
      const tab = await context.newPage();
      const assets = new Set<string>();
      tab.on('request', (req) => {
        const u = new URL(req.url());
        if (u.origin === origin && /\.(js|mjs|css)$/.test(u.pathname)) assets.add(u.pathname);
      });
      try {
        await tab.goto(url, { waitUntil: 'networkidle', timeout: 45_000 });
      } catch (err) {
        weight.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
      }
      for (const asset of assets) {
        const file = path.join(clientDir, decodeURIComponent(asset));
        if (!existsSync(file)) {
          weight.missing.push(asset);
          continue;
        }
        const bytes = readFileSync(file);
        const gz = gzipSync(bytes, { level: 9 }).length;
        if (asset.endsWith('.css')) {
          weight.cssFiles++;
          weight.cssGzipBytes += gz;
        } else {
          weight.jsFiles++;
          weight.jsGzipBytes += gz;
          weight.jsRawBytes += bytes.length;
        }
      }
      await context.close();
      results.push(weight);
    }
  } finally {
    await browser.close();
  }
  return results;
}

export type LighthouseScores = {
  page: string;
  url: string;
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  /** Key timings (ms) of the simulated mobile run, to explain a low performance score. */
  fcpMs?: number;
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  error?: string;
  /** The error of a first run that gave no scores; the row is the second run's. */
  retriedAfter?: string;
};

const score = (s: number | null | undefined) => (s === null || s === undefined ? null : Math.round(s * 100));

/** Lighthouse (default mobile form factor) against each page; a page that cannot be audited gets an error, not a crash. */
export async function runLighthouse(pages: { name: string; url: string }[], timeoutMs = 180_000): Promise<LighthouseScores[]> {
  let lighthouse: typeof import('lighthouse').default;
  let launcher: typeof import('chrome-launcher');
  try {
    lighthouse = (await import('lighthouse')).default;
    launcher = await import('chrome-launcher');
  } catch (err) {
    const error = `lighthouse could not load: ${err instanceof Error ? err.message : String(err)}`;
    return pages.map((p) => ({ page: p.name, url: p.url, performance: null, accessibility: null, bestPractices: null, seo: null, error }));
  }
  const out: LighthouseScores[] = [];
  for (const page of pages) {
    let row = await auditPage(lighthouse, launcher, page, timeoutMs);
    // A run without scores is mostly Lighthouse's own hiccup (a failed trace, NO_NAVSTART, whose
    // message says to run it again): one more run in a fresh browser, and the row says so.
    if (row.performance === null) {
      const first = row.error;
      row = await auditPage(lighthouse, launcher, page, timeoutMs);
      row.retriedAfter = first;
    }
    out.push(row);
  }
  return out;
}

async function auditPage(
  lighthouse: typeof import('lighthouse').default,
  launcher: typeof import('chrome-launcher'),
  page: { name: string; url: string },
  timeoutMs: number,
): Promise<LighthouseScores> {
  const row: LighthouseScores = { page: page.name, url: page.url, performance: null, accessibility: null, bestPractices: null, seo: null };
  let chrome: Awaited<ReturnType<typeof launcher.launch>> | null = null;
  try {
    // A fresh browser per page: no cache or service state carried from one audit to the next.
    chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    const running = chrome;
    onCleanup(() => void running.kill());
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      lighthouse(page.url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    const lhr = result?.lhr;
    if (!lhr) throw new Error('lighthouse returned no report');
    row.performance = score(lhr.categories.performance?.score);
    row.accessibility = score(lhr.categories.accessibility?.score);
    row.bestPractices = score(lhr.categories['best-practices']?.score);
    row.seo = score(lhr.categories.seo?.score);
    row.fcpMs = lhr.audits['first-contentful-paint']?.numericValue;
    row.lcpMs = lhr.audits['largest-contentful-paint']?.numericValue;
    row.tbtMs = lhr.audits['total-blocking-time']?.numericValue;
    row.cls = lhr.audits['cumulative-layout-shift']?.numericValue;
    if (lhr.runtimeError) row.error = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
    const failedA11y = Object.values(lhr.audits).filter(
      (a) => a.score === 0 && lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0),
    );
    if (failedA11y.length) row.error = [row.error, `a11y failures: ${failedA11y.map((a) => a.id).join(', ')}`].filter(Boolean).join('; ');
  } catch (err) {
    row.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
  } finally {
    chrome?.kill();
  }
  return row;
}
