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
  /** The performance score of every run that gave one, in order; the scores above are the median run's. */
  performanceRuns?: number[];
  /** Runs that gave no scores (Lighthouse's own trace failures such as NO_NAVSTART). */
  failedRuns?: string[];
  error?: string;
};

const score = (s: number | null | undefined) => (s === null || s === undefined ? null : Math.round(s * 100));

/** A Lighthouse report, as the runner returns it. */
type Lhr = NonNullable<Awaited<ReturnType<typeof import('lighthouse').default>>>['lhr'];

/**
 * Lighthouse (default mobile form factor) against each page, `runs` times, each run in a fresh
 * browser; a page's scores are those of the median run as Lighthouse's own computeMedianRun picks
 * it (the run nearest the median FCP and time to interactive), which is how Lighthouse's docs
 * (variability.md) ask for scores to be taken on a machine whose speed varies. A page that cannot
 * be audited gets an error, not a crash.
 */
export async function runLighthouse(pages: { name: string; url: string }[], runs = 3, timeoutMs = 180_000): Promise<LighthouseScores[]> {
  let lighthouse: typeof import('lighthouse').default;
  let launcher: typeof import('chrome-launcher');
  let median: typeof import('lighthouse/core/lib/median-run.js');
  try {
    lighthouse = (await import('lighthouse')).default;
    launcher = await import('chrome-launcher');
    median = await import('lighthouse/core/lib/median-run.js');
  } catch (err) {
    const error = `lighthouse could not load: ${err instanceof Error ? err.message : String(err)}`;
    return pages.map((p) => ({ page: p.name, url: p.url, performance: null, accessibility: null, bestPractices: null, seo: null, error }));
  }
  const out: LighthouseScores[] = [];
  for (const page of pages) {
    const row: LighthouseScores = { page: page.name, url: page.url, performance: null, accessibility: null, bestPractices: null, seo: null };
    const reports: Lhr[] = [];
    const failed: string[] = [];
    for (let i = 0; i < runs; i++) {
      const run = await auditOnce(lighthouse, launcher, page.url, timeoutMs);
      if ('error' in run) failed.push(run.error);
      else if (run.lhr.runtimeError) failed.push(`${run.lhr.runtimeError.code}: ${run.lhr.runtimeError.message}`);
      else reports.push(run.lhr);
    }
    const valid = median.filterToValidRuns(reports) as Lhr[];
    if (failed.length) row.failedRuns = failed;
    if (valid.length === 0) {
      row.error = failed[0] ?? 'no run gave a first contentful paint and a time to interactive';
      out.push(row);
      continue;
    }
    // median-run.js is typed with Lighthouse's global LH.Result, the same report as Lhr.
    const lhr = median.computeMedianRun(valid) as Lhr;
    row.performanceRuns = valid.map((r) => score(r.categories.performance?.score) ?? 0);
    row.performance = score(lhr.categories.performance?.score);
    row.accessibility = score(lhr.categories.accessibility?.score);
    row.bestPractices = score(lhr.categories['best-practices']?.score);
    row.seo = score(lhr.categories.seo?.score);
    row.fcpMs = lhr.audits['first-contentful-paint']?.numericValue;
    row.lcpMs = lhr.audits['largest-contentful-paint']?.numericValue;
    row.tbtMs = lhr.audits['total-blocking-time']?.numericValue;
    row.cls = lhr.audits['cumulative-layout-shift']?.numericValue;
    const failedA11y = Object.values(lhr.audits).filter(
      (a) => a.score === 0 && lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0),
    );
    if (failedA11y.length) row.error = `a11y failures: ${failedA11y.map((a) => a.id).join(', ')}`;
    out.push(row);
  }
  return out;
}

async function auditOnce(
  lighthouse: typeof import('lighthouse').default,
  launcher: typeof import('chrome-launcher'),
  url: string,
  timeoutMs: number,
): Promise<{ lhr: Lhr } | { error: string }> {
  let chrome: Awaited<ReturnType<typeof launcher.launch>> | null = null;
  try {
    // A fresh browser per run: no cache or service state carried from one audit to the next.
    chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    const running = chrome;
    onCleanup(() => void running.kill());
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      lighthouse(url, {
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
    if (!result?.lhr) throw new Error('lighthouse returned no report');
    return { lhr: result.lhr };
  } catch (err) {
    return { error: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  } finally {
    chrome?.kill();
  }
}

/** Notes when `selector` first matches, from before the page's first byte is parsed. */
const observeFirst = (selector: string) => `(() => {
  const check = () => {
    if (window.__firstContentAt === undefined && document.querySelector(${JSON.stringify(selector)})) window.__firstContentAt = performance.now();
    return window.__firstContentAt !== undefined;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})()`;

/** The later of that time and the first contentful paint (which may be reported a frame after). */
const VISIBLE_AT = `(async () => {
  const fcp = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  for (let n = 0; n < 100 && fcp() === undefined; n++) await new Promise((r) => setTimeout(r, 50));
  const found = window.__firstContentAt ?? performance.now();
  return Math.max(found, fcp() ?? found);
})()`;

export type FirstContent = {
  page: string;
  url: string;
  /** What is looked for (a CSS selector) and what it is called in the report. */
  what: string;
  /** Median ms from navigation start until it was visible: unthrottled, and as a throttled phone. */
  desktopMs: number | null;
  phoneMs: number | null;
  desktopRuns: number[];
  phoneRuns: number[];
  error?: string;
};

/**
 * When the page's first real content (the first review, feed card or directory card) is visible
 * (issue 29.7): the page is loaded in the system Chromium with an observer installed before any
 * of its own code, which notes the time the selector first matches (in the served HTML as it is
 * parsed, or when a script adds it). It counts as visible at that time or at the first
 * contentful paint, whichever is later (nothing is visible before the first paint). Each page
 * is loaded `runs` times unthrottled (desktop viewport) and `runs` times as a phone
 * (412×823, Lighthouse's mobile throttling applied through the DevTools protocol: 150 ms round
 * trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower); each reports its median.
 */
export async function measureFirstContent(
  origin: string,
  pages: { name: string; path: string; selector: string; what: string }[],
  runs = 3,
): Promise<FirstContent[]> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS, timeout: 30_000 });
  onCleanup(() => void browser.close().catch(() => {}));
  const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);
  const out: FirstContent[] = [];
  try {
    for (const page of pages) {
      const row: FirstContent = { page: page.name, url: origin + page.path, what: page.what, desktopMs: null, phoneMs: null, desktopRuns: [], phoneRuns: [] };
      for (const phone of [false, true]) {
        for (let i = 0; i < runs; i++) {
          const context = await browser.newContext(
            phone ? { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true } : { viewport: { width: 1350, height: 940 } },
          );
          const tab = await context.newPage();
          try {
            if (phone) {
              const cdp = await context.newCDPSession(tab);
              await cdp.send('Network.enable');
              await cdp.send('Network.emulateNetworkConditions', {
                offline: false,
                latency: 150,
                downloadThroughput: (1.6 * 1024 * 1024) / 8,
                uploadThroughput: (750 * 1024) / 8,
              });
              await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
            }
            // Browser code as text: this file is type-checked without the DOM's types.
            await tab.addInitScript({ content: observeFirst(page.selector) });
            await tab.goto(row.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
            await tab.waitForSelector(page.selector, { state: 'attached', timeout: 60_000 });
            const at = await tab.evaluate<number>(VISIBLE_AT);
            (phone ? row.phoneRuns : row.desktopRuns).push(Math.round(at));
          } catch (err) {
            row.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
          } finally {
            await context.close();
          }
        }
      }
      row.desktopMs = median(row.desktopRuns);
      row.phoneMs = median(row.phoneRuns);
      out.push(row);
    }
  } finally {
    await browser.close();
  }
  return out;
}
