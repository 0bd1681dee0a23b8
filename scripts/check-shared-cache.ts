/**
 * The server behind a real shared cache (issue 32 item 6): Debian's nginx with plain proxy_cache
 * settings that obey the replies' headers, in front of the production build on the demo data.
 *
 * Fails (exit 1) when nginx stores or serves a signed-in user's reply (their name, e-mail or
 * favourites) to anyone else, when anonymous reads are not served from its cache, or when a
 * visitor does not see a new comment within PROMISED_VISIBLE_S. Measures the feed and a business
 * page direct and through nginx, and fails when fewer than 95 % of the visitor reads under load are
 * answered from nginx's cache (HIT, or STALE/UPDATING while it refreshes); prints the rates, the
 * requests per CPU-second of what serves them and the ratio (target ≥ 5×; printed, not enforced:
 * CI machines are shared and the load generator runs on the same cores). Run by scripts/check-shared-cache.sh, which installs nginx and wrk.
 *
 * Env: DIST (default ./dist), NGINX (default nginx), WRK (default wrk; autocannon without it),
 * SECONDS_PER_ROW (default 5), NGINX_LOCATION_EXTRA (settings added to the cached location, to see
 * the check fail with a cache that disobeys: `proxy_ignore_headers Cache-Control Set-Cookie Vary;
 * proxy_cache_valid 200 1m;`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { openDb } from '../db/client';
import { branches, businesses, favorites, users } from '../db/schema';
import { newId } from '../server/lib/ids';
import { PROMISED_VISIBLE_S } from '../server/plugins/shared-cache';
import { createSession } from '../server/services/accounts/sessions';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.env.DIST ?? path.join(repoRoot, 'dist'));
const nginxBin = process.env.NGINX ?? 'nginx';
const secondsPerRow = Number(process.env.SECONDS_PER_ROW ?? 5);
const work = mkdtempSync(path.join(os.tmpdir(), 'recensera-shared-cache-'));
const children: ChildProcess[] = [];
const failures: string[] = [];
const fail = (what: string) => {
  failures.push(what);
  console.log(`FAIL: ${what}`);
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(cmd, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.on('exit', (code) => {
    if (code && !stopping) console.log(`${cmd} exited with ${code}:\n${output}`);
  });
  children.push(child);
  return child;
}
let stopping = false;

/**
 * Every file under dir (nginx's cache) as text: its key and headers, and its body decoded when it
 * was stored compressed (a browser asks for brotli), so a stored personal reply cannot hide.
 */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...filesUnder(file));
    else out.push(readCacheFile(readFileSync(file)));
  }
  return out;
}
function readCacheFile(bytes: Buffer): string {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return bytes.toString('latin1');
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const body = bytes.subarray(headEnd + 4);
  const encoding = /^content-encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  try {
    if (encoding === 'br') return head + zlib.brotliDecompressSync(body).toString('utf8');
    if (encoding === 'gzip') return head + zlib.gunzipSync(body).toString('utf8');
    if (encoding === 'deflate') return head + zlib.inflateSync(body).toString('utf8');
  } catch {
    // not what it says: read it as it is
  }
  return head + body.toString('utf8');
}

/** Clock ticks of user + system time a process has used so far (Linux /proc; 0 elsewhere). */
function cpuTicks(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/** nginx's worker processes (children of the master we started). */
function childrenOf(pid: number | undefined): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n)))
    try {
      if (readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  return out;
}

type Load = { rps: number; requests: number; p99: number; non2xx: number; loadCpuS: number };
const wrkBin = process.env.WRK ?? 'wrk';
const haveWrk = (() => {
  try {
    execFileSync(wrkBin, ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version prints its banner and exits 1
    return (err as { status?: number }).status === 1;
  }
})();
const connections = 20;

/**
 * Throughput of one URL: wrk (C, one thread, keep-alive; installed from Debian by the .sh) when
 * there, else autocannon in this process. loadCpuS is what the load generator itself used.
 */
async function load(url: string, headers: Record<string, string>): Promise<Load> {
  if (!haveWrk) {
    const before = process.cpuUsage();
    const r = await autocannon({ url, connections, duration: secondsPerRow, headers });
    const used = process.cpuUsage(before);
    return { rps: r.requests.average, requests: r.requests.total, p99: r.latency.p99, non2xx: r.non2xx, loadCpuS: (used.user + used.system) / 1e6 };
  }
  const args = ['-t1', `-c${connections}`, `-d${secondsPerRow}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  // bash's `times` prints the CPU its children (wrk) used.
  const out = execFileSync('bash', ['-c', '"$@"; times', 'load', wrkBin, ...args], { encoding: 'utf8' });
  const ms = (v: string, unit: string) => Number(v) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  const times = out
    .trim()
    .split('\n')
    .at(-1)!
    .split(/\s+/)
    .map((t) => {
      const m = /(\d+)m([\d.]+)s/.exec(t);
      return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
    });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    p99: p99 ? Math.round(ms(p99[1], p99[2]) * 10) / 10 : NaN,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: .*?(\d+) timeout/.exec(out)?.[1] ?? 0),
    loadCpuS: times[0] + times[1],
  };
}

/** Runs the load while counting the CPU the given processes used. */
async function measure(url: string, headers: Record<string, string>, pids: number[]) {
  const before = pids.map(cpuTicks);
  const result = await load(url, headers);
  const used = pids.map((pid, i) => (cpuTicks(pid) - before[i]) / ticksPerSecond);
  // serverCpuS: all of them; siteCpuS: the last, the site's own process.
  return { ...result, serverCpuS: used.reduce((a, b) => a + b, 0), siteCpuS: used.at(-1)! };
}

async function main() {
  const appPort = await freePort();
  const cachePort = await freePort();
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir);
  const app = `http://127.0.0.1:${appPort}`;
  const cached = `http://127.0.0.1:${cachePort}`;
  const server = run(process.execPath, [path.join(dist, 'server', 'index.js')], {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: cached,
    CLIENT_DIR: path.join(dist, 'client'),
    MIGRATIONS_DIR: path.join(dist, 'db', 'migrations'),
    SMTP_URL: '',
    RATE_LIMITS: '0',
    SPAM_RULES: '0',
    CONNECTIONS_PER_IP: '0',
  });
  await waitFor(`${app}/healthz`, 120_000);

  // nginx as its documentation configures a cache: nothing overrides what the replies say.
  const cacheDir = path.join(work, 'cache');
  mkdirSync(path.join(work, 'logs'));
  writeFileSync(
    path.join(work, 'nginx.conf'),
    // Started as root, nginx's workers would run as www-data, who may not write in our temp dir.
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${work}/nginx.pid;
error_log ${work}/logs/error.log warn;
worker_processes auto;
events { worker_connections 1024; }
http {
    # Hits open the same few cache files again and again: keep their descriptors (~20 % less CPU
    # per hit here). sendfile stays off (nginx's default; Debian's nginx.conf turns it on), which
    # is ~10 % cheaper for replies of a few KB.
    open_file_cache max=1000 inactive=60s;
    # Only replies not served from the cache are logged, to count the HIT share per row.
    log_format cachestatus '$upstream_cache_status $request_uri';
    map $upstream_cache_status $not_a_hit { HIT 0; default 1; }
    access_log ${work}/logs/not-hit.log cachestatus if=$not_a_hit;
    client_body_temp_path ${work}/body;
    proxy_temp_path ${work}/proxy;
    fastcgi_temp_path ${work}/fastcgi;
    uwsgi_temp_path ${work}/uwsgi;
    scgi_temp_path ${work}/scgi;
    proxy_cache_path ${cacheDir} levels=1:2 keys_zone=recensera:10m max_size=200m inactive=10m use_temp_path=off;
    upstream recensera { server 127.0.0.1:${appPort}; keepalive 16; }
    server {
        listen 127.0.0.1:${cachePort};
        location / {
            proxy_pass http://recensera;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_cache recensera;
            proxy_cache_revalidate on;
            proxy_cache_lock on;
            proxy_cache_background_update on;
            proxy_cache_use_stale updating error timeout;
            add_header X-Cache-Status $upstream_cache_status always;
            ${process.env.NGINX_LOCATION_EXTRA ?? ''}
        }
    }
}
`,
  );
  const nginx = run(nginxBin, ['-p', work, '-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'logs', 'error.log'), '-g', 'daemon off;']);
  await waitFor(`${cached}/healthz`, 20_000);

  // A signed-in user with a name, an address and a favourite no one else may be shown.
  const db = openDb(path.join(dataDir, 'recensera.sqlite'));
  const business = db
    .select({ id: businesses.id, location: branches.location })
    .from(businesses)
    .innerJoin(branches, eq(branches.businessId, businesses.id))
    .limit(1)
    .get();
  if (!business) throw new Error('the demo data has no business with a branch');
  const userId = newId();
  const marker = `Hemlig${userId.slice(0, 6)}`;
  const email = `${marker.toLowerCase()}@example.com`;
  const now = Date.now();
  db.insert(users)
    .values({
      id: userId,
      email,
      passwordHash: 'x',
      firstName: marker,
      lastName: 'Privat',
      emailConfirmed: true,
      favoritesCount: 1,
      language: 'sv',
      nameDisplay: 'full',
      createdAt: now,
      updatedAt: now,
    })
    .run();
  db.insert(favorites).values({ userId, businessId: business.id, createdAt: now }).run();
  const { token } = createSession(db, userId);
  db.$client.close();
  const signedIn = [{ cookie: `session=${token}` }, { authorization: `Bearer ${token}` }];

  // Pages are the same shell for every visitor (the notifications page included: it asks to sign in).
  // The client's tRPC feed read, as its batch link sends it.
  const trpcFeed = `/trpc/comments.feed?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {} }))}`;
  const publicPaths = [
    '/api/comment?limit=12',
    trpcFeed,
    `/api/business/${business.id}`,
    '/api/business?limit=24',
    `/business/${business.id}`,
    '/',
    '/notifications',
  ];
  const personalPaths = ['/api/users/auth/check', `/api/users/${userId}/favoriteBusinesses`, '/trpc/users.me', '/api/notifications'];
  const leaks = (body: string) => body.includes(marker) || body.includes(email);

  // Each asked plain and as a browser asks (compressed: fetch decodes it), each its own copy.
  const encodings = [
    ['plain', 'identity'],
    ['br', 'gzip, deflate, br'],
  ] as const;
  // 1. The signed-in user asks first (twice: a second ask would be a hit if it were stored).
  for (const headers of signedIn)
    for (const p of [...publicPaths, ...personalPaths])
      for (const [, enc] of encodings)
        for (let i = 0; i < 2; i++) {
          const res = await fetch(cached + p, { headers: { ...headers, 'accept-encoding': enc } });
          await res.arrayBuffer();
          const status = res.headers.get('x-cache-status');
          if (status === 'HIT' || status === 'STALE' || status === 'UPDATING') fail(`${p}: a signed-in request was answered from nginx's cache (${status})`);
          if (res.ok && !/private, no-store/.test(res.headers.get('cache-control') ?? ''))
            fail(`${p}: a signed-in reply says ${res.headers.get('cache-control')}`);
        }
  // 2. Visitors then ask for the same: never the user's data, twice each (miss, then hit).
  const statuses = new Map<string, string[]>();
  for (const p of [...publicPaths, ...personalPaths])
    for (const [label, enc] of encodings)
      for (let i = 0; i < 2; i++) {
        const res = await fetch(cached + p, { headers: { 'accept-encoding': enc } });
        const body = await res.text();
        const key = `${p} ${label}`;
        statuses.set(key, [...(statuses.get(key) ?? []), res.headers.get('x-cache-status') ?? '-']);
        if (leaks(body)) fail(`${key}: a visitor was served the signed-in user's name or e-mail`);
      }
  for (const p of publicPaths)
    for (const [label] of encodings)
      if (statuses.get(`${p} ${label}`)?.[1] !== 'HIT')
        fail(`${p} ${label}: a visitor's second read was not served from nginx's cache (${statuses.get(`${p} ${label}`)?.join(', ')})`);
  for (const p of personalPaths)
    for (const [label] of encodings) if (statuses.get(`${p} ${label}`)?.includes('HIT')) fail(`${p} ${label}: a personal path was a cache hit for a visitor`);
  // 3. Nothing of the user's is stored in nginx's cache.
  if (filesUnder(cacheDir).some(leaks)) fail("nginx's cache directory holds a reply with the signed-in user's name or e-mail");
  console.log(
    `privacy: ${publicPaths.length + personalPaths.length} paths asked signed in (cookie, bearer) and then as a visitor, plain and compressed; visitor cache statuses: ${[...statuses].map(([p, s]) => `${p} ${s.join('/')}`).join('; ')}`,
  );

  // 4. A new comment reaches a visitor of the cached feed within the promised time.
  await fetch(`${cached}/api/comment?limit=12`).then((r) => r.arrayBuffer());
  const text = `Delad cache ${Date.now()}: nytt omdöme syns snart.`;
  const form = new FormData();
  form.set('text', text);
  form.set('businessLocation', business.location);
  const posted = await fetch(`${cached}/api/comment/create/${encodeURIComponent(business.id)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (posted.status !== 201) fail(`posting a comment through nginx: ${posted.status} ${await posted.text()}`);
  const postedAt = Date.now();
  let seenAfter: number | null = null;
  while (Date.now() - postedAt < (PROMISED_VISIBLE_S + 5) * 1000) {
    const body = await fetch(`${cached}/api/comment?limit=12`).then((r) => r.text());
    if (body.includes(text)) {
      seenAfter = (Date.now() - postedAt) / 1000;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (seenAfter === null || seenAfter > PROMISED_VISIBLE_S + 0.5)
    fail(`a visitor saw the new comment after ${seenAfter ?? 'more than ' + (PROMISED_VISIBLE_S + 5)} s; promised ${PROMISED_VISIBLE_S} s`);
  console.log(`freshness: a visitor of the cached feed saw a new comment after ${seenAfter?.toFixed(1) ?? '-'} s (promised ≤ ${PROMISED_VISIBLE_S} s)`);

  // 5. Throughput, direct and through nginx, as a browser asks (compressed). The direct figure is
  // already the site's own in-process cache (docs/decisions/001); "per CPU-s" is requests per
  // second of CPU used by what serves them (the server; nginx's workers plus the server), which
  // the other load on a shared machine moves far less than wall-clock rates.
  const browser = { 'accept-encoding': 'gzip, deflate, br' };
  const nginxWorkers = childrenOf(nginx.pid);
  const notHitLog = path.join(work, 'logs', 'not-hit.log');
  const logSize = () => {
    try {
      return statSync(notHitLog).size;
    } catch {
      return 0;
    }
  };
  const rows: string[][] = [];
  const ratios: number[] = [];
  for (const [name, p] of [
    ['feed, first page', '/api/comment?limit=12'],
    ['feed, tRPC', trpcFeed],
    ['one business', `/api/business/${business.id}`],
    ['business page (HTML)', `/business/${business.id}`],
  ] as const) {
    const direct = await measure(app + p, browser, [server.pid!]);
    const from = logSize();
    const viaNginx = await measure(cached + p, browser, [...nginxWorkers, server.pid!]);
    const notHits = new Map<string, number>();
    for (const line of readFileSync(notHitLog, 'latin1').slice(from).split('\n'))
      if (line.endsWith(` ${p}`)) notHits.set(line.split(' ')[0], (notHits.get(line.split(' ')[0]) ?? 0) + 1);
    const notHit = [...notHits.values()].reduce((a, b) => a + b, 0);
    const share = (n: number) => (viaNginx.requests ? Math.max(0, n) / viaNginx.requests : 0);
    const hitShare = share(viaNginx.requests - notHit);
    // STALE and UPDATING are answered from the stored copy too (while one request refreshes it).
    const fromCache = share(viaNginx.requests - notHit + (notHits.get('STALE') ?? 0) + (notHits.get('UPDATING') ?? 0));
    const ratio = viaNginx.rps / direct.rps;
    ratios.push(ratio);
    const perCpu = (r: { requests: number; serverCpuS: number }) => (r.serverCpuS > 0 ? r.requests / r.serverCpuS : NaN);
    const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
    rows.push([
      name,
      `${fmt(direct.rps)} (p99 ${direct.p99} ms)`,
      fmt(perCpu(direct)),
      `${fmt(viaNginx.rps)} (p99 ${viaNginx.p99} ms)`,
      fmt(perCpu(viaNginx)),
      `${ratio.toFixed(2)}× ${ratio >= 5 ? 'meets' : 'misses'} ≥ 5×`,
      `${(perCpu(viaNginx) / perCpu(direct)).toFixed(2)}×`,
      `${(hitShare * 100).toFixed(2)} % (${(fromCache * 100).toFixed(2)} %)${notHit ? ` (${[...notHits].map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`,
      `${fmt(viaNginx.siteCpuS * 1000)} ms`,
      `${fmt(direct.requests / direct.loadCpuS)} / ${fmt(viaNginx.requests / viaNginx.loadCpuS)}`,
    ]);
    if (direct.non2xx || viaNginx.non2xx) fail(`${p}: non-2xx replies or timeouts under load (direct ${direct.non2xx}, nginx ${viaNginx.non2xx})`);
    // Nearly every visitor read is nginx's: one refresh per URL every few seconds reaches the site.
    if (fromCache < 0.95) fail(`${p}: only ${(fromCache * 100).toFixed(2)} % of the visitor reads under load were answered from nginx's cache`);
  }
  const load = os.loadavg()[0].toFixed(2);
  console.log(
    `\nthroughput (${haveWrk ? 'wrk, 1 thread' : 'autocannon (wrk not installed)'}, ${connections} connections, ${secondsPerRow} s each; ${os.cpus().length} cores shared by server, nginx and load; load average ${load})`,
  );
  const head = [
    'GET',
    'direct req/s',
    'per CPU-s',
    'via nginx req/s',
    'per CPU-s',
    'ratio',
    'per CPU-s ratio',
    'HIT share (from cache)',
    'site CPU via nginx',
    'load gen per CPU-s',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows])
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join(' | ')
        .trimEnd(),
    );
  console.log(
    `ratio ${ratios.map((r) => r.toFixed(2)).join(' / ')}: wall-clock rates on a shared machine; the load generator runs on the same cores (its own requests per CPU-s in the last column)`,
  );
}

main()
  .catch((err: unknown) => fail(`could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
  .finally(() => {
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    setTimeout(() => {
      if (failures.length) {
        try {
          console.log(`nginx error log:\n${readFileSync(path.join(work, 'logs', 'error.log'), 'utf8').slice(-2000)}`);
        } catch {
          // nginx never started
        }
      }
      rmSync(work, { recursive: true, force: true });
      console.log(failures.length ? `\nshared-cache check FAILED (${failures.length})` : '\nshared-cache check passed');
      process.exit(failures.length ? 1 : 0);
    }, 1500);
  });
