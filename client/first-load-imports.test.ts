import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What a first page load runs, by its static imports: the entry, the start-up it always loads,
 * the four pages a visitor lands on, and the English catalog. Nothing of it may import zod (about
 * 24 KB of gzip, and its schemas built at load): decision 021, "Nothing on a first page loads zod".
 * A catalog importing one constant from a file of zod schemas once put all of zod back on every
 * page (home 129.5 → 161 KB in the bench's page weights).
 */
const root = path.resolve(import.meta.dirname, '..');
const FIRST_LOAD = [
  'client/main.tsx',
  'client/start.tsx',
  'client/pages/home.tsx',
  'client/pages/directory.tsx',
  'client/pages/business-detail.tsx',
  'client/pages/comment.tsx',
  'client/i18n/en-first.ts',
];
const FORBIDDEN = ['zod'];

/** The modules a file imports for their values (not `import type`, not `import()`), as written. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      // `import { type A, type B } from` imports nothing at run time.
      const named = clause?.namedBindings;
      if (clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)) continue;
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null; // CSS, JSON and the like
}

/** Every package the first load reaches, each with one chain of files that reaches it. */
function packagesReached(entries: string[]): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const queue: Array<{ file: string; chain: string[] }> = entries.map((e) => ({ file: path.join(root, e), chain: [e] }));
  while (queue.length > 0) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of valueImports(file)) {
      if (specifier.startsWith('.')) {
        const next = resolveLocal(file, specifier);
        if (next) queue.push({ file: next, chain: [...chain, path.relative(root, next)] });
      } else {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (!packages.has(name)) packages.set(name, chain);
      }
    }
  }
  return packages;
}

describe('first page load', () => {
  it('imports no zod from the entry, start-up, the four landing pages or the English catalog', () => {
    const reached = packagesReached(FIRST_LOAD);
    const bad = FORBIDDEN.filter((name) => reached.has(name)).map((name) => `${name} ← ${[...reached.get(name)!].reverse().join(' ← ')}`);
    expect(bad).toEqual([]);
    // The walk itself works: it finds what these files do import.
    expect(reached.has('react')).toBe(true);
    expect(reached.has('@tanstack/react-query')).toBe(true);
  });

  it('would see a catalog that imports a value from a file of zod schemas', () => {
    // What put zod back on every page: a catalog importing threadCountText from schemas/notifications.
    const reached = packagesReached(['shared/schemas/notifications.ts']);
    expect(reached.has('zod')).toBe(true);
  });
});
