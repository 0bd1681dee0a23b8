import { and, asc, count, desc, eq, gt, lt, or } from 'drizzle-orm';
import { branches, businessSuggestions, businesses, users } from '../../../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { swedishSortKey } from '../../lib/sv-sort-key';
import { townOf } from '../../lib/towns';
import {
  PENDING_SUGGESTIONS_MAX,
  SUGGESTIONS_PAGE,
  type Suggestion,
  type SuggestionInput,
  type SuggestionsPageInput,
  type SuggestionStatus,
} from '../../../shared/schemas/suggestions';
import { requireActiveFor, requireModerator, requireSignedIn, type Actor } from '../actor';
import { titleSearchOf } from './business';
import { writeBusinessSearch } from './business-search';
import { resolveCategory } from './categories';
import { decodeCursor, pageOf } from '../comments/comment-pages';
import { recordModAction } from '../moderation/mod-log';
import { notifyDecision } from '../notifications/notifications';
import { shownLastName } from '../accounts/names';

// Residents add places (issue 31.5): a member suggests a missing business, a moderator or an
// admin approves it (the business exists, its suggester credited) or rejects it with a reason
// the member reads in their list of suggestions.

type Row = typeof businessSuggestions.$inferSelect;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toSuggestion(row: Row): Suggestion {
  return {
    _id: row.id,
    title: row.title,
    category: row.category,
    location: row.location,
    address: row.address,
    website: row.website,
    status: row.status as SuggestionStatus,
    reason: row.reason,
    businessId: row.businessId,
    createdAt: iso(row.createdAt)!,
    decidedAt: iso(row.decidedAt),
  };
}

/**
 * A signed-in member (not banned) suggests a place; it waits for a moderator. Limited like every
 * write ('edit' per member), and at most PENDING_SUGGESTIONS_MAX wait at once per member.
 */
export async function suggestBusiness(deps: Deps, actor: Actor, input: SuggestionInput): Promise<Suggestion> {
  const member = requireActiveFor(actor, 'suggestionLoginRequired');
  await deps.limits.consume('edit', member.id);
  return deps.db.transaction(
    (tx) => {
      const pending =
        tx
          .select({ n: count() })
          .from(businessSuggestions)
          .where(and(eq(businessSuggestions.userId, member.id), eq(businessSuggestions.status, 'pending')))
          .get()?.n ?? 0;
      if (pending >= PENDING_SUGGESTIONS_MAX) throw new AppError('CONFLICT', 'suggestionsPendingTooMany');
      const row = tx
        .insert(businessSuggestions)
        .values({
          id: newId(),
          userId: member.id,
          title: input.title,
          category: input.category,
          location: input.location,
          address: input.address,
          website: input.website || null,
          status: 'pending',
          createdAt: Date.now(),
        })
        .returning()
        .get();
      return toSuggestion(row);
    },
    { behavior: 'immediate' },
  );
}

/** The member's own suggestions, newest first, with each one's decision and a rejection's reason. */
export function mySuggestions(deps: Deps, actor: Actor): Suggestion[] {
  const me = requireSignedIn(actor);
  return deps.db
    .select()
    .from(businessSuggestions)
    .where(eq(businessSuggestions.userId, me.id))
    .orderBy(desc(businessSuggestions.createdAt), desc(businessSuggestions.id))
    .limit(100)
    .all()
    .map(toSuggestion);
}

/**
 * The moderators' queue (moderators and admins): pending suggestions oldest first, or the decided
 * ones (approved, rejected) newest first, a page at a time along business_suggestions_status_idx.
 */
export function listSuggestions(deps: Deps, actor: Actor, input: SuggestionsPageInput): { items: Suggestion[]; nextCursor: string | null } {
  requireModerator(actor);
  const limit = input.limit ?? SUGGESTIONS_PAGE;
  const cursor = decodeCursor(input.cursor, 'string');
  const pending = input.status === 'pending';
  const s = businessSuggestions;
  const after = cursor
    ? pending
      ? or(gt(s.createdAt, cursor.t), and(eq(s.createdAt, cursor.t), gt(s.id, cursor.k)))
      : or(lt(s.createdAt, cursor.t), and(eq(s.createdAt, cursor.t), lt(s.id, cursor.k)))
    : undefined;
  const rows = deps.db
    .select({ row: s, firstName: users.firstName, lastName: shownLastName(users) })
    .from(s)
    .innerJoin(users, eq(users.id, s.userId))
    .where(and(eq(s.status, input.status), after))
    .orderBy(pending ? asc(s.createdAt) : desc(s.createdAt), pending ? asc(s.id) : desc(s.id))
    .limit(limit + 1)
    .all();
  return pageOf(
    rows,
    limit,
    (r) => [r.row.createdAt, r.row.id],
    (r) => ({ ...toSuggestion(r.row), suggester: { _id: r.row.userId, firstName: r.firstName, lastName: r.lastName } }),
  );
}

type Tx = Parameters<Parameters<Deps['db']['transaction']>[0]>[0];

/** The pending suggestion, or the reason it cannot be decided. */
function pendingSuggestion(tx: Tx, id: string): Row {
  const row = tx.select().from(businessSuggestions).where(eq(businessSuggestions.id, id)).get();
  if (!row) throw new AppError('NOT_FOUND', 'suggestionNotFound');
  if (row.status !== 'pending') throw new AppError('CONFLICT', 'suggestionDecided');
  return row;
}

/**
 * Approves a suggestion (moderators and admins): the business is created with the suggested name,
 * category (a new one when the list has none of that name) and branch, credited to its suggester
 * (businesses.suggested_by, shown on its page). Logged in the moderation log.
 */
export async function approveSuggestion(deps: Deps, actor: Actor, id: string): Promise<Suggestion> {
  const moderator = requireModerator(actor);
  await deps.limits.consume('edit', moderator.id);
  return deps.db.transaction(
    (tx) => {
      const row = pendingSuggestion(tx, id);
      const now = Date.now();
      const businessId = newId();
      tx.insert(businesses)
        .values({
          id: businessId,
          title: row.title,
          titleSearch: titleSearchOf(row.title),
          titleSort: swedishSortKey(row.title),
          categoryId: resolveCategory(tx, row.category, undefined, now),
          // The form asks for no description; the business page needs one until an admin writes it.
          description: `${row.category}, ${row.address}, ${row.location}.`,
          // The suggested website is the business's (and the claims' domain check reads it, issue 31.6).
          website: row.website,
          suggestedBy: row.userId,
          createdAt: now,
          updatedAt: now,
        })
        .run();
      // Its town is normalised as every branch's is: the city filter lists it ("Malmö Hyllie" → Malmö, Hyllie).
      tx.insert(branches)
        .values({ id: newId(), businessId, location: row.location, ...townOf(row.location), address: row.address, position: 0 })
        .run();
      writeBusinessSearch(tx, [businessId]);
      const decided = tx
        .update(businessSuggestions)
        .set({ status: 'approved', businessId, decidedBy: moderator.id, decidedAt: now })
        .where(eq(businessSuggestions.id, id))
        .returning()
        .get();
      recordModAction(tx, moderator, { action: 'approveSuggestion', targetKind: 'business', targetId: businessId, excerpt: row.title });
      notifyDecision(tx, 'suggestionApproved', { userId: row.userId, businessId, suggestionId: id }, null, now);
      return toSuggestion(decided);
    },
    { behavior: 'immediate' },
  );
}

/** Rejects a suggestion with a reason its member reads (moderators and admins). Logged. */
export async function rejectSuggestion(deps: Deps, actor: Actor, id: string, reason: string): Promise<Suggestion> {
  const moderator = requireModerator(actor);
  await deps.limits.consume('edit', moderator.id);
  return deps.db.transaction(
    (tx) => {
      const row = pendingSuggestion(tx, id);
      const now = Date.now();
      const decided = tx
        .update(businessSuggestions)
        .set({ status: 'rejected', reason, decidedBy: moderator.id, decidedAt: now })
        .where(eq(businessSuggestions.id, id))
        .returning()
        .get();
      recordModAction(tx, moderator, { action: 'rejectSuggestion', targetKind: 'suggestion', targetId: id, excerpt: row.title, reason });
      // The member reads the reason in the bell (and by mail per their settings), and on /suggest.
      notifyDecision(tx, 'suggestionRejected', { userId: row.userId, businessId: null, suggestionId: id }, reason, now);
      return toSuggestion(decided);
    },
    { behavior: 'immediate' },
  );
}
