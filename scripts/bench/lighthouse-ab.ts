/**
 * Lighthouse A/B of the four pages against two running servers (decision 021):
 *
 *   npx tsx scripts/bench/lighthouse-ab.ts --a http://127.0.0.1:8293 --b http://127.0.0.1:8294 \
 *     --business ID --comment ID [--runs 3] [--pages home,directory,business,comment] [--out DIR]
 *
 * Runs are alternated (A, B, A, B …) page by page, each in a fresh browser, so both see the same
 * load; every run prints the load average beside its numbers. Per run: performance, TBT, LCP,
 * the script time of each chunk (`bootup-time`), the main thread's work by kind
 * (`mainthread-work-breakdown`) and the long tasks. `--out` keeps each report (and its trace).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM, CHROME_FLAGS } from './frontend';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    business: { type: 'string' },
    comment: { type: 'string' },
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: 'home,directory,business,comment' },
    out: { type: 'string' },
  },
});
if (!values.a || !values.b || !values.business || !values.comment) {
  console.error('usage: --a ORIGIN --b ORIGIN --business ID --comment ID [--runs N] [--pages …] [--out DIR]');
  process.exit(2);
}
const paths: Record<string, string> = {
  home: '/',
  directory: '/business',
  business: `/business/${values.business}`,
  comment: `/comment/${values.comment}`,
};
const lighthouse = (await import('lighthouse')).default;
const launcher = await import('chrome-launcher');
const runs = Number(values.runs);
const variants = [
  ['A', values.a],
  ['B', values.b],
] as const;

type Row = {
  page: string;
  variant: string;
  run: number;
  load: string;
  perf: number;
  tbt: number;
  lcp: number;
  fcp: number;
  scriptMs: number;
  longTasks: number;
  longestMs: number;
  cpuMs: number;
  cpuTbt: number;
  chunks: string;
};

type TraceEvent = { name?: string; ph?: string; pid?: number; tid?: number; dur?: number; tdur?: number; args?: { name?: string } };
/**
 * The renderer main thread's tasks by CPU time (`tdur`), not wall time: on a loaded machine a
 * task's wall time is mostly the thread waiting for a core. `cpuTbt` is what total blocking
 * time would be if each task took its CPU time × 4 (Lighthouse's simulated phone), summed over
 * the whole trace (not only FCP…TTI), so it is comparable between runs whatever the load.
 */
function cpuOfTrace(trace: unknown): { cpuMs: number; cpuTbt: number } {
  const events = (trace as { traceEvents?: TraceEvent[] }).traceEvents ?? [];
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') || !mains.has(key)) continue;
    tasks.set(key, [...(tasks.get(key) ?? []), e]);
  }
  const busiest = [...tasks.values()].sort((x, y) => y.length - x.length)[0] ?? [];
  const ms = busiest.map((e) => (e.tdur ?? 0) / 1000);
  return { cpuMs: Math.round(ms.reduce((s, x) => s + x, 0)), cpuTbt: Math.round(ms.reduce((s, x) => s + Math.max(0, 4 * x - 50), 0)) };
}
const rows: Row[] = [];
const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/assets\//, '');

for (const page of values.pages.split(',')) {
  for (let run = 1; run <= runs; run++) {
    for (const [variant, origin] of run % 2 === 1 ? variants : [...variants].reverse()) {
      const load = os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
      const chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
      try {
        const result = await lighthouse(`${origin}${paths[page]}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        if (!result) throw new Error('no report');
        const lhr = result.lhr;
        const audit = (id: string) => lhr.audits[id];
        type Item = Record<string, unknown>;
        const items = (id: string) => (audit(id)?.details as { items?: Item[] } | undefined)?.items ?? [];
        const boot = items('bootup-time')
          .filter((i) => Number(i.scripting) >= 20)
          .map((i) => `${short(String(i.url))}:${Math.round(Number(i.scripting))}`)
          .join(' ');
        const breakdown = items('mainthread-work-breakdown');
        const scriptMs = breakdown.filter((i) => i.group === 'scriptEvaluation').reduce((s, i) => s + Number(i.duration), 0);
        const tasks = items('long-tasks');
        const trace = (result.artifacts as { Trace?: unknown } | undefined)?.Trace;
        const cpu = trace ? cpuOfTrace(trace) : { cpuMs: NaN, cpuTbt: NaN };
        const row: Row = {
          page,
          variant,
          run,
          load,
          perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          tbt: Math.round(audit('total-blocking-time')?.numericValue ?? NaN),
          lcp: Math.round(audit('largest-contentful-paint')?.numericValue ?? NaN),
          fcp: Math.round(audit('first-contentful-paint')?.numericValue ?? NaN),
          scriptMs: Math.round(scriptMs),
          longTasks: tasks.length,
          longestMs: Math.round(Math.max(0, ...tasks.map((t) => Number(t.duration)))),
          ...cpu,
          chunks: boot,
        };
        rows.push(row);
        console.log(
          `${page} ${variant}#${run} load ${load}: perf ${row.perf} TBT ${row.tbt} LCP ${row.lcp} FCP ${row.fcp} script ${row.scriptMs} ms, main-thread CPU ${row.cpuMs} ms (TBT at 4x CPU ${row.cpuTbt}), long tasks ${row.longTasks} (max ${row.longestMs}) | ${boot}`,
        );
        if (values.out) {
          mkdirSync(values.out, { recursive: true });
          writeFileSync(path.join(values.out, `${page}-${variant}-${run}.json`), JSON.stringify(lhr));
          if (trace) writeFileSync(path.join(values.out, `${page}-${variant}-${run}.trace.json`), JSON.stringify(trace));
        }
      } catch (err) {
        console.log(`${page} ${variant}#${run} load ${load}: failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        chrome.kill();
      }
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
console.log(
  '\n| Page | Variant | Perf (runs) | TBT ms (median) | LCP ms (median) | Script ms (median) | Main-thread CPU ms (median) | TBT at 4x CPU time (median) | Load avg |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const page of values.pages.split(',')) {
  for (const [variant] of variants) {
    const r = rows.filter((x) => x.page === page && x.variant === variant);
    if (!r.length) continue;
    console.log(
      `| ${page} | ${variant} | ${r.map((x) => x.perf).join(', ')} | ${median(r.map((x) => x.tbt))} | ${median(r.map((x) => x.lcp))} | ${median(r.map((x) => x.scriptMs))} | ${median(r.map((x) => x.cpuMs))} | ${median(r.map((x) => x.cpuTbt))} | ${r.map((x) => x.load.split(' ')[0]).join(', ')} |`,
    );
  }
}
