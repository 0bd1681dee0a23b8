import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatDistanceToNow } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { sv } from 'date-fns/locale/sv';
import { describe, expect, it } from 'vitest';
import { defaultLocale } from './date-fallback-locale';

const clientDir = path.join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [file] : [];
  });
}

// docs/decisions/013: the build swaps date-fns's en-US fallback locale for Swedish. That is only
// safe while every date-fns call in the client names its locale.
describe("date-fns's fallback locale (vite.config.ts, dateFnsFallbackLocale)", () => {
  it('is the Swedish locale the first page loads anyway', () => {
    expect(defaultLocale).toBe(sv);
  });

  it('is never reached: every date-fns call in the client passes a locale', () => {
    const calls: string[] = [];
    for (const file of sources(clientDir)) {
      const text = readFileSync(file, 'utf8');
      const imported = /import\s*\{([^}]*)\}\s*from\s*'date-fns'/.exec(text)?.[1];
      if (!imported) continue;
      const functions = imported
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '));
      for (const fn of functions) {
        for (const m of text.matchAll(new RegExp(`\\b${fn}\\(([^;]*?)\\);?$`, 'gm'))) calls.push(`${path.relative(clientDir, file)}: ${fn}(${m[1]})`);
      }
    }
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call, call).toMatch(/\blocale\b/);
  });

  it('gives what date-fns gives with the locale named (the app passes sv or en-GB)', () => {
    const then = new Date(Date.now() - 5 * 60_000);
    expect(formatDistanceToNow(then, { addSuffix: true, locale: defaultLocale })).toBe(formatDistanceToNow(then, { addSuffix: true, locale: sv }));
    expect(formatDistanceToNow(then, { addSuffix: true, locale: enGB })).toMatch(/5 minutes ago/);
  });
});
