import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED, externalPackages } from './server-externals';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Manifest = { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const manifestAt = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** Where Node finds `name` from a package in `from`: its own node_modules, then each one above it. */
function packageDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

describe('the server bundle (scripts/build-to.sh)', () => {
  const app = manifestAt(root);

  it('leaves every package an import but drizzle-orm', () => {
    const all = [...Object.keys(app.dependencies ?? {}), ...Object.keys(app.devDependencies ?? {})];
    expect(BUNDLED).toEqual(['drizzle-orm']);
    expect(externalPackages().sort()).toEqual(all.filter((n) => n !== 'drizzle-orm').sort());
  });

  it('bundles the only copy of drizzle-orm: no package the server loads imports it', () => {
    // Every package the server's dependencies pull in, with their peers; none may depend on a
    // bundled package, or it would load a second copy whose entity kinds ours do not recognise.
    const seen = new Set<string>();
    const queue = Object.keys(app.dependencies ?? {})
      .filter((n) => !BUNDLED.includes(n))
      .map((n) => packageDir(n, root));
    const importers: string[] = [];
    while (queue.length) {
      const dir = queue.pop();
      if (!dir || seen.has(dir)) continue;
      seen.add(dir);
      const m = manifestAt(dir);
      const needs = [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})];
      if (needs.some((n) => BUNDLED.includes(n))) importers.push(m.name);
      for (const n of Object.keys(m.dependencies ?? {})) queue.push(packageDir(n, dir));
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(importers).toEqual([]);
  });
});
