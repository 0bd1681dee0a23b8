import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Code that reaches into a framework's internals (lib/prepared.ts: Drizzle's prepared select;
 * trpc/procedures.ts: appRouter._def; trpc/plain-queries.ts: tRPC's reply envelope; the raw
 * request path before Fastify) holds only for the version it was written and tested against.
 * Those packages are pinned exactly, so an upgrade is a deliberate edit that reruns the
 * differential tests (prepared.test.ts, trpc/*.test.ts), never a silent `^` range (issue 28, item 8).
 */
const PINNED = ['drizzle-orm', '@trpc/server', '@trpc/client', '@trpc/tanstack-react-query', 'fastify'];

describe('framework packages whose internals the code reads', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { version?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }>;
  };

  it.each(PINNED)('%s is pinned to one exact version, the one locked and installed', (name) => {
    const wanted = pkg.dependencies[name] ?? pkg.devDependencies[name];
    expect(wanted, name).toMatch(/^\d+\.\d+\.\d+$/);
    const root = lock.packages[''];
    expect(root.dependencies?.[name] ?? root.devDependencies?.[name]).toBe(wanted);
    expect(lock.packages[`node_modules/${name}`]?.version).toBe(wanted);
    const installed = JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string };
    expect(installed.version).toBe(wanted);
  });
});
