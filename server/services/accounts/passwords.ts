// Every argon2 hash and verify of the server goes through here: a queue of fixed concurrency
// bounds the memory a burst of logins or registrations can take.
import argon2 from 'argon2';
import { AppError } from '../../lib/errors';
import { createFairSlots, SlotsFullError } from '../../lib/fair-slots';

/**
 * OWASP's Password Storage Cheat Sheet, argon2id's first configuration: 19 MiB, 2 passes, one
 * lane (argon2's own default was 64 MiB, 3 passes, 4 lanes). A hash carries its parameters, so
 * hashes made with the old ones still verify; a login with one re-hashes the password.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes computed at once (19 MiB each); more wait, fairly by `key`, and past the waiting places 503. */
export const HASH_CONCURRENCY = 2;
const hashSlots = createFairSlots({ slots: HASH_CONCURRENCY, maxWaiting: 64, maxWaitingPerKey: 8 });
const RETRY_AFTER_S = 2;

/** How many hashes run and wait (tests watch the queue). */
export const hashQueueStats = () => hashSlots.stats();

/**
 * Runs one argon2 call in a slot. `key` is who asks (an IP's network, a user) so one sender's
 * burst waits behind its own requests, not everyone's; too many waiting is 429 for that sender, 503 for all.
 */
async function inSlot<T>(key: string, work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = await hashSlots.acquire(key);
  } catch (err) {
    if (!(err instanceof SlotsFullError)) throw err;
    const options = { retryAfterS: RETRY_AFTER_S };
    throw err.reason === 'keyFull'
      ? new AppError('RATE_LIMITED', 'tooManyRequests', undefined, options)
      : new AppError('BUSY', 'serverBusy', undefined, options);
  }
  try {
    return await work();
  } finally {
    release();
  }
}

export const hashPassword = (password: string, key = '') => inSlot(key, () => argon2.hash(password, ARGON2_OPTIONS));

export const verifyPassword = (hash: string, password: string, key = '') => inSlot(key, () => argon2.verify(hash, password));

/** True for a hash made with other parameters than ARGON2_OPTIONS (re-hashed at the next login). */
export const needsRehash = (hash: string) => {
  try {
    return argon2.needsRehash(hash, { memoryCost: ARGON2_OPTIONS.memoryCost, timeCost: ARGON2_OPTIONS.timeCost, parallelism: ARGON2_OPTIONS.parallelism });
  } catch {
    return false;
  }
};
