/**
 * The packages esbuild leaves as imports when it bundles the server and the operator commands
 * (scripts/build-to.sh): every dependency and devDependency, as `--packages=external` did, except
 * the ones in BUNDLED, which go into dist/server/index.js.
 *
 * drizzle-orm is bundled because of its 179 KB package.json: Node's ESM loader looks up the package
 * scope of every file it imports, and drizzle-orm's ~100 files each cost a read of that
 * package.json. That was 1.0–1.1 s of a 2.6 s start-up at scale 10 (docs/decisions/024). Nothing
 * else we load imports drizzle-orm (scripts/server-externals.test.ts), so there is one copy of it
 * and its `is()` checks of entity kinds hold.
 *
 *   node scripts/server-externals.ts   prints the esbuild flags, one per package and subpath
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUNDLED: readonly string[] = ['drizzle-orm'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package names left as imports. */
export function externalPackages(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  return names.filter((name) => !BUNDLED.includes(name));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(
    externalPackages()
      .flatMap((name) => [`--external:${name}`, `--external:${name}/*`])
      .join(' '),
  );
}
