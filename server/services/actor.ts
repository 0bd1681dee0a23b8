import { AppError } from '../lib/errors';
import type { MessageKey } from '../../shared/schemas/messages';

/** Who is acting, as read from the session. `null` is a visitor. */
export type Actor = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  /** Appointed by an admin to work the moderation queue; optional for callers built before it existed. */
  isModerator?: boolean;
  isBanned: boolean;
  language: 'sv' | 'en';
  /**
   * When the account was created (ms), as the session lookup read it: the emoji-rating burst check
   * asks a young account's age without a query (services/moderation/rating-bursts.ts). Optional
   * for actors built elsewhere; those are looked up.
   */
  joinedAt?: number;
} | null;

export type SignedIn = NonNullable<Actor>;

/** Signed in at all (banned users may still log out, export and delete their account). */
export function requireSignedIn(actor: Actor): SignedIn {
  if (!actor) throw new AppError('UNAUTHENTICATED', 'unauthenticated');
  return actor;
}

/** Signed in and not banned: may post, rate, favourite, edit. */
export function requireActive(actor: Actor): SignedIn {
  const a = requireSignedIn(actor);
  if (a.isBanned) throw new AppError('FORBIDDEN', 'banned');
  return a;
}

/** Signed in and not banned; a visitor hears what to do instead of a generic 401. */
export function requireActiveFor(actor: Actor, visitorMessage: MessageKey): SignedIn {
  if (!actor) throw new AppError('UNAUTHENTICATED', visitorMessage);
  return requireActive(actor);
}

export function requireAdmin(actor: Actor): SignedIn {
  const a = requireActive(actor);
  if (!a.isAdmin) throw new AppError('FORBIDDEN', 'forbidden');
  return a;
}

/** May work the moderation queue, the rating bursts and the log: an admin or a moderator, not banned. */
export const isModeratorActor = (actor: Actor): boolean => !!actor && !actor.isBanned && (actor.isAdmin || actor.isModerator === true);

/** An admin or a moderator (not banned): reads and decides reports and bursts, reads the log. */
export function requireModerator(actor: Actor): SignedIn {
  const a = requireActive(actor);
  if (!a.isAdmin && !a.isModerator) throw new AppError('FORBIDDEN', 'forbidden');
  return a;
}

/** The actor themself, or an admin. */
export function requireSelfOrAdmin(actor: Actor, userId: string): SignedIn {
  const a = requireSignedIn(actor);
  if (a.id === userId) return a;
  if (a.isAdmin && !a.isBanned) return a;
  throw new AppError('FORBIDDEN', 'forbidden');
}
