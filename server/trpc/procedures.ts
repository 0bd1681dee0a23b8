import type { StampScope } from '../lib/data-stamp';
import type { ProcedureMeta } from './init';
import { appRouter } from './router';

type ProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription'; meta?: ProcedureMeta } };

/**
 * Every procedure by its dotted path, as tRPC's own HTTP handler looks a path up: the one
 * place outside the router that reads what a procedure is and what it declares (`.meta()`).
 */
const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;

export function isQuery(path: string): boolean {
  return Object.hasOwn(procedures, path) && procedures[path]._def.type === 'query';
}

/** A query declared with cachedPublicProcedure: its anonymous answers may be kept. */
export function isPublicCacheQuery(path: string): boolean {
  return isQuery(path) && procedures[path]._def.meta?.publicCache === true;
}

/** What a cacheable query's kept answers depend on: `all` unless it declares less (`keptWhile`). */
export function publicCacheKeptWhile(path: string): StampScope {
  return (isPublicCacheQuery(path) && procedures[path]._def.meta?.keptWhile) || 'all';
}

/** Every query's path (tests go through all of them). */
export const queryPaths = (): string[] => Object.keys(procedures).filter(isQuery).sort();
