import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../services/deps';
import type { Actor } from '../services/actor';

export type Context = {
  deps: Deps;
  actor: Actor;
  sessionId: string | null;
  /** Present for HTTP calls; absent when a test calls procedures through createCaller. */
  req?: FastifyRequest;
  reply?: FastifyReply;
  ip: string;
};

export function createContextFactory(deps: Deps) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Context => ({
    deps,
    actor: req.actor,
    sessionId: req.sessionId,
    req,
    reply: res,
    ip: req.ip,
  });
}
