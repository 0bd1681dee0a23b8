/**
 * The yardstick: a bare Fastify process whose routes return fixed bodies: each real endpoint's
 * reply as the app sent it (compressed, if it was), captured once by the bench, so size, content
 * and encoding match. The ratio app/baseline separates our per-request work (queries,
 * serialisation, plugins) from what Node and HTTP cost on this machine anyway.
 *
 * Usage: node --import tsx baseline-server.ts <port> '<json: { name: BaselineBody }>'
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.argv[2]);
export type BaselineBody = { file: string; encoding: string | null };

const bodies = JSON.parse(process.argv[3] ?? '{}') as Record<string, BaselineBody>;

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
for (const [name, { file, encoding }] of Object.entries(bodies)) {
  const body = readFileSync(file);
  app.get(`/b/${name}`, (_req, reply) => {
    reply.type('application/json; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    reply.send(body);
  });
}

if (Number.isInteger(port) && port > 0) {
  await app.listen({ port, host: '127.0.0.1' });
  // The bench may die by SIGKILL and leave us orphaned (re-parented); then leave too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000).unref();
}
