import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `npm start` (scripts/start.sh) in a stand-in project: package.json's build only leaves a mark,
 * and dist/server/index.js is a small server that reports the SIGTERM it gets. Real npm, real
 * shell, real signals.
 */
let dir: string;

const STAND_IN_SERVER = `
process.on('SIGTERM', () => { process.stdout.write('server got SIGTERM\\n'); process.exit(0); });
process.stdout.write('started\\n');
setInterval(() => {}, 1000);
`;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-start-'));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync('scripts/start.sh', path.join(dir, 'scripts/start.sh'));
  for (const folder of ['client', 'server', 'db', 'dist/server']) mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, 'server/app.ts'), '// source\n');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'stand-in',
      private: true,
      scripts: { start: 'exec sh scripts/start.sh', build: "node -e \"require('fs').writeFileSync('built.txt', 'yes')\"" },
    }),
  );
  writeFileSync(path.join(dir, 'dist/server/index.js'), STAND_IN_SERVER);
  // Every source is older than the build.
  const past = new Date(Date.now() - 60_000);
  for (const file of ['scripts/start.sh', 'server/app.ts', 'package.json', 'client', 'server', 'db', 'scripts']) utimesSync(path.join(dir, file), past, past);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs npm start until the stand-in server is up, sends SIGTERM to npm, and waits for the end. */
async function startAndStop() {
  const npm = spawn('npm', ['start', '--silent'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('started')) resolve();
    });
    npm.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then(() => reject(new Error(`npm start ended early:\n${out}`)));
  });
  npm.kill('SIGTERM');
  await exited;
  // The server's own output arrives through the same pipe, which closes when it has exited.
  await new Promise<void>((resolve) => (npm.stdout.readableEnded ? resolve() : npm.stdout.on('end', resolve)));
  return out;
}

describe('npm start', { timeout: 30_000 }, () => {
  it('passes SIGTERM on to the server and skips the build while dist/ is up to date', async () => {
    const out = await startAndStop();
    expect(out).toContain('server got SIGTERM');
    expect(existsSync(path.join(dir, 'built.txt'))).toBe(false);
  });

  it('builds first when a source is newer than the build', async () => {
    writeFileSync(path.join(dir, 'server/app.ts'), '// changed\n');
    const future = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, 'server/app.ts'), future, future);
    const out = await startAndStop();
    expect(existsSync(path.join(dir, 'built.txt'))).toBe(true);
    expect(out).toContain('server got SIGTERM');
  });
});
