import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { businessClaims, businessOwners, businesses, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { notifyDecision } from '../notifications/notifications';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { preparedStatements } from '../../lib/prepared';
import {
  CLAIMS_PAGE,
  type BusinessOwner,
  type Claim,
  type ClaimCreateInput,
  type ClaimDecisionInput,
  type ClaimsQuery,
  type MyBusiness,
} from '../../../shared/schemas/owners';
import { requireActiveFor, requireAdmin, requireSignedIn, type Actor, type SignedIn } from '../actor';

/**
 * Business owners (issue 31): a member claims a business, an admin approves or rejects the claim
 * (or it is approved at once when the member's confirmed address is at the business's website's
 * domain); a business may have several owners and an admin can remove one. Owners answer reviews
 * (owner-replies.ts) and read their business's numbers (owner-stats.ts); they may not rate their
 * own business or report its reviews (business-ratings.ts, reports.ts ask isOwner).
 */

const ownerQueries = preparedStatements((db: Db) => ({
  owns: db
    .select({ one: sql<number>`1` })
    .from(businessOwners)
    .where(and(eq(businessOwners.businessId, sql.placeholder('businessId')), eq(businessOwners.userId, sql.placeholder('userId')))),
}));

/**
 * Whether `userId` owns `businessId`: one primary-key lookup. Other services (facts editing) ask
 * this too. Every star rating asks it, so the statement is compiled once per handle: pass the app's
 * `db` (it runs inside the caller's open transaction too, better-sqlite3 having one connection);
 * given a transaction object it is compiled for that transaction.
 */
export function isOwner(db: DbOrTx, userId: string | null | undefined, businessId: string): boolean {
  if (!userId) return false;
  return ownerQueries(db as Db).owns.get({ businessId, userId }) !== undefined;
}

/** Signed in, not banned, and an owner of the business; a visitor hears `visitorMessage`. */
export function requireOwner(
  db: DbOrTx,
  actor: Actor,
  businessId: string,
  visitorMessage: Parameters<typeof requireActiveFor>[1] = 'unauthenticated',
): SignedIn {
  const me = requireActiveFor(actor, visitorMessage);
  if (!isOwner(db, me.id, businessId)) throw new AppError('FORBIDDEN', 'notOwner');
  return me;
}

/** The business's website (issue 31.1), the one place claims read it from; null when it has none. */
export function businessWebsite(db: DbOrTx, businessId: string): string | null {
  return db.select({ website: businesses.website }).from(businesses).where(eq(businesses.id, businessId)).get()?.website ?? null;
}

/**
 * Whether an address is at a website's domain: `anna@pizzeria-roma.se` is at
 * `https://www.pizzeria-roma.se/meny` and at `boka.pizzeria-roma.se`; `anna@mail.pizzeria-roma.se`
 * is not at `pizzeria-roma.se` (a subdomain's mailbox proves less than the domain's). Never for
 * a domain without a dot.
 */
export function emailAtWebsiteDomain(email: string, website: string | null): boolean {
  if (!website) return false;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `https://${website}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^www\./, '');
  const at = email.lastIndexOf('@');
  const domain = at < 0 ? '' : email.slice(at + 1).toLowerCase();
  if (!domain.includes('.') || !host.includes('.')) return false;
  return host === domain || host.endsWith(`.${domain}`);
}

function requireClaimable(db: DbOrTx, businessId: string): { title: string } {
  const row = db.select({ title: businesses.title, isSuggestionBox: businesses.isSuggestionBox }).from(businesses).where(eq(businesses.id, businessId)).get();
  if (!row) throw new AppError('NOT_FOUND', 'businessNotFound');
  if (row.isSuggestionBox) throw new AppError('CONFLICT', 'claimSuggestionBox');
  return row;
}

export type ClaimResult = { claim: Claim; approved: boolean };

/**
 * A member asks to own a business, with a note for the admins. One pending claim per member and
 * business; an owner cannot claim again. A confirmed address at the website's domain owns it at once.
 */
export async function claimBusiness(deps: Deps, actor: Actor, input: ClaimCreateInput, now = Date.now()): Promise<ClaimResult> {
  const me = requireActiveFor(actor, 'claimLoginRequired');
  await deps.limits.consume('claim', me.id);
  const { db } = deps;
  const id = newId();
  const approved = db.transaction((tx) => {
    requireClaimable(tx, input.businessId);
    if (isOwner(tx, me.id, input.businessId)) throw new AppError('CONFLICT', 'claimAlreadyOwner');
    const pending = tx
      .select({ id: businessClaims.id })
      .from(businessClaims)
      .where(and(eq(businessClaims.businessId, input.businessId), eq(businessClaims.userId, me.id), eq(businessClaims.status, 'pending')))
      .get();
    if (pending) throw new AppError('CONFLICT', 'claimAlreadyPending');
    const user = tx.select({ email: users.email, confirmed: users.emailConfirmed }).from(users).where(eq(users.id, me.id)).get();
    const atOnce = user !== undefined && user.confirmed && emailAtWebsiteDomain(user.email, businessWebsite(tx, input.businessId));
    tx.insert(businessClaims)
      .values({
        id,
        businessId: input.businessId,
        userId: me.id,
        note: input.note ?? '',
        status: atOnce ? 'approved' : 'pending',
        createdAt: now,
        decidedAt: atOnce ? now : null,
      })
      .run();
    if (atOnce) addOwner(tx, input.businessId, me.id, now);
    return atOnce;
  });
  return { claim: claimById(db, id), approved };
}

function addOwner(tx: DbOrTx, businessId: string, userId: string, now: number): void {
  tx.insert(businessOwners).values({ businessId, userId, createdAt: now }).onConflictDoNothing().run();
}

const claimColumns = {
  _id: businessClaims.id,
  businessId: businessClaims.businessId,
  businessTitle: businesses.title,
  userId: businessClaims.userId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  emailConfirmed: users.emailConfirmed,
  note: businessClaims.note,
  status: businessClaims.status,
  createdAt: businessClaims.createdAt,
  decidedAt: businessClaims.decidedAt,
};

type ClaimRow = { createdAt: number; decidedAt: number | null } & Omit<Claim, 'createdAt' | 'decidedAt'>;
const toClaim = (r: ClaimRow): Claim => ({
  ...r,
  createdAt: new Date(r.createdAt).toISOString(),
  decidedAt: r.decidedAt === null ? null : new Date(r.decidedAt).toISOString(),
});

const claimsQuery = (db: DbOrTx) =>
  db
    .select(claimColumns)
    .from(businessClaims)
    .innerJoin(businesses, eq(businesses.id, businessClaims.businessId))
    .innerJoin(users, eq(users.id, businessClaims.userId));

function claimById(db: DbOrTx, id: string): Claim {
  const row = claimsQuery(db).where(eq(businessClaims.id, id)).get();
  if (!row) throw new AppError('NOT_FOUND', 'claimNotFound');
  return toClaim(row);
}

/** The admins' list: claims of one status (pending by default), oldest first, at most CLAIMS_PAGE. */
export function listClaims(deps: Deps, actor: Actor, query: ClaimsQuery): Claim[] {
  requireAdmin(actor);
  return claimsQuery(deps.db)
    .where(eq(businessClaims.status, query.status ?? 'pending'))
    .orderBy(asc(businessClaims.createdAt), asc(businessClaims.id))
    .limit(CLAIMS_PAGE)
    .all()
    .map(toClaim);
}

/** An admin approves (the claimant becomes an owner) or rejects a pending claim. */
export async function decideClaim(deps: Deps, actor: Actor, input: ClaimDecisionInput, now = Date.now()): Promise<Claim> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  const { db } = deps;
  db.transaction((tx) => {
    const claim = tx
      .select({ status: businessClaims.status, businessId: businessClaims.businessId, userId: businessClaims.userId })
      .from(businessClaims)
      .where(eq(businessClaims.id, input.id))
      .get();
    if (!claim) throw new AppError('NOT_FOUND', 'claimNotFound');
    if (claim.status !== 'pending') throw new AppError('CONFLICT', 'claimDecided');
    const status = input.decision === 'approve' ? 'approved' : 'rejected';
    const reason = status === 'rejected' && input.reason ? input.reason : null;
    tx.update(businessClaims).set({ status, reason, decidedAt: now, decidedBy: admin.id }).where(eq(businessClaims.id, input.id)).run();
    if (status === 'approved') addOwner(tx, claim.businessId, claim.userId, now);
    // The claimant is told either way (the admin unnamed), a rejection with its reason.
    notifyDecision(
      tx,
      status === 'approved' ? 'claimApproved' : 'claimRejected',
      { userId: claim.userId, businessId: claim.businessId, suggestionId: null },
      reason,
      now,
    );
  });
  return claimById(db, input.id);
}

/** A business's owners (admins). */
export function listOwners(deps: Deps, actor: Actor, businessId: string): BusinessOwner[] {
  requireAdmin(actor);
  requireClaimable(deps.db, businessId);
  return deps.db
    .select({ userId: businessOwners.userId, firstName: users.firstName, lastName: users.lastName, email: users.email, since: businessOwners.createdAt })
    .from(businessOwners)
    .innerJoin(users, eq(users.id, businessOwners.userId))
    .where(eq(businessOwners.businessId, businessId))
    .orderBy(asc(businessOwners.createdAt))
    .all()
    .map((r) => ({ ...r, since: new Date(r.since).toISOString() }));
}

/** An admin removes one owner of a business; their answers stay, as the business's. */
export async function removeOwner(deps: Deps, actor: Actor, businessId: string, userId: string): Promise<void> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('delete', admin.id);
  const gone = deps.db
    .delete(businessOwners)
    .where(and(eq(businessOwners.businessId, businessId), eq(businessOwners.userId, userId)))
    .returning({ userId: businessOwners.userId })
    .all();
  if (gone.length === 0) throw new AppError('NOT_FOUND', 'ownerNotFound');
}

/**
 * The caller's businesses for their profile's "Your business": those they own, then their
 * pending and rejected claims of others (newest first).
 */
export function myBusinesses(deps: Deps, actor: Actor): MyBusiness[] {
  const me = requireSignedIn(actor);
  const { db } = deps;
  const owned = db
    .select({ businessId: businesses.id, title: businesses.title })
    .from(businessOwners)
    .innerJoin(businesses, eq(businesses.id, businessOwners.businessId))
    .where(eq(businessOwners.userId, me.id))
    .orderBy(asc(businesses.titleSort))
    .all()
    .map((r) => ({ ...r, status: 'approved' as const }));
  const ownedIds = new Set(owned.map((o) => o.businessId));
  const claims = db
    .select({ businessId: businesses.id, title: businesses.title, status: businessClaims.status, createdAt: businessClaims.createdAt })
    .from(businessClaims)
    .innerJoin(businesses, eq(businesses.id, businessClaims.businessId))
    .where(and(eq(businessClaims.userId, me.id), sql`${businessClaims.status} <> 'approved'`))
    .orderBy(sql`${businessClaims.createdAt} desc`)
    .all();
  const seen = new Set<string>();
  const open: MyBusiness[] = [];
  for (const c of claims) {
    if (ownedIds.has(c.businessId) || seen.has(c.businessId)) continue;
    seen.add(c.businessId);
    open.push({ businessId: c.businessId, title: c.title, status: c.status });
  }
  return [...owned, ...open];
}

/** Whether the caller owns the business (the business page's owner tools; false for visitors). */
export function ownsBusiness(db: Db, actor: Actor, businessId: string): boolean {
  return !!actor && !actor.isBanned && isOwner(db, actor.id, businessId);
}
