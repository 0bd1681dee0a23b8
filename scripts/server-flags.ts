/**
 * Node flags the production server runs with, to keep its memory small at the same throughput:
 * - `--max-semi-space-size=4`: a young generation of at most 4 MB per semi-space; V8 otherwise
 *   grows the semi-spaces to 16 MB each under a high allocation rate.
 * - `--optimize-for-size`: V8 lets the old generation grow less before it collects. Without it,
 *   the heap in use reached 140 MB under load while its live data is 40–50 MB.
 * Measured with the bench's load (reads, then writes) on the full data set: RSS peak 228 → 135 MB;
 * throughput within the run-to-run noise (scripts/bench, README "Benchmark").
 * scripts/start.sh (npm start), the Dockerfile's CMD and scripts/image-smoke.sh spell them out;
 * scripts/server-flags.test.ts checks they all agree with this list, which the bench uses.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--optimize-for-size'];
