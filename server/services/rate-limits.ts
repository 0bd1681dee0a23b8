import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, isAppError } from '../lib/errors';

/**
 * Per-key limits for the actions PRODUCT.md names (login, registration, resend, forgot-password,
 * contact, posting). They live in the domain so tRPC and REST are limited alike; keys are an
 * IP, an e-mail or a user id.
 */
const limits = {
  /** Login attempts per (IP, e-mail): strict, so guessing one password from one place is slow. */
  login: { points: 10, duration: 60 },
  /** Login attempts per IP over all addresses (and Google sign-ins). */
  loginIp: { points: 30, duration: 60 },
  /**
   * Failed logins per e-mail from anywhere: a ceiling far above what an owner mistypes, so
   * strangers cannot lock an owner out by guessing, while spread-out guessing stays slow.
   */
  loginFailures: { points: 100, duration: 15 * 60 },
  /** Past that ceiling: one attempt per (IP, e-mail) in 15 minutes. */
  loginAfterCeiling: { points: 1, duration: 15 * 60 },
  /** Account mails (confirmation, reset) to one address, whoever asks: no mail-bombing an inbox. */
  mailsToAddress: { points: 6, duration: 60 * 60 },
  register: { points: 5, duration: 60 },
  resend: { points: 3, duration: 60 },
  forgotPassword: { points: 3, duration: 60 },
  /** Password changes from the profile per user: the current password cannot be guessed. */
  passwordChange: { points: 5, duration: 15 * 60 },
  contact: { points: 5, duration: 60 },
  post: { points: 6, duration: 60 },
  rate: { points: 120, duration: 60 },
  /** Multipart bodies per user (per IP for visitors), counted before the body is read. */
  multipart: { points: 40, duration: 60 },
  /** Writes that carry an image to re-encode, per user: uploads, avatars, pictures on posts. */
  image: { points: 30, duration: 60 },
  /** Edits per user: comments, replies, profiles, businesses. */
  edit: { points: 30, duration: 60 },
  /** Favourites added or removed per user. */
  favorite: { points: 60, duration: 60 },
  /** Deletes per user: comments, replies, businesses, accounts. */
  delete: { points: 30, duration: 60 },
  /** Reports of comments and replies per user. */
  report: { points: 20, duration: 60 },
} as const;

export type LimitName = keyof typeof limits;
/** Every limit, with how many attempts it allows (tests walk them all). */
export const limitPoints: Readonly<Record<LimitName, number>> = Object.fromEntries(Object.entries(limits).map(([name, l]) => [name, l.points])) as Record<
  LimitName,
  number
>;

/** The limits of one app: counts and the on/off switch live here, never in module state. */
export type RateLimits = {
  /** Counts one attempt for each key; throws 429 when any key is over its limit. */
  consume(name: LimitName, ...keys: (string | null | undefined)[]): Promise<void>;
  /**
   * The login limits, counted before the password is checked: the (IP, e-mail) pair and the IP.
   * Once an e-mail has had LOGIN_FAILURES failed logins in 15 minutes from anywhere, each (IP,
   * e-mail) pair gets one attempt per 15 minutes: guessing spread over many addresses slows to
   * one guess per address, while the owner, from an address that has not been guessing, still
   * gets in (a hard per-e-mail stop would let any stranger lock the owner out).
   */
  consumeLogin(ip: string, email: string): Promise<void>;
  /** Counts a failed login against the e-mail's ceiling. */
  countFailedLogin(email: string): Promise<void>;
  /**
   * Takes one of an address's account mails for the hour; false when they are used up. Callers
   * then send nothing and answer as usual, so the reply never tells whether a mail went out.
   */
  takeMailAllowance(email: string): Promise<boolean>;
  /** Forgets all counts (tests that exercise the limits start clean). */
  reset(): void;
};

/** Built once per app (index.ts, test helpers); `enabled: false` is RATE_LIMITS=0 (load benchmarks). */
export function createRateLimits({ enabled }: { enabled: boolean }): RateLimits {
  const limiters = new Map<LimitName, RateLimiterMemory>();

  function limiterFor(name: LimitName): RateLimiterMemory {
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: name, ...limits[name] });
      limiters.set(name, limiter);
    }
    return limiter;
  }

  async function consume(name: LimitName, ...keys: (string | null | undefined)[]): Promise<void> {
    if (!enabled) return;
    const limiter = limiterFor(name);
    for (const key of keys) {
      if (!key) continue;
      try {
        await limiter.consume(key.toLowerCase());
      } catch (e) {
        // Retry-After: whole seconds until the key has a point again.
        if (e instanceof RateLimiterRes)
          throw new AppError('RATE_LIMITED', 'tooManyRequests', undefined, { retryAfterS: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) });
        throw e;
      }
    }
  }

  return {
    consume,
    async consumeLogin(ip, email) {
      const pair = `${ip}|${email.toLowerCase()}`;
      await consume('login', pair);
      await consume('loginIp', ip);
      if (!enabled) return;
      const failures = await limiterFor('loginFailures').get(email.toLowerCase());
      if (failures && failures.consumedPoints >= limits.loginFailures.points) await consume('loginAfterCeiling', pair);
    },
    async countFailedLogin(email) {
      if (!enabled) return;
      await limiterFor('loginFailures')
        .penalty(email.toLowerCase(), 1)
        .catch(() => undefined);
    },
    async takeMailAllowance(email) {
      try {
        await consume('mailsToAddress', email);
        return true;
      } catch (e) {
        if (isAppError(e) && e.code === 'RATE_LIMITED') return false;
        throw e;
      }
    },
    reset() {
      limiters.clear();
    },
  };
}
