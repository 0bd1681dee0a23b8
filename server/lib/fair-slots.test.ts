import { describe, expect, it } from 'vitest';
import { createFairSlots, SlotsFullError } from './fair-slots';

/** Acquires and records the order in which the slots were granted. */
function recorder(slots: ReturnType<typeof createFairSlots>) {
  const granted: string[] = [];
  const releases = new Map<string, () => void>();
  const take = (key: string, name: string, signal?: AbortSignal) =>
    slots.acquire(key, signal).then((release) => {
      granted.push(name);
      releases.set(name, release);
    });
  return { granted, take, release: (name: string) => (releases.get(name) as () => void)() };
}

describe('fair slots', () => {
  it('bounds the holders, the waiters in all and per key', async () => {
    const slots = createFairSlots({ slots: 2, maxWaiting: 3, maxWaitingPerKey: 2 });
    const r = recorder(slots);
    await Promise.all([r.take('a', 'a1'), r.take('a', 'a2')]);
    void r.take('a', 'a3');
    void r.take('a', 'a4');
    await expect(slots.acquire('a')).rejects.toEqual(new SlotsFullError('keyFull'));
    void r.take('b', 'b1');
    await expect(slots.acquire('c')).rejects.toEqual(new SlotsFullError('full'));
    expect(slots.stats()).toEqual({ running: 2, waiting: 3 });
  });

  it('gives a freed slot to the key holding the fewest, not to the longest queue', async () => {
    const slots = createFairSlots({ slots: 2, maxWaiting: 10, maxWaitingPerKey: 10 });
    const r = recorder(slots);
    const all = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => r.take('a', name));
    const b = r.take('b', 'b1');
    await Promise.all(all.slice(0, 2));
    r.release('a1');
    await b;
    expect(r.granted).toEqual(['a1', 'a2', 'b1']);
    r.release('a2');
    r.release('b1');
    await Promise.all(all.slice(2, 4));
    expect(r.granted).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('keeps one key below its share of the slots', async () => {
    const slots = createFairSlots({ slots: 4, maxRunningPerKey: 2, maxWaiting: 10, maxWaitingPerKey: 10 });
    const r = recorder(slots);
    const a = ['a1', 'a2', 'a3'].map((name) => r.take('a', name));
    await Promise.all([...a.slice(0, 2), r.take('b', 'b1')]);
    expect(slots.stats()).toEqual({ running: 3, waiting: 1 });
    r.release('a1');
    await a[2];
    expect(slots.stats()).toEqual({ running: 3, waiting: 0 });
  });

  it('lets an aborted waiter go and counts a release once', async () => {
    const slots = createFairSlots({ slots: 1, maxWaiting: 1, maxWaitingPerKey: 1 });
    const r = recorder(slots);
    await r.take('a', 'a1');
    const controller = new AbortController();
    const gone = slots.acquire('b', controller.signal);
    controller.abort(new Error('client went away'));
    await expect(gone).rejects.toThrow('client went away');
    expect(slots.stats()).toEqual({ running: 1, waiting: 0 });
    r.release('a1');
    r.release('a1');
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('makes a signal given as a function only for a caller that has to wait, and honours it', async () => {
    const slots = createFairSlots({ slots: 1, maxWaiting: 1, maxWaitingPerKey: 1 });
    let made = 0;
    const controller = new AbortController();
    const signal = () => {
      made++;
      return controller.signal;
    };
    const release = await slots.acquire('a', signal);
    expect(made).toBe(0);
    const waiter = slots.acquire('b', signal);
    expect(made).toBe(1);
    controller.abort(new Error('client went away'));
    await expect(waiter).rejects.toThrow('client went away');
    expect(slots.stats()).toEqual({ running: 1, waiting: 0 });
    release();
    // An aborted signal made for a wait refuses at once.
    await slots.acquire('c').then((r) => {
      expect(() => slots.acquire('d', signal)).toThrow('client went away');
      r();
    });
  });

  it('holds the keys of one group to maxRunningPerGroup, serving another group first', async () => {
    const slots = createFairSlots({ slots: 4, maxRunningPerKey: 1, maxRunningPerGroup: 2, maxWaiting: 10, maxWaitingPerKey: 10 });
    const granted: string[] = [];
    const releases: Array<() => void> = [];
    const take = (key: string, group: string) =>
      void slots.acquire(key, undefined, group).then((release) => {
        granted.push(key);
        releases.push(release);
      });
    for (const key of ['a', 'b', 'c']) take(key, 'net1');
    await Promise.resolve();
    expect(granted).toEqual(['a', 'b']);
    expect(slots.stats()).toEqual({ running: 2, waiting: 1 });
    take('d', 'net2');
    await Promise.resolve();
    expect(granted).toEqual(['a', 'b', 'd']);
    // A freed slot of net1 goes back to net1's waiting key.
    releases[0]();
    await Promise.resolve();
    expect(granted).toEqual(['a', 'b', 'd', 'c']);
    expect(slots.stats()).toEqual({ running: 3, waiting: 0 });
  });
});
