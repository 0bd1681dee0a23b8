/**
 * Node flags the production server runs with, to keep its memory small at the same throughput:
 * - `--max-semi-space-size=4`: a young generation of at most 4 MB per semi-space; V8 otherwise
 *   grows the semi-spaces to 16 MB each under a high allocation rate.
 * - `--heap-growing-percent=30`: after a full collection the old generation may grow by 30% before
 *   the next one (V8 picks 10–300% by its own measure of GC speed). It keeps the old generation
 *   near its live data (40–50 MB) under load, as `--optimize-for-size` did (RSS peak under the
 *   bench's load 228 → 135 MB) without that flag's cost in speed: it also makes V8 favour small
 *   code over fast code, and the bench's write rows took 15–50% more CPU per request with it
 *   (scripts/bench/write-cost.ts, alternated, 2026-11-26; docs/operations/scaling.md).
 * scripts/start.sh (npm start), the Dockerfile's CMD and scripts/image-smoke.sh spell them out;
 * scripts/server-flags.test.ts checks they all agree with this list, which the bench uses.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=30'];
