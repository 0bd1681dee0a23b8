/** Child processes of the bench: spawned, watched and always stopped, also on Ctrl-C. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const children = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function onCleanup(fn: () => void): void {
  cleanups.push(fn);
}

/** Kills every child this process started (by its own pid, never by name) and runs cleanups. */
export function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  while (cleanups.length) {
    try {
      cleanups.pop()!();
    } catch {
      // Best effort: a cleanup that fails must not keep the others from running.
    }
  }
}

let installed = false;
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping child processes`);
      killAll();
      process.exit(130);
    });
  }
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  return track(spawn(command, args, options));
}

/** Stops a child gracefully, then for sure after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type HttpReply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * A plain request without Accept-Encoding, like autocannon sends, so the size recorded for the
 * baseline is the size the load test really transfers.
 */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number } = {},
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, timeout: options.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Polls `url` until it answers 200; resolves with the time waited, rejects at the deadline or if the child exits. */
export async function waitForOk(url: string, child: ChildProcess | null, timeoutMs: number): Promise<number> {
  const started = performance.now();
  const deadline = started + timeoutMs;
  while (performance.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`process exited (code ${child.exitCode}) before ${url} answered`);
    try {
      const reply = await httpRequest(url, { timeoutMs: 1000 });
      if (reply.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

export function rssKb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Samples a process's resident memory every `intervalMs`. Windows record the peak of a phase
 * (reads, writes, uploads) apart from the peak of the whole run.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  peakKb = 0;
  private windows = new Map<string, number>();
  private open = new Set<string>();

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 50,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  sample(): number | null {
    const kb = rssKb(this.pid);
    if (kb === null) return null;
    this.peakKb = Math.max(this.peakKb, kb);
    for (const name of this.open) this.windows.set(name, Math.max(this.windows.get(name) ?? 0, kb));
    return kb;
  }

  beginWindow(name: string): void {
    this.open.add(name);
    this.sample();
  }

  endWindow(name: string): number {
    this.sample();
    this.open.delete(name);
    return this.windows.get(name) ?? 0;
  }

  windowPeakKb(name: string): number {
    return this.windows.get(name) ?? 0;
  }
}

export type CpuSnapshot = { total: number; busy: number; ours: number };

/** CPU time (user + system) a process has used so far, in clock ticks (USER_HZ, 100 a second on Linux). */
function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * Machine-wide CPU time and the part of it spent by our own processes (bench, load runner,
 * servers). The difference between two snapshots tells how much other work shared the cores
 * while a number was measured — on a shared 2-core machine that explains a bad run.
 */
const TICKS_PER_SECOND = 100;

/** Starts measuring how many cores `pid` keeps busy; the returned function tells the average since. */
export function coresOf(pid: number): () => number {
  const ticks = processTicks(pid);
  const start = performance.now();
  return () => {
    const seconds = (performance.now() - start) / 1000;
    return seconds > 0 ? (processTicks(pid) - ticks) / TICKS_PER_SECOND / seconds : 0;
  };
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = v[3] + v[4];
  return { total, busy: total - idle, ours: pids.reduce((n, pid) => n + processTicks(pid), 0) };
}

/** Average number of cores other processes kept busy between two snapshots. */
export function foreignCores(a: CpuSnapshot, b: CpuSnapshot, cores: number): number {
  const total = b.total - a.total;
  if (total <= 0) return 0;
  return Math.max(0, ((b.busy - a.busy - (b.ours - a.ours)) / total) * cores);
}

/**
 * Waits (at most maxWaitMs) until other processes keep less than `threshold` cores busy over a
 * one-second window; returns what it last saw. On a shared machine this moves a measurement to
 * a quiet moment instead of reporting someone else's compile as our latency.
 */
export async function waitForQuiet(pids: () => number[], cores: number, maxWaitMs: number, threshold = 0.3): Promise<number> {
  const deadline = performance.now() + maxWaitMs;
  for (;;) {
    const a = cpuSnapshot(pids());
    await new Promise((r) => setTimeout(r, 1000));
    const other = foreignCores(a, cpuSnapshot(pids()), cores);
    if (other < threshold || performance.now() >= deadline) return other;
  }
}
