import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../lib/errors';

/**
 * Per-key limits for the actions PRODUCT.md names (login, registration, resend, forgot-password,
 * contact, posting). They live in the domain so tRPC and REST are limited alike; keys are an
 * IP, an e-mail or a user id.
 */
const limits = {
  login: { points: 10, duration: 60 },
  register: { points: 5, duration: 60 },
  resend: { points: 3, duration: 60 },
  forgotPassword: { points: 3, duration: 60 },
  contact: { points: 5, duration: 60 },
  post: { points: 6, duration: 60 },
  rate: { points: 120, duration: 60 },
} as const;

export type LimitName = keyof typeof limits;

const limiters = new Map<string, RateLimiterMemory>();
let enabled = true;

/** RATE_LIMITS=0 turns the limits off (load benchmarks); set once when the app is built. */
export function setRateLimitsEnabled(on: boolean): void {
  enabled = on;
}

function limiterFor(name: LimitName): RateLimiterMemory {
  let limiter = limiters.get(name);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: name, ...limits[name] });
    limiters.set(name, limiter);
  }
  return limiter;
}

/** Counts one attempt for each key; throws 429 when any key is over its limit. */
export async function consumeLimit(name: LimitName, ...keys: (string | null | undefined)[]): Promise<void> {
  if (!enabled) return;
  const limiter = limiterFor(name);
  for (const key of keys) {
    if (!key) continue;
    try {
      await limiter.consume(key.toLowerCase());
    } catch (e) {
      if (e instanceof RateLimiterRes) throw new AppError('RATE_LIMITED', 'tooManyRequests');
      throw e;
    }
  }
}

/** Forgets all counts (tests that exercise the limits start clean). */
export function resetLimits(): void {
  limiters.clear();
}
