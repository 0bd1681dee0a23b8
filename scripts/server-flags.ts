/**
 * Node flags the production server runs with. A young generation of at most 4 MB per semi-space
 * keeps the heap (and so RSS) small under load at the same throughput: V8 otherwise grows the
 * semi-spaces to 16 MB each under a high allocation rate (measured: RSS peak 197 → 177 MB).
 * package.json `start`, the Dockerfile's CMD and scripts/image-smoke.sh spell them out;
 * scripts/server-flags.test.ts checks they all agree with this list, which the bench uses.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];
