/**
 * CPU profile of one page load as a throttled phone (4× CPU, 412×823), self time summed by
 * function and by chunk. For an unminified build (`vite build --minify false`) the names are
 * the components' own (decision 021):
 *   npx tsx scripts/bench/profile-page.ts URL [top=40]
 */
import { CHROMIUM, CHROME_FLAGS } from './frontend';

const url = process.argv[2];
const top = Number(process.argv[3] ?? 40);
const { chromium } = await import('@playwright/test');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'load' });
await page.waitForTimeout(4000);
const { profile } = (await cdp.send('Profiler.stop')) as {
  profile: {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
  };
};
await browser.close();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
// Inclusive time too: parent links.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byFn = new Map<string, number>();
const byUrl = new Map<string, number>();
const incl = new Map<string, number>();
for (const [id, ms] of self) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const file = f.url.replace(/^https?:\/\/[^/]+\/(assets\/)?/, '') || '(native)';
  const key = `${f.functionName || '(anon)'} ${file}:${f.lineNumber}`;
  byFn.set(key, (byFn.get(key) ?? 0) + ms);
  byUrl.set(file, (byUrl.get(file) ?? 0) + ms);
  const seen = new Set<string>();
  for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
    const pf = byId.get(p)!.callFrame;
    const name = pf.functionName;
    if (!name || (!process.env.ALL && !/^[A-Z]/.test(name)) || seen.has(name)) continue;
    seen.add(name);
    incl.set(name, (incl.get(name) ?? 0) + ms);
  }
}
const show = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n## ${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${v.toFixed(0).padStart(6)} ms  ${k}`);
};
show('self time by chunk', byUrl, 15);
show('self time by function', byFn, top);
show('inclusive time by capitalised function (components)', incl, top);
