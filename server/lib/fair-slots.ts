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
  /**
   * Slots the keys of one group (the network of several accounts) may hold at once (default
   * all), so many keys from one place cannot take every slot either.
   */
  maxRunningPerGroup?: number;
};

export type FairSlots = {
  /**
   * Resolves with a release function once one of the slots is this caller's. A freed slot goes
   * to the waiting key (user, IP) that holds the fewest slots, round-robin among equals, so one
   * key with many requests queued cannot make another wait behind all of them. Throws SlotsFullError at once when the waiting places are used up; an
   * aborted `signal` takes the caller out of the queue (the promise then rejects with its reason).
   * The signal may be given as a function, called only when the caller has to wait: a slot that
   * is free at once then costs no signal (a timeout signal and its timer cost ~10 µs per request).
   */
  acquire(key: string, signal?: AbortSignal | (() => AbortSignal), group?: string): Promise<() => void>;
  stats(): { running: number; waiting: number };
};

/**
 * A bounded, fair semaphore. Used where each holder may pin a lot of memory or CPU (multipart
 * bodies in flight, image encodes), so neither the work nor the queue grows without bound.
 */
export function createFairSlots(options: FairSlotsOptions): FairSlots {
  const perKey = options.maxRunningPerKey ?? options.slots;
  const perGroup = options.maxRunningPerGroup ?? options.slots;
  let running = 0;
  let waiting = 0;
  const runningOf = new Map<string, number>();
  const runningOfGroup = new Map<string, number>();
  /** The group of each key that waits (a key keeps the group it first came with while it waits). */
  const groupOf = new Map<string, string>();
  const count = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };
  const groupHasRoom = (group: string | undefined) => group === undefined || (runningOfGroup.get(group) ?? 0) < perGroup;
  // Map order is the round-robin order: a key that was just served moves to the back.
  const queues = new Map<string, Array<() => void>>();

  const take = (key: string, group: string | undefined) => {
    running++;
    count(runningOf, key, 1);
    if (group !== undefined) count(runningOfGroup, group, 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running--;
      count(runningOf, key, -1);
      if (group !== undefined) count(runningOfGroup, group, -1);
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
      if (held < fewest && groupHasRoom(groupOf.get(key))) [chosen, fewest] = [key, held];
    }
    if (chosen === undefined) return;
    const queue = queues.get(chosen) as Array<() => void>;
    const grant = queue.shift() as () => void;
    queues.delete(chosen);
    if (queue.length > 0) queues.set(chosen, queue);
    else groupOf.delete(chosen);
    waiting--;
    grant();
  };

  return {
    acquire(key, signalOrMake, group) {
      if (typeof signalOrMake !== 'function') signalOrMake?.throwIfAborted();
      if (running < options.slots && (runningOf.get(key) ?? 0) < perKey && groupHasRoom(group) && !queues.has(key)) return Promise.resolve(take(key, group));
      const signal = typeof signalOrMake === 'function' ? signalOrMake() : signalOrMake;
      signal?.throwIfAborted();
      const queue = queues.get(key) ?? [];
      if (waiting >= options.maxWaiting) return Promise.reject(new SlotsFullError('full'));
      if (queue.length >= options.maxWaitingPerKey) return Promise.reject(new SlotsFullError('keyFull'));
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(take(key, group));
        };
        const onAbort = () => {
          const index = queue.indexOf(grant);
          if (index < 0) return;
          queue.splice(index, 1);
          if (queue.length === 0 && queues.get(key) === queue) {
            queues.delete(key);
            groupOf.delete(key);
          }
          waiting--;
          // The signal's own reason, as fetch() rejects with it (an AbortError unless the caller chose one).
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(signal?.reason);
        };
        queue.push(grant);
        if (!queues.has(key)) queues.set(key, queue);
        if (group !== undefined && !groupOf.has(key)) groupOf.set(key, group);
        waiting++;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    stats: () => ({ running, waiting }),
  };
}
