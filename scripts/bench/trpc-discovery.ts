/**
 * Finds the tRPC procedures the bench calls (feed, business search, comment search) in the
 * app's own router, and builds a plausible input from each procedure's zod schema. The routers
 * are written in parallel with the bench, so a missing procedure is reported, never fatal.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Role = 'feed' | 'businessSearch' | 'commentSearch';

export type Found = { role: Role; path: string; input: unknown; how: string } | { role: Role; path: null; reason: string };

/** fillText: also fill optional free-text fields (search roles), which the feed leaves empty. */
export type InputContext = { businessId: string; search: string; limit: number; fillText: boolean };

// Zod 4 keeps its definition under _zod.def; only the parts read here are typed.
type ZodLike = { _zod?: { def: ZodDef; optin?: string } };
type ZodDef = {
  type: string;
  shape?: Record<string, ZodLike>;
  innerType?: ZodLike;
  in?: ZodLike;
  options?: ZodLike[];
  entries?: Record<string, string | number>;
  values?: unknown[];
};

const defOf = (s: unknown): ZodDef | null => (s as ZodLike)?._zod?.def ?? null;

/** Optional fields the bench fills because they choose the list measured; page sizes keep the server's default, as the client does. */
const WANTED_OPTIONAL = /^(filter|sort|order|tab|kind|mode)$/i;
const TEXT_KEY = /query|search|^q$|term|text|title/i;

function sampleValue(schema: unknown, key: string, ctx: InputContext): unknown {
  const def = defOf(schema);
  if (!def) return undefined;
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(def.shape ?? {})) {
        const optional = field._zod?.optin === 'optional';
        if (optional && !WANTED_OPTIONAL.test(k) && !(ctx.fillText && TEXT_KEY.test(k))) continue;
        const v = sampleValue(field, k, ctx);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sampleValue(def.innerType, key, ctx);
    case 'pipe':
      return sampleValue(def.in, key, ctx);
    case 'union':
      return sampleValue(def.options?.[0], key, ctx);
    case 'literal':
      return def.values?.[0];
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      return values.find((v) => /^(all|new|newest|latest|recent)$/i.test(String(v))) ?? values[0];
    }
    case 'boolean':
      return false;
    case 'number':
    case 'int':
      return /limit|take|size/i.test(key) ? ctx.limit : 1;
    case 'string':
      if (/cursor/i.test(key)) return undefined;
      if (/business/i.test(key) || key === 'id') return ctx.businessId;
      if (/lang/i.test(key)) return 'sv';
      return ctx.search;
    default:
      return undefined;
  }
}

export function sampleInput(schema: unknown, ctx: InputContext): unknown {
  return schema ? sampleValue(schema, '', ctx) : undefined;
}

type ProcedureLike = { _def: { type?: string; inputs?: unknown[] } };

export type ProcedureList = { procedures: Map<string, { type: string; input: unknown }>; source: 'router' | 'files'; error?: string };

/** Procedure names and input schemas, from the router itself or, if it cannot load, from the router files' text. */
export async function listProcedures(): Promise<ProcedureList> {
  try {
    const mod = (await import('../../server/trpc/router')) as unknown as { appRouter: { _def: { procedures: Record<string, ProcedureLike> } } };
    const procedures = new Map<string, { type: string; input: unknown }>();
    for (const [name, proc] of Object.entries(mod.appRouter._def.procedures)) {
      procedures.set(name, { type: proc._def.type ?? 'query', input: proc._def.inputs?.[0] });
    }
    return { procedures, source: 'router' };
  } catch (err) {
    const procedures = new Map<string, { type: string; input: unknown }>();
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/trpc/routers');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      // router.ts mounts each file under its own name (business.ts → business.*).
      const area = file.replace(/\.ts$/, '');
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/^\s{2}(\w+):\s*\w*[pP]rocedure[\s\S]*?\.(query|mutation)\(/gm)) {
        procedures.set(`${area}.${m[1]}`, { type: m[2], input: undefined });
      }
    }
    return { procedures, source: 'files', error: err instanceof Error ? err.message : String(err) };
  }
}

/** Candidate names in order of preference, then a pattern over the remaining queries. */
const ROLES: Record<Role, { preferred: string[]; pattern: RegExp; exclude?: RegExp }> = {
  feed: {
    preferred: ['comments.feed', 'comments.list', 'home.feed', 'comments.listFeed', 'home.comments'],
    pattern: /^(comments|home)\.(list|feed|latest)/i,
    exclude: /search|business|mine|user|repl|byId/i,
  },
  businessSearch: {
    preferred: ['business.directory', 'business.search', 'business.list'],
    pattern: /^business\.\w*(search|list)/i,
  },
  commentSearch: {
    preferred: ['comments.byBusiness', 'comments.search', 'business.searchComments'],
    pattern: /search/i,
    exclude: /^business\.search$|^users\./i,
  },
};

/** Does the input schema have a free-text field (so a "list" procedure can really search)? */
function hasTextField(schema: unknown): boolean {
  const def = defOf(schema);
  if (!def) return false;
  if (def.type === 'object') return Object.keys(def.shape ?? {}).some((k) => TEXT_KEY.test(k));
  return ['optional', 'default', 'nullable', 'pipe'].includes(def.type) && hasTextField(def.innerType ?? def.in);
}

export function findRole(list: ProcedureList, role: Role, ctx: InputContext): Found {
  const spec = ROLES[role];
  const queries = [...list.procedures.entries()].filter(([, p]) => p.type === 'query');
  // A search role needs a free-text field; without the schemas (file text) that cannot be told.
  const usable = (input: unknown) => role === 'feed' || list.source === 'files' || hasTextField(input);
  const byName = spec.preferred.map((n) => queries.find(([name]) => name === n)).find((q) => q && usable(q[1].input));
  const byPattern = queries.find(([name, p]) => spec.pattern.test(name) && !spec.exclude?.test(name) && usable(p.input));
  const hit = byName ?? byPattern;
  if (!hit) {
    const names = queries.map(([n]) => n).join(', ') || 'none';
    return { role, path: null, reason: `no matching tRPC query (queries: ${names})${list.error ? `; router did not load: ${list.error}` : ''}` };
  }
  const [name, proc] = hit;
  const input =
    list.source === 'router' ? sampleInput(proc.input, ctx) : role === 'feed' ? { limit: ctx.limit } : { businessId: ctx.businessId, query: ctx.search };
  return { role, path: name, input, how: list.source === 'router' ? 'router schema' : 'router file text (input guessed)' };
}

/** GET form of a tRPC v11 query without a transformer. */
export function trpcGetPath(procedure: string, input: unknown): string {
  return input === undefined ? `/trpc/${procedure}` : `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
}
