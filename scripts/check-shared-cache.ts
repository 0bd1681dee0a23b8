/**
 * The server behind a real shared cache (issue 32 item 6): Debian's nginx with plain proxy_cache
 * settings that obey the replies' headers, in front of the production build on the demo data.
 *
 * Fails (exit 1) when nginx stores or serves a signed-in user's reply (their name, e-mail or
 * favourites) to anyone else, when anonymous reads are not served from its cache, or when a
 * visitor does not see a new comment within PROMISED_VISIBLE_S. Prints the throughput of the
 * feed and a business page direct and through nginx (target ≥ 5×; printed, not enforced: CI
 * machines are shared). Run by scripts/check-shared-cache.sh, which installs nginx.
 *
 * Env: DIST (default ./dist), NGINX (default nginx), SECONDS_PER_ROW (default 5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Every file under dir (nginx's cache), read as text. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...filesUnder(file));
    else out.push(readFileSync(file, 'latin1'));
  }
  return out;
}

async function rps(url: string, headers: Record<string, string>): Promise<{ rps: number; p99: number; non2xx: number }> {
  const result = await autocannon({ url, connections: 20, duration: secondsPerRow, headers });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

async function main() {
  const appPort = await freePort();
  const cachePort = await freePort();
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir);
  const app = `http://127.0.0.1:${appPort}`;
  const cached = `http://127.0.0.1:${cachePort}`;
  run(process.execPath, [path.join(dist, 'server', 'index.js')], {
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
    access_log off;
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
        }
    }
}
`,
  );
  run(nginxBin, ['-p', work, '-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'logs', 'error.log'), '-g', 'daemon off;']);
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
  const publicPaths = ['/api/comment?limit=12', `/api/business/${business.id}`, '/api/business?limit=24', `/business/${business.id}`, '/', '/notifications'];
  const personalPaths = ['/api/users/auth/check', `/api/users/${userId}/favoriteBusinesses`, '/trpc/users.me', '/api/notifications'];
  const leaks = (body: string) => body.includes(marker) || body.includes(email);

  // 1. The signed-in user asks first (twice: a second ask would be a hit if it were stored).
  for (const headers of signedIn)
    for (const p of [...publicPaths, ...personalPaths])
      for (let i = 0; i < 2; i++) {
        const res = await fetch(cached + p, { headers: { ...headers, 'accept-encoding': 'identity' } });
        await res.arrayBuffer();
        const status = res.headers.get('x-cache-status');
        if (status === 'HIT' || status === 'STALE' || status === 'UPDATING') fail(`${p}: a signed-in request was answered from nginx's cache (${status})`);
        if (res.ok && !/private, no-store/.test(res.headers.get('cache-control') ?? ''))
          fail(`${p}: a signed-in reply says ${res.headers.get('cache-control')}`);
      }
  // 2. Visitors then ask for the same: never the user's data, twice each (miss, then hit).
  const statuses = new Map<string, string[]>();
  for (const p of [...publicPaths, ...personalPaths])
    for (let i = 0; i < 2; i++) {
      const res = await fetch(cached + p, { headers: { 'accept-encoding': 'identity' } });
      const body = await res.text();
      statuses.set(p, [...(statuses.get(p) ?? []), res.headers.get('x-cache-status') ?? '-']);
      if (leaks(body)) fail(`${p}: a visitor was served the signed-in user's name or e-mail`);
    }
  for (const p of publicPaths)
    if (statuses.get(p)?.[1] !== 'HIT') fail(`${p}: a visitor's second read was not served from nginx's cache (${statuses.get(p)?.join(', ')})`);
  for (const p of personalPaths) if (statuses.get(p)?.includes('HIT')) fail(`${p}: a personal path was a cache hit for a visitor`);
  // 3. Nothing of the user's is stored in nginx's cache.
  if (filesUnder(cacheDir).some(leaks)) fail("nginx's cache directory holds a reply with the signed-in user's name or e-mail");
  console.log(
    `privacy: ${publicPaths.length + personalPaths.length} paths asked signed in (cookie, bearer) and then as a visitor; visitor cache statuses: ${[...statuses].map(([p, s]) => `${p} ${s.join('/')}`).join('; ')}`,
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

  // 5. Throughput, direct and through nginx, as a browser asks (compressed).
  const browser = { 'accept-encoding': 'gzip, deflate, br' };
  const rows: string[] = [];
  for (const [name, p] of [
    ['feed, first page', '/api/comment?limit=12'],
    ['one business', `/api/business/${business.id}`],
    ['business page (HTML)', `/business/${business.id}`],
  ] as const) {
    const direct = await rps(app + p, browser);
    const viaNginx = await rps(cached + p, browser);
    const ratio = viaNginx.rps / direct.rps;
    rows.push(
      `${name.padEnd(22)} | ${direct.rps.toFixed(0).padStart(7)} /s p99 ${String(direct.p99).padStart(3)} ms | ${viaNginx.rps.toFixed(0).padStart(7)} /s p99 ${String(viaNginx.p99).padStart(3)} ms | ${ratio.toFixed(2).padStart(5)}× ${ratio >= 5 ? 'MEETS' : 'MISSES'} ≥ 5×`,
    );
    if (direct.non2xx || viaNginx.non2xx) fail(`${p}: non-2xx replies under load (direct ${direct.non2xx}, nginx ${viaNginx.non2xx})`);
  }
  console.log(`\nthroughput (autocannon, 20 connections, ${secondsPerRow} s each; ${os.cpus().length} cores shared by server, nginx and load)`);
  console.log(`${'GET'.padEnd(22)} | ${'direct to the server'.padEnd(26)} | ${'through nginx proxy_cache'.padEnd(26)} | ratio`);
  for (const r of rows) console.log(r);
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
