import type { Deps } from '../services/deps';
import type { Actor } from '../services/actor';
import { createCallerFactory } from './init';
import { appRouter } from './router';

const factory = createCallerFactory(appRouter);

/** Calls procedures in-process as `actor` (tests, scripts); the same middleware runs. */
export function createCaller(deps: Deps, actor: Actor, sessionId: string | null = null) {
  return factory({ deps, actor, sessionId, ip: '127.0.0.1' });
}
