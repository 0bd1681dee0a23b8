import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sv } from '../../shared/i18n/sv';
import { en } from '../../shared/i18n/en';
import { addMessages, LAZY_NAMESPACES, PAGE_NAMESPACES, firstParts, lazyParts, svFirst, type LazyNamespace } from './catalogs';
import { enFirst } from './en-first';

// docs/decisions/016: the namespaces in LAZY_NAMESPACES are not in the first chunk; a page gets
// them from PAGE_NAMESPACES before it renders. A component that reads `t.<namespace>` of one
// that its page does not load would throw (or show nothing) — these tests read the sources to
// make sure none does.

const clientDir = path.join(import.meta.dirname, '..');
const NAMESPACE_USE = new RegExp(`\\bt\\.(${Object.keys(sv).join('|')})\\b`, 'g');

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const file of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(file) && existsSync(file)) return file;
  }
  return null;
}

/** The namespaces `t.<namespace>` names in `entry` and every module it imports (statically or not), by namespace. */
function namespacesOf(entry: string, skip: (file: string) => boolean = () => false): Map<string, Set<string>> {
  const seen = new Set<string>();
  const used = new Map<string, Set<string>>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || skip(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, ns] of source.matchAll(NAMESPACE_USE)) {
      if (!used.has(ns)) used.set(ns, new Set());
      used.get(ns)!.add(path.relative(clientDir, file));
    }
    for (const [, spec] of source.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const target = resolve(file, spec);
      // The catalogs themselves, and the loading layer, are not users of a namespace.
      if (target && !target.includes(`${path.sep}i18n${path.sep}`)) stack.push(target);
    }
  }
  return used;
}

const lazy = new Set<string>(LAZY_NAMESPACES);
const pages = readdirSync(path.join(clientDir, 'pages')).filter((name) => name.endsWith('.tsx'));

describe('catalog namespaces outside the first chunk', () => {
  it('are not used by the layout (everything the app renders around its pages)', () => {
    const used = namespacesOf(path.join(clientDir, 'start.tsx'), (file) => file.includes(`${path.sep}pages${path.sep}`));
    expect(used.size).toBeGreaterThan(0);
    const offending = [...used].filter(([ns]) => lazy.has(ns)).map(([ns, files]) => `${ns}: ${[...files].join(', ')}`);
    expect(offending).toEqual([]);
  });

  it.each(pages)('used by %s are loaded with it (PAGE_NAMESPACES)', (file) => {
    const page = file.replace(/\.tsx$/, '') as keyof typeof PAGE_NAMESPACES;
    const used = [...namespacesOf(path.join(clientDir, 'pages', file)).keys()].filter((ns) => lazy.has(ns)).sort();
    const missing = used.filter((ns) => !(PAGE_NAMESPACES[page] ?? []).includes(ns as LazyNamespace));
    expect(missing, `add them to PAGE_NAMESPACES['${page}'] in client/i18n/catalogs.ts`).toEqual([]);
  });

  it('name pages that exist', () => {
    for (const page of Object.keys(PAGE_NAMESPACES)) expect(pages).toContain(`${page}.tsx`);
  });
});

describe('the split catalogs', () => {
  const first = (t: object) => Object.keys(t).filter((ns) => !lazy.has(ns));

  it('are the whole catalog once every part is loaded, in both languages', async () => {
    for (const [lang, whole, part] of [
      ['sv', sv, svFirst()],
      ['en', en, enFirst()],
    ] as const) {
      const t = part.t as unknown as Record<string, unknown> & { messages: Record<string, string> };
      expect(first(t).sort(), lang).toEqual(first(whole).sort());
      for (const ns of LAZY_NAMESPACES) expect(t[ns], `${lang} ${ns} before it loads`).toBeUndefined();
      // In the reverse order: the merged messages must not depend on the order pages load them.
      for (const ns of [...LAZY_NAMESPACES].reverse()) {
        const loaded = await lazyParts[lang][ns]();
        t[ns] = loaded.ns;
        addMessages(part, ns, loaded.messages);
      }
      expect(t, lang).toEqual(whole);
    }
  });

  it('give the first part of each language', async () => {
    expect((await firstParts.sv()).t.common).toBe(sv.common);
    expect((await firstParts.en()).t.common).toBe(en.common);
  });
});
