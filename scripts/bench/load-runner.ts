/**
 * The load generator, run as its own process (forked by index.ts) so autocannon's event loop
 * never competes with the bench's bookkeeping or with the server it measures. Receives jobs over
 * IPC and answers each with a summary.
 */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { multipartBody } from './multipart';

/** How much of each reply body autocannon keeps: enough for the error samples below. */
export const KEPT_BODY_BYTES = 2048;

/**
 * autocannon appends every chunk of every reply to a string (`req.body += data` in
 * lib/pipelinedRequestsQueue.js), whether anyone reads the body or not. Decoding the bytes was
 * the load generator's whole cost on large replies: a profile of it against the directory list
 * (138 KB brotli) put 88 % of its CPU in Buffer.toString, it managed 648 replies a second with a
 * p99 of 153 ms while the server used a tenth of a core, and the bare baseline was no faster.
 * Here it keeps the first KEPT_BODY_BYTES of a body and only counts the rest, so the load
 * generator reads replies at the speed of the socket and the server sets the pace (the same
 * directory run: 12,508 replies a second, p99 11 ms). The baseline runs through the same code.
 */
function keepBodyPrefixOnly(): void {
  const require = createRequire(import.meta.url);
  const Queue = require('autocannon/lib/pipelinedRequestsQueue.js') as {
    prototype: { addBody?: (data: Buffer) => void; peek?: () => { body: string } | undefined };
  };
  const proto = Queue.prototype;
  if (typeof proto.addBody !== 'function' || typeof proto.peek !== 'function') {
    throw new Error('autocannon internals changed: lib/pipelinedRequestsQueue.js has no addBody/peek; see keepBodyPrefixOnly');
  }
  const peek = proto.peek;
  proto.addBody = function addBody(this: unknown, data: Buffer) {
    const req = peek.call(this);
    if (req && req.body.length < KEPT_BODY_BYTES) req.body += data.subarray(0, KEPT_BODY_BYTES - req.body.length).toString('utf8');
  };
}
keepBodyPrefixOnly();

export type LoadRequest =
  | { kind: 'get'; path: string; headers?: Record<string, string> }
  | { kind: 'rateComment'; commentIds: string[]; tokens: string[] }
  | { kind: 'rateBusiness'; businessIds: string[]; tokens: string[] }
  | { kind: 'createComment'; targets: { businessId: string; locations: string[] }[]; tokens: string[] }
  | { kind: 'createReply'; commentIds: string[]; tokens: string[] }
  /**
   * Reads and writes interleaved (issue 32.7): each connection sends `readsPerWrite` reads, each
   * a path drawn from `reads`, then one of `writes` in turn, and so on.
   */
  | { kind: 'mix'; reads: string[]; headers?: Record<string, string>; writes: WriteRequest[]; readsPerWrite: number };

export type WriteRequest = Exclude<LoadRequest, { kind: 'get' } | { kind: 'mix' }>;

export type LoadJob = { id: number; origin: string; connections: number; durationSec: number; warmupSec: number; request: LoadRequest };

export type LoadResult = {
  /** Successful (2xx) replies per second over the measured run. */
  okPerSec: number;
  total: number;
  ok: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** A few bodies of non-2xx replies, to say why a write endpoint failed. */
  errorSamples: string[];
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  durationSec: number;
};

const randomOf = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
const rate = () => 1 + Math.floor(Math.random() * 5);
let serial = 0;

/**
 * Every write request picks a random bench user and a random target, so the writes spread over
 * many rows and users (per-user limits and hot rows are not what is measured).
 */
function requestsFor(req: LoadRequest): autocannon.Request[] {
  switch (req.kind) {
    case 'mix': {
      const read: autocannon.Request = { setupRequest: (r) => ({ ...r, method: 'GET', path: randomOf(req.reads), headers: req.headers ?? {} }) };
      return req.writes.flatMap((w) => [...Array<autocannon.Request>(req.readsPerWrite).fill(read), ...requestsFor(w)]);
    }
    case 'get':
      return [{ method: 'GET', path: req.path, headers: req.headers }];
    case 'rateComment':
      return [
        {
          setupRequest: (r) => ({
            ...r,
            method: 'POST',
            path: `/api/comment/addRate/${encodeURIComponent(randomOf(req.commentIds))}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${randomOf(req.tokens)}` },
            body: JSON.stringify({ rate: rate() }),
          }),
        },
      ];
    case 'rateBusiness':
      return [
        {
          setupRequest: (r) => ({
            ...r,
            method: 'POST',
            path: `/api/business/addRate/${encodeURIComponent(randomOf(req.businessIds))}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${randomOf(req.tokens)}` },
            body: JSON.stringify({ rate: rate() }),
          }),
        },
      ];
    case 'createComment':
      return [
        {
          setupRequest: (r) => {
            const target = randomOf(req.targets);
            const form = multipartBody([
              { name: 'text', value: `Bänktest ${process.pid}-${++serial}: personalen var trevlig och kön gick snabbt. Kommer gärna tillbaka.` },
              { name: 'businessLocation', value: randomOf(target.locations) },
            ]);
            return {
              ...r,
              method: 'POST',
              path: `/api/comment/create/${encodeURIComponent(target.businessId)}`,
              headers: { 'content-type': form.contentType, authorization: `Bearer ${randomOf(req.tokens)}` },
              body: form.body,
            };
          },
        },
      ];
    case 'createReply':
      return [
        {
          setupRequest: (r) => {
            const form = multipartBody([{ name: 'text', value: `Bänksvar ${process.pid}-${++serial}: håller med, samma sak hände mig förra veckan.` }]);
            return {
              ...r,
              method: 'POST',
              path: `/api/comment/addSubComment/${encodeURIComponent(randomOf(req.commentIds))}`,
              headers: { 'content-type': form.contentType, authorization: `Bearer ${randomOf(req.tokens)}` },
              body: form.body,
            };
          },
        },
      ];
  }
}

async function run(origin: string, connections: number, durationSec: number, request: LoadRequest, samples: string[]): Promise<autocannon.Result> {
  return autocannon({
    url: origin,
    connections,
    duration: durationSec,
    requests: requestsFor(request).map((r) => ({
      ...r,
      onResponse: (status: number, body: string) => {
        if ((status < 200 || status > 299) && samples.length < 3) samples.push(`${status} ${body.slice(0, 200)}`);
      },
    })),
  });
}

export async function runJob(job: LoadJob): Promise<LoadResult> {
  if (job.warmupSec > 0) await run(job.origin, job.connections, job.warmupSec, job.request, []);
  const samples: string[] = [];
  const r = await run(job.origin, job.connections, job.durationSec, job.request, samples);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  return {
    okPerSec: r['2xx'] / r.duration,
    total,
    ok: r['2xx'],
    non2xx: r.non2xx,
    statusCodes,
    errorSamples: samples,
    errors: r.errors,
    timeouts: r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    max: r.latency.max,
    durationSec: r.duration,
  };
}

// Only when forked: index.ts imports the types above without starting a job loop.
if (process.send) {
  process.on('message', (job: LoadJob) => {
    runJob(job).then(
      (result) => process.send!({ id: job.id, result }),
      (err: unknown) => process.send!({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.send({ ready: true });
  // The parent going away (even by SIGKILL) closes the channel; never outlive it.
  process.on('disconnect', () => process.exit(0));
}
