import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, isAppError } from '../lib/errors';
import { networkOf } from '../lib/networks';

/**
 * Per-key limits for the actions docs/product.md §3 names (login, registration, resend, forgot-password,
 * contact, posting). They live in the domain so tRPC and REST are limited alike; keys are an
 * IP, an e-mail or a user id.
 */
const limits = {
  /**
   * Login attempts per (network, e-mail): strict, so guessing one password from one place is
   * slow. A network is a /24 (IPv4) or /64 (IPv6), see networkOf.
   */
  login: { points: 10, duration: 60 },
  /** Login attempts per network over all addresses (and Google sign-ins). */
  loginIp: { points: 30, duration: 60 },
  /**
   * Failed logins per e-mail from anywhere: a ceiling far above what an owner mistypes, so
   * strangers cannot lock an owner out by guessing, while spread-out guessing stays slow.
   */
  loginFailures: { points: 100, duration: 15 * 60 },
  /** Past that ceiling: one attempt per (network, e-mail) in 15 minutes. */
  loginAfterCeiling: { points: 1, duration: 15 * 60 },
  /**
   * Account mails (confirmation, reset) to one address asked for from one network: strangers
   * elsewhere cannot use up what the owner's own requests get (issue 27).
   */
  mailsToAddress: { points: 3, duration: 60 * 60 },
  /**
   * Confirmation mails (registrations, resends) to one address from all networks together: no
   * mail-bombing an inbox. Using it up takes requests from seven networks, and a password reset
   * still goes out then: it has a budget of its own.
   */
  mailsToAddressAll: { points: 20, duration: 60 * 60 },
  /** Password-reset mails to one address from all networks together, beside the above. */
  resetMailsToAddress: { points: 20, duration: 60 * 60 },
  register: { points: 5, duration: 60 },
  resend: { points: 3, duration: 60 },
  forgotPassword: { points: 3, duration: 60 },
  /**
   * Passwords typed on the confirmation page of an address registered more than once, per
   * network and per link: each costs an argon2 verify.
   */
  confirmPassword: { points: 10, duration: 15 * 60 },
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
  /**
   * Server renders of a page state not rendered before (a new `?q=` search, a feed filter) per
   * network; past it the page comes without a first paint and the browser renders it.
   */
  statePaint: { points: 20, duration: 60 },
  /** Reports of comments, replies and business answers per user. */
  report: { points: 20, duration: 60 },
  /** Claims of businesses per user (issue 31): each one is an admin's work. */
  claim: { points: 5, duration: 60 * 60 },
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
  /** Like consume for one key, answering false instead of throwing (work that degrades instead). */
  allows(name: LimitName, key: string): Promise<boolean>;
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
   * Each counts per (address, requester's network) and per address over all networks, resets
   * and confirmations apart: strangers elsewhere cannot use up what the owner's network gets,
   * and no flood of registrations or resends touches the owner's reset.
   */
  takeMailAllowance(email: string, ip: string, kind?: 'confirm' | 'reset'): Promise<boolean>;
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
    async allows(name, key) {
      try {
        await consume(name, key);
        return true;
      } catch (e) {
        if (isAppError(e) && e.code === 'RATE_LIMITED') return false;
        throw e;
      }
    },
    async consumeLogin(ip, email) {
      const network = networkOf(ip);
      const pair = `${network}|${email.toLowerCase()}`;
      await consume('login', pair);
      await consume('loginIp', network);
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
    async takeMailAllowance(email, ip, kind = 'confirm') {
      if (!enabled) return true;
      const address = email.toLowerCase();
      const pair = `${networkOf(ip)}|${address}`;
      const shared = kind === 'reset' ? 'resetMailsToAddress' : 'mailsToAddressAll';
      // Checked before anything is counted, so a refused request uses up neither budget.
      const [pairUsed, sharedUsed] = await Promise.all([limiterFor('mailsToAddress').get(pair), limiterFor(shared).get(address)]);
      if ((pairUsed?.consumedPoints ?? 0) >= limits.mailsToAddress.points || (sharedUsed?.consumedPoints ?? 0) >= limits[shared].points) return false;
      try {
        await consume('mailsToAddress', pair);
        await consume(shared, address);
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
