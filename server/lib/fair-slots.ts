/** Why `acquire` refused: every waiting place is taken, or this key holds all it may. */
export class SlotsFullError extends Error {
  constructor(readonly reason: 'full' | 'keyFull') {
    super(reason === 'full' ? 'all waiting places are taken' : 'this key has all the waiting places it may');
    this.name = 'SlotsFullError';
  }
}

export type FairSlotsOptions = {
  slots: number;
  /** Waiters in all; past this `acquire` throws SlotsFullError('full'). */
  maxWaiting: number;
  /** Waiters of one key; past this `acquire` throws SlotsFullError('keyFull'). */
  maxWaitingPerKey: number;
  /** Slots one key may hold at once (default all), so others find one free. */
  maxRunningPerKey?: number;
};

export type FairSlots = {
  /**
   * Resolves with a release function once one of the slots is this caller's. A freed slot goes
   * to the waiting key (user, IP) that holds the fewest slots, round-robin among equals, so one
   * key with many requests queued cannot make another wait behind all of them. Throws SlotsFullError at once when the waiting places are used up; an
   * aborted `signal` takes the caller out of the queue (the promise then rejects with its reason).
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  stats(): { running: number; waiting: number };
};

/**
 * A bounded, fair semaphore. Used where each holder may pin a lot of memory or CPU (multipart
 * bodies in flight, image encodes), so neither the work nor the queue grows without bound.
 */
export function createFairSlots(options: FairSlotsOptions): FairSlots {
  const perKey = options.maxRunningPerKey ?? options.slots;
  let running = 0;
  let waiting = 0;
  const runningOf = new Map<string, number>();
  // Map order is the round-robin order: a key that was just served moves to the back.
  const queues = new Map<string, Array<() => void>>();

  const take = (key: string) => {
    running++;
    runningOf.set(key, (runningOf.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running--;
      const left = (runningOf.get(key) ?? 1) - 1;
      if (left === 0) runningOf.delete(key);
      else runningOf.set(key, left);
      grantNext();
    };
  };

  /** The freed slot goes to the waiting key that holds the fewest, the longest-waiting first. */
  const grantNext = () => {
    if (running >= options.slots) return;
    let chosen: string | undefined;
    let fewest = perKey;
    for (const key of queues.keys()) {
      const held = runningOf.get(key) ?? 0;
      if (held < fewest) [chosen, fewest] = [key, held];
    }
    if (chosen === undefined) return;
    const queue = queues.get(chosen) as Array<() => void>;
    const grant = queue.shift() as () => void;
    queues.delete(chosen);
    if (queue.length > 0) queues.set(chosen, queue);
    waiting--;
    grant();
  };

  return {
    acquire(key, signal) {
      signal?.throwIfAborted();
      if (running < options.slots && (runningOf.get(key) ?? 0) < perKey && !queues.has(key)) return Promise.resolve(take(key));
      const queue = queues.get(key) ?? [];
      if (waiting >= options.maxWaiting) return Promise.reject(new SlotsFullError('full'));
      if (queue.length >= options.maxWaitingPerKey) return Promise.reject(new SlotsFullError('keyFull'));
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(take(key));
        };
        const onAbort = () => {
          const index = queue.indexOf(grant);
          if (index < 0) return;
          queue.splice(index, 1);
          if (queue.length === 0 && queues.get(key) === queue) queues.delete(key);
          waiting--;
          // The signal's own reason, as fetch() rejects with it (an AbortError unless the caller chose one).
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(signal?.reason);
        };
        queue.push(grant);
        if (!queues.has(key)) queues.set(key, queue);
        waiting++;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    stats: () => ({ running, waiting }),
  };
}
