/**
 * Node flags the production server runs with, to keep its memory small at the same throughput:
 * - `--max-semi-space-size=4`: a young generation of at most 4 MB per semi-space; V8 otherwise
 *   grows the semi-spaces to 16 MB each under a high allocation rate.
 * - `--heap-growing-percent=30`: after a full collection the old generation may grow by 30% before
 *   the next one (V8 picks 10–300% by its own measure of GC speed), so it stays near its live
 *   data (40–50 MB) under load.
 * - `--initial-old-space-size=32`: the first full collection comes at 32 MB, not V8's default
 *   of a fraction of the machine's memory: start-up's garbage (migrations, statistics, kept
 *   documents) is collected instead of kept. Idle after start on the scale-0.3 data set:
 *   RSS 160 MB, against 200 MB without it.
 * These two replace `--optimize-for-size` (2026-11-24 to 11-26), which did the same for memory
 * (idle RSS 149 MB) but also makes V8 favour small code over fast code: the bench's write rows
 * took 15–50% more CPU per request with it (scripts/bench/write-cost.ts, alternated;
 * docs/operations/scaling.md, "Write rows, issue 32 item 3").
 * scripts/start.sh (npm start), the Dockerfile's CMD and scripts/image-smoke.sh spell them out;
 * scripts/server-flags.test.ts checks they all agree with this list, which the bench uses.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=30', '--initial-old-space-size=32'];

/**
 * Environment the production server starts with, beside its flags:
 * - `MALLOC_ARENA_MAX=2`: glibc's malloc keeps at most two arenas instead of eight per core. Each
 *   thread that allocates (libuv's pool running sharp/libvips, zlib streams, the checkpointer's
 *   worker) otherwise gets an arena of its own, which keeps the memory it freed: ten parallel
 *   12 MP uploads took the server to 317–370 MB with 13–15 arenas holding 130–167 MB, and to
 *   291–304 MB with two; at scale 10 the arenas outside the main one held 22 MB under the
 *   writes, 9 MB with two (docs/operations/scaling.md, "Seventh session: memory and start-up").
 * scripts/start.sh, the Dockerfile's ENV and scripts/image-smoke.sh set them; the bench spawns
 * the server with them (scripts/server-flags.test.ts checks they agree).
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
