import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { businessScope, type StampScope } from '../lib/data-stamp';
import type { CacheKind } from './public-cache-store';

/** Headers of a reply that are not kept with its body: they belong to one response only. */
export const PER_RESPONSE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'set-cookie', 'date', 'connection', 'keep-alive']);

/**
 * Whether the request asks for the reply everyone gets. `trpc-accept` makes tRPC stream its
 * answer (JSON lines) instead: kept, that body would be served to every visitor's plain client.
 */
export function plainReplyAsked(headers: IncomingHttpHeaders): boolean {
  return headers['trpc-accept'] === undefined;
}

/**
 * Whether an anonymous GET's reply may be kept, under its raw URL, and in which part of the
 * cache: a REST route with `config.publicCache`, or a tRPC call whose every procedure is
 * cacheable; with a search text in the search part (its own bounds: the texts are endless);
 * null when it may not be kept.
 */
export function isCacheable(request: FastifyRequest, isCacheableProcedure: (path: string) => boolean): CacheKind | null {
  if (!plainReplyAsked(request.headers)) return null;
  const query = request.query as Record<string, unknown> | undefined;
  if (request.routeOptions.config.publicCache) return hasSearch(query?.search) ? 'search' : 'list';
  const url = request.url;
  if (!url.startsWith('/trpc/')) return null;
  // The path as tRPC reads it: /trpc/<path>[,<path>…] (a batch), after Fastify's routing.
  const { path } = request.params as { path?: string };
  if (!path || !path.split(',').every(isCacheableProcedure)) return null;
  if (typeof query?.input !== 'string') return 'list';
  try {
    return hasSearch(JSON.parse(query.input)) ? 'search' : 'list';
  } catch {
    return null;
  }
}

/**
 * What a cacheable request's reply depends on: the REST route's `config.keptWhile` (a business's
 * scope for a list that is not a search: searches read the comment index, kept under `all`), or
 * for tRPC the scope every procedure of the call declares; `all` (any write drops it) when they
 * differ or nothing is declared.
 */
export function keptWhile(request: FastifyRequest, kind: CacheKind, procedureKeptWhile: (path: string) => StampScope): StampScope {
  const config = request.routeOptions.config;
  if (config.publicCache) {
    const declared = config.keptWhile;
    if (declared === undefined || declared === 'businesses') return declared ?? 'all';
    const id = (request.params as Record<string, unknown> | undefined)?.[declared.businessParam];
    return kind === 'list' && typeof id === 'string' ? businessScope(id) : 'all';
  }
  const { path } = request.params as { path?: string };
  const scopes = new Set((path ?? '').split(',').map(procedureKeptWhile));
  return scopes.size === 1 ? [...scopes][0] : 'all';
}

/** True when a search text is given anywhere in a REST query value or a (batched) tRPC input. */
function hasSearch(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (typeof record.search === 'string' && record.search.trim() !== '') return true;
  return Object.values(record).some((inner) => inner !== null && typeof inner === 'object' && hasSearch(inner));
}
