#!/usr/bin/env node
// Proves that the native modules load from their prebuilt binaries after `npm ci --ignore-scripts`
// (the Dockerfile installs without running install scripts, so nothing compiles): each one is
// loaded and does one small piece of real work. `--build` also checks the build tools (esbuild,
// Vite's rolldown), which only the build stage has. Exits 1 with one line per failure.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const checks = {
  'better-sqlite3': async () => {
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    const { version } = db.prepare('SELECT sqlite_version() AS version').get();
    db.close();
    return `SQLite ${version}`;
  },
  argon2: async () => {
    const argon2 = require('argon2');
    const hash = await argon2.hash('check', { memoryCost: 1024, timeCost: 1 });
    if (!(await argon2.verify(hash, 'check'))) throw new Error('hash does not verify');
    return 'hash and verify';
  },
  sharp: async () => {
    const sharp = require('sharp');
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const { width } = await sharp(png).metadata();
    return `libvips ${sharp.versions.vips}, ${width}px image`;
  },
};
if (process.argv.includes('--build')) {
  checks.esbuild = async () => {
    const esbuild = require('esbuild');
    const { code } = esbuild.transformSync('let x: number = 1', { loader: 'ts' });
    if (!code.includes('let x = 1')) throw new Error(`unexpected output ${code}`);
    return `esbuild ${esbuild.version}`;
  };
  checks.rolldown = async () => {
    const { VERSION } = await import(require.resolve('rolldown'));
    return `rolldown ${VERSION}`;
  };
}

let failed = false;
for (const [name, check] of Object.entries(checks)) {
  try {
    console.log(`${name}: ${await check()}`);
  } catch (err) {
    failed = true;
    console.error(`${name} does not load without compiling: ${String(err?.message ?? err).split('\n')[0]}`);
  }
}
process.exit(failed ? 1 : 0);
