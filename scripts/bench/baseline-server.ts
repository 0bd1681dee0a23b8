/**
 * The yardstick: a bare Fastify process whose routes return fixed JSON bodies of the same byte
 * size as each real endpoint's reply. The ratio app/baseline separates our per-request work
 * (queries, serialisation, plugins) from what Node and HTTP cost on this machine anyway.
 *
 * Usage: node --import tsx baseline-server.ts <port> '<json: { name: bytes }>'
 */
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const sizes = JSON.parse(process.argv[3] ?? '{}') as Record<string, number>;

/** A JSON document of exactly `bytes` bytes (ASCII padding, so characters are bytes). */
export function paddedJson(bytes: number): string {
  const empty = '{"p":""}';
  return `{"p":"${'x'.repeat(Math.max(0, bytes - empty.length))}"}`;
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
for (const [name, bytes] of Object.entries(sizes)) {
  const body = paddedJson(bytes);
  app.get(`/b/${name}`, (_req, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
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
