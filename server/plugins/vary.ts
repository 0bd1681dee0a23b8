import type { FastifyReply } from 'fastify';

/** Adds names to the reply's Vary header unless it already lists them (in any case). */
export function addVary(reply: FastifyReply, ...names: string[]) {
  const current = reply.getHeader('vary');
  const listed = (Array.isArray(current) ? current.join(',') : typeof current === 'string' ? current : '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = new Set(listed.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !known.has(name.toLowerCase()));
  if (added.length > 0) reply.header('vary', [...listed, ...added].join(', '));
}
