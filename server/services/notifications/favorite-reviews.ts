import { and, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { comments, favorites, mailPullMarks, notifications, notificationSettings, replies, users } from '../../../db/schema';
import { inTransaction, keptLimit, keptParam, preparedStatements } from '../../lib/prepared';
import { notificationMailDefaults } from '../../../shared/schemas/notifications';

/**
 * New reviews of a favourite, fanned out on read (issue 30.4, docs/operations/scaling.md).
 *
 * A new review writes nothing for the business's followers: a review of a business with 3,000
 * followers used to write 3,000 rows inside the review's transaction. Instead, when a user's bell
 * count or list is read, and when the mail job runs for users who get mail about new reviews, the
 * reviews posted on the user's favourites since their watermark (users.favorite_reviews_at) become
 * ordinary notification rows for that user alone, and the watermark moves. Read state, ids, links,
 * pruning and mails then work on those rows as on every other notice.
 *
 * A review counts for a favourite when it was posted after the favourite was made and after the
 * watermark, by someone else who is not banned, and it is neither hidden nor removed at the pull.
 * A favourite made later pulls no older reviews; an unfavoured business pulls nothing more.
 */

/**
 * The next pull looks again at reviews this much older than the watermark (a post in the same
 * millisecond as a pull, a clock stepping back): a review has one row per reader
 * (notifications_favorite_review_idx), so a second look adds nothing twice.
 */
export const PULL_OVERLAP_MS = 2_000;
/** At most this many new reviews become rows in one pull: the newest. */
export const PULL_MAX = 50;
/** Followers the mail job reads per page of a business's followers (one statement, bounded cost). */
export const MAIL_FOLLOWERS_PAGE = 500;
/**
 * The daily-digest readers are looked for at most this often (each look reads the reviews since
 * the last look and their followers, and the readers whose digest came due since); the instant
 * ones on every run, over the last run's reviews.
 */
export const DAILY_PULL_EVERY_MS = 60 * 60 * 1000;
/** The first daily look of a site that has none stored looks back this far (then: since the last look). */
const DIGEST_LOOKBACK_MS = 2 * 24 * 60 * 60 * 1000;

const reader = alias(users, 'reader');
/** The reviews of one favourite, newest first (the pull's per-favourite walk). */
const newest = alias(comments, 'newest');
const p = {
  me: sql.placeholder('me'),
  now: sql.placeholder('now'),
  since: sql.placeholder('since'),
  floor: sql.placeholder('floor'),
  daily: sql.placeholder('daily'),
  dailyDue: sql.placeholder('dailyDue'),
  newest: sql.placeholder('newest'),
  business: sql.placeholder('business'),
  after: sql.placeholder('after'),
};

/** Where a favourite's walk starts: after the favourite was made and after the reader's watermark. */
const walkStart = sql`max(${favorites.createdAt} - 1, coalesce(${reader.favoriteReviewsAt} - ${PULL_OVERLAP_MS}, 0))`;

/** A favourite review's row as the pulls write it; `at` is when it sorts (the review's time, or its restore's). */
function rowOf(at: SQL) {
  return {
    // A rowid of its own; notifications_favorite_review_idx keeps one row per review and reader.
    id: sql<number | null>`null`.as('id'),
    userId: sql<string>`${favorites.userId}`.as('user_id'),
    kind: sql<string>`'favoriteReview'`.as('kind'),
    actorId: sql<string | null>`${comments.userId}`.as('actor_id'),
    commentId: sql<string | null>`${comments.id}`.as('comment_id'),
    businessId: sql<string | null>`null`.as('business_id'),
    suggestionId: sql<string | null>`null`.as('suggestion_id'),
    replyId: sql<string | null>`null`.as('reply_id'),
    groupKey: sql<string | null>`null`.as('group_key'),
    count: sql<number>`1`.as('count'),
    reason: sql<string | null>`null`.as('reason'),
    createdAt: sql<number>`${at}`.as('created_at'),
    readAt: sql<number | null>`null`.as('read_at'),
    mailedAt: sql<number | null>`null`.as('mailed_at'),
    mailDueAt: sql<number | null>`null`.as('mail_due_at'),
  };
}

/** The reader's watermark without the overlap: a review after it was never looked at. */
const watermark = sql`coalesce(${reader.favoriteReviewsAt}, 0)`;

/** The statements of the pull; exported so the query-plan test checks them. */
export function favoriteReviewQueries(db: Db) {
  const reviews = sql`coalesce(${notificationSettings.reviews}, ${notificationMailDefaults.reviews})`;
  const hasPosted = sql`(exists (select 1 from ${comments} as posted where posted.user_id = ${reader.id})
    or exists (select 1 from ${replies} as posted where posted.user_id = ${reader.id}))`;
  return {
    /**
     * One user's new reviews of their favourites, as rows: the user's favourites by primary key,
     * each walked on comments_business_idx from its start, the newest PULL_MAX kept.
     */
    pull: db
      .insert(notifications)
      .select(
        db
          // The review's own time: the entry sorts where the review happened.
          .select(rowOf(sql`${comments.createdAt}`))
          .from(favorites)
          .innerJoin(reader, eq(reader.id, favorites.userId))
          // Each favourite gives at most its PULL_MAX newest qualifying reviews, walked backwards on
          // comments_business_idx: a first pull for a follower of a business with 100,000 reviews
          // reads 50 of them, not all (at scale 10 the join-then-sort took 0.2–1.4 s per reader).
          .innerJoin(
            comments,
            sql`${comments.id} in (select ${newest.id} from ${comments} as "newest"
              where ${newest.businessId} = ${favorites.businessId} and ${newest.createdAt} > ${walkStart}
                and ${newest.userId} <> ${p.me} and ${newest.hiddenAt} is null and ${newest.removedAt} is null
                and not exists (select 1 from ${users} as banned where banned.id = ${newest.userId} and banned.is_banned)
              order by ${newest.createdAt} desc limit ${sql.raw(String(PULL_MAX))})`,
          )
          .where(eq(favorites.userId, p.me))
          .orderBy(desc(comments.createdAt))
          .limit(keptLimit(PULL_MAX)),
      )
      .onConflictDoNothing(),
    /**
     * Reviews shown again by a moderator since the reader's look (comments_restored_business_idx,
     * which holds restored reviews only): a review hidden when the reader looked, and restored
     * after, is announced now, once (the unique index keeps one row per review and reader, so a
     * reader who had it before the hide, or after an earlier restore, gets nothing twice). The
     * entry sorts at the restore. Same conditions as the walk otherwise.
     */
    pullRestored: db
      .insert(notifications)
      .select(
        db
          .select(rowOf(sql`${comments.restoredAt}`))
          .from(favorites)
          .innerJoin(reader, eq(reader.id, favorites.userId))
          // Per favourite, as the walk: a seek into the restored reviews of its business (a join
          // let the planner scan that index whole once ANALYZE found it small).
          .innerJoin(
            comments,
            sql`${comments.id} in (select ${newest.id} from ${comments} as "newest" indexed by comments_restored_business_idx
              where ${newest.businessId} = ${favorites.businessId} and ${newest.restoredAt} > coalesce(${reader.favoriteReviewsAt} - ${PULL_OVERLAP_MS}, 0)
                and ${newest.createdAt} > ${favorites.createdAt} - 1
                and ${newest.userId} <> ${p.me} and ${newest.hiddenAt} is null and ${newest.removedAt} is null
                and not exists (select 1 from ${users} as banned where banned.id = ${newest.userId} and banned.is_banned))`,
          )
          .where(eq(favorites.userId, p.me))
          .orderBy(desc(comments.restoredAt))
          .limit(keptLimit(PULL_MAX)),
      )
      .onConflictDoNothing(),
    /**
     * The look before a pull, one row: `near`, whether any favourite has a review (or a restore)
     * the pull would read (after its start, the watermark less PULL_OVERLAP_MS); `past`, whether
     * any is after the watermark itself. Nothing near: no pull runs. Something past: the pull read
     * it, kept or skipped (the reader's own, hidden, removed, a banned author's), and the
     * watermark moves past it, so no later pull steps over it again. Each favourite costs a seek
     * to the newest entry of its business on comments_business_idx and on
     * comments_restored_business_idx (LIMIT 1 each), whatever lies behind them.
     */
    look: db.select({ near: sql<number | null>`max(look.near)`, past: sql<number | null>`max(look.past)` }).from(
      sql`(select n > max(wm - ${PULL_OVERLAP_MS}, fc - 1) or r > wm - ${PULL_OVERLAP_MS} as near, n > max(wm, fc - 1) or r > wm as past
          from (select
            (select ${newest.createdAt} from ${comments} as "newest" where ${newest.businessId} = ${favorites.businessId}
              order by ${newest.createdAt} desc limit 1) as n,
            (select ${newest.restoredAt} from ${comments} as "newest" indexed by comments_restored_business_idx
              where ${newest.businessId} = ${favorites.businessId} and ${newest.restoredAt} is not null
              order by ${newest.restoredAt} desc limit 1) as r,
            ${watermark} as wm, ${favorites.createdAt} as fc
            from ${favorites} inner join ${users} as "reader" on ${reader.id} = ${favorites.userId}
            where ${favorites.userId} = ${keptParam(p.me)})) as look`,
    ),
    mark: db
      .update(users)
      .set({ favoriteReviewsAt: sql`${p.now}` })
      .where(eq(users.id, p.me)),
    /**
     * The businesses reviewed since `since`, each with its newest review's time: where the mail
     * job looks for followers (comments_feed_idx from the window's start, one row per business).
     */
    mailBusinesses: db
      .select({ id: sql<string>`${comments.businessId}`.as('id'), newest: sql<number>`max(${comments.createdAt})`.as('newest') })
      .from(sql`${comments} indexed by comments_feed_idx`)
      .where(gt(comments.createdAt, p.since))
      .groupBy(comments.businessId),
    /** The businesses with a review restored since `since`, each with its latest restore (comments_restored_idx). */
    mailRestoredBusinesses: db
      .select({ id: sql<string>`${comments.businessId}`.as('id'), newest: sql<number>`max(${comments.restoredAt})`.as('newest') })
      .from(sql`${comments} indexed by comments_restored_idx`)
      .where(gt(comments.restoredAt, p.since))
      .groupBy(comments.businessId),
    /**
     * One page of a business's followers (favorites_business_idx from the cursor on), each with
     * whether the mail job should pull for them: the favourite is not newer than the business's
     * newest review and the reader's watermark is behind it; they are told of new reviews by mail at all
     * (instant: a review since `floor`; daily: when the digest is due), have posted, and are
     * neither banned nor demo accounts. A page is PAGE rows whatever they say, so its cost is bounded.
     */
    mailFollowers: db
      .select({
        rowid: sql<number>`${favorites}.rowid`.as('cursor'),
        id: sql<string>`${favorites.userId}`.as('id'),
        wanted: sql<number>`case when ${favorites.createdAt} <= ${p.newest}
            and coalesce(${reader.favoriteReviewsAt} - ${PULL_OVERLAP_MS}, 0) < ${p.newest}
            and ${reader.isBanned} = 0 and ${reader.isDemo} = 0
            and ((${reviews} = 'instant' and ${p.newest} > ${p.floor})
              or (${p.daily} = 1 and ${reviews} = 'daily'
                and (${notificationSettings.digestAt} is null or ${notificationSettings.digestAt} <= ${p.dailyDue})))
          then ${hasPosted} else 0 end`.as('wanted'),
      })
      .from(sql`${favorites} indexed by favorites_business_idx`)
      .innerJoin(reader, eq(reader.id, favorites.userId))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, favorites.userId))
      .where(and(eq(favorites.businessId, p.business), sql`${favorites}.rowid > ${p.after}`))
      .orderBy(sql`${favorites}.rowid`)
      .limit(keptLimit(MAIL_FOLLOWERS_PAGE)),
    /**
     * The daily readers of new reviews whose digest came due in (`after`, `due`]
     * (notification_settings_digest_idx): while it was not due, the looks skipped them, whatever
     * they were behind; now their own look decides. Each digest comes due once, so each reader is
     * read once a day at most. Neither banned nor demo accounts, and only who has posted.
     */
    mailDue: db
      .select({ id: sql<string>`${notificationSettings.userId}`.as('id') })
      .from(sql`${notificationSettings} indexed by notification_settings_digest_idx`)
      .innerJoin(reader, eq(reader.id, notificationSettings.userId))
      .where(
        sql`${notificationSettings.digestAt} > ${p.after} and ${notificationSettings.digestAt} <= ${p.dailyDue}
          and ${reviews} = 'daily' and ${reader.isBanned} = 0 and ${reader.isDemo} = 0 and ${hasPosted}`,
      ),
    marks: db.select({ name: mailPullMarks.name, at: mailPullMarks.at }).from(mailPullMarks),
    setMark: db
      .insert(mailPullMarks)
      .values({ name: sql.placeholder('name'), at: sql.placeholder('at') })
      .onConflictDoUpdate({ target: mailPullMarks.name, set: { at: sql`excluded.at` } }),
  };
}

const queries = preparedStatements(favoriteReviewQueries);

/**
 * Turns the user's new reviews of favourites into notification rows (at most PULL_MAX, the
 * newest, and the reviews restored since), and moves the watermark when it read any review after
 * it. Returns how many rows were added.
 */
export function pullFavoriteReviews(db: Db, userId: string, now = Date.now(), options: { alwaysMark?: boolean } = {}): number {
  const q = queries(db);
  // Most looks of a bell find nothing new: one statement of seeks, no walk, and no transaction
  // (a read opens none: no BEGIN and COMMIT on every bell). The look and the writes run on the one
  // connection with nothing of this process in between (synchronous); the pull's own conditions
  // hold whatever another process wrote since. The mail job pulls only for readers it found
  // behind, and marks anyway: it walks without the look.
  const look = options.alwaysMark ? undefined : q.look.get({ me: userId });
  if (!options.alwaysMark && !look?.near && !look?.past) return 0;
  return inTransaction(db, () => {
    const added = options.alwaysMark || look?.near ? q.pull.run({ me: userId }).changes + q.pullRestored.run({ me: userId }).changes : 0;
    // A read that found nothing after the watermark writes nothing. One that stepped only over
    // reviews it skips (the reader's own, hidden, removed, a banned author's) moves it too: left
    // behind them, every later read stepped over them again, as many as had piled up. The mail
    // job marks anyway, so the reader leaves its selection.
    if (added > 0 || options.alwaysMark || look?.past) q.mark.run({ me: userId, now });
    return added;
  });
}

type MailPull = {
  /** Reviews after this (less the overlap) are the instant readers' window. */
  floor: number;
  /** Reviews after this (less the overlap) are the next daily look's window; digests due since this less a day, its readers. */
  dailyFloor: number;
  nextDailyAt: number;
  /** The window's reviewed businesses not yet walked, and where the walk of the first stands. */
  businesses: { id: string; newest: number }[];
  after: number;
  /** Followers of the last page read who are still to be pulled for. */
  readers: string[];
  /** Daily readers whose digest came due since the last look, still to be looked at. */
  due: string[];
  /** The window is being worked off (a run may stop between two pages or pulls: a slice). */
  open: boolean;
  daily: boolean;
  /** When the window was opened: the next one starts there. */
  openedAt: number;
  dailyDue: number;
  floorUsed: number;
  /** What the pull read and did since this process started (the tests count it). */
  counts: MailPullCounts;
};
/** What the mail job's pull has read and done since the process started. */
export type MailPullCounts = { windows: number; businesses: number; followers: number; due: number; pulls: number };
const mailPulls = new WeakMap<Db, MailPull>();

/**
 * The mail job's pull (services/notifications/notification-mails.ts): for each user who would
 * get a mail about a new review of a favourite (instant: reviews since the job's last run; daily:
 * reviews since its last daily look, and the readers whose digest came due since), the same pull
 * as a read of the bell. Returns the rows added.
 *
 * It walks the businesses reviewed in the window and, a page at a time, their followers, pulling
 * for those whose watermark is behind. With a `deadline` (a `performance.now()` time) it stops
 * after the page or pull during which the deadline passed and goes on there at the next call: the
 * maintenance timer calls it in slices with a turn for requests in between
 * (`favoriteMailPullDone` says when the window is worked off). At scale 10 (2 days: 5,613 reviews
 * of 2,300 businesses with 717,000 followers) the one statement that joined reviews to followers
 * held the connection and the event loop for minutes.
 *
 * Where it stands is stored (mail_pull_marks) when a window is worked off, so a restart goes on
 * from the last window, and the daily look reads what came since the last look: both looked
 * back two days at every follower of the businesses reviewed in them, after every start and
 * every hour (at scale 10, 717,000 followers read for minutes of 0.2–0.5 of a core, to find
 * nobody behind). A site with no marks yet looks back a day (instant) and two (daily), once.
 */
export function pullFavoriteReviewsForMail(db: Db, now = Date.now(), digestEveryMs: number, deadline = Infinity): number {
  const q = queries(db);
  let state = mailPulls.get(db);
  if (!state) {
    const marks = new Map(q.marks.all().map((m) => [m.name, m.at]));
    const floor = marks.get('instant') ?? now - digestEveryMs;
    const dailyFloor = marks.get('daily') ?? now - DIGEST_LOOKBACK_MS;
    state = {
      floor,
      dailyFloor,
      // A daily look within the hour before the restart counts: the next is due an hour after it.
      nextDailyAt: marks.has('daily') ? dailyFloor + DAILY_PULL_EVERY_MS : now,
      businesses: [],
      after: 0,
      readers: [],
      due: [],
      open: false,
      daily: false,
      openedAt: now,
      dailyDue: 0,
      floorUsed: 0,
      counts: { windows: 0, businesses: 0, followers: 0, due: 0, pulls: 0 },
    };
    mailPulls.set(db, state);
  }
  if (!state.open) {
    const floor = state.floor - PULL_OVERLAP_MS;
    const daily = now >= state.nextDailyAt;
    const since = daily ? Math.min(floor, state.dailyFloor - PULL_OVERLAP_MS) : floor;
    // Restored reviews are news to followers too: their businesses join the window's, at the restore.
    const window = new Map(q.mailBusinesses.all({ since }).map((b) => [b.id, b.newest]));
    for (const b of q.mailRestoredBusinesses.all({ since })) window.set(b.id, Math.max(window.get(b.id) ?? 0, b.newest));
    state.businesses = [...window].map(([id, newest]) => ({ id, newest }));
    const dailyDue = now - digestEveryMs;
    // The digests that came due since the last look (its own due time was its floor less a day).
    state.due = daily ? q.mailDue.all({ after: state.dailyFloor - digestEveryMs, dailyDue }).map((r) => r.id) : [];
    state.counts.windows++;
    state.counts.businesses += state.businesses.length;
    state.counts.due += state.due.length;
    Object.assign(state, { after: 0, readers: [], open: true, daily, openedAt: now, dailyDue, floorUsed: floor });
  }
  let added = 0;
  const more = () => state.due.length > 0 || state.readers.length > 0 || state.businesses.length > 0;
  for (;;) {
    // A reader whose digest came due: their own look says whether anything is new (no mark otherwise).
    while (state.due.length > 0) {
      added += pullFavoriteReviews(db, state.due.shift()!, now);
      state.counts.pulls++;
      if (more() && performance.now() >= deadline) return added;
    }
    while (state.readers.length > 0) {
      added += pullFavoriteReviews(db, state.readers.shift()!, now, { alwaysMark: true });
      state.counts.pulls++;
      if (more() && performance.now() >= deadline) return added;
    }
    if (state.businesses.length === 0) break;
    const business = state.businesses[0];
    const page = q.mailFollowers.all({
      business: business.id,
      newest: business.newest,
      after: state.after,
      floor: state.floorUsed,
      daily: state.daily ? 1 : 0,
      dailyDue: state.dailyDue,
    });
    state.counts.followers += page.length;
    state.readers = page.filter((f) => f.wanted).map((f) => f.id);
    if (page.length < MAIL_FOLLOWERS_PAGE) {
      state.businesses.shift();
      state.after = 0;
    } else {
      state.after = page[page.length - 1].rowid;
    }
    // A page with readers on it is followed by at least one pull, so every slice moves someone on.
    if (state.readers.length === 0 && more() && performance.now() >= deadline) return added;
  }
  state.open = false;
  state.floor = state.openedAt;
  q.setMark.run({ name: 'instant', at: state.openedAt });
  if (state.daily) {
    state.nextDailyAt = state.openedAt + DAILY_PULL_EVERY_MS;
    state.dailyFloor = state.openedAt;
    q.setMark.run({ name: 'daily', at: state.openedAt });
  }
  return added;
}

/** What the mail job's pull has read and done on `db` since the process started (undefined before its first run). */
export function mailPullCounts(db: Db): MailPullCounts | undefined {
  const counts = mailPulls.get(db)?.counts;
  return counts && { ...counts };
}

/** Whether the mail job's pull has worked off its window (no business or follower page waits). */
export function favoriteMailPullDone(db: Db): boolean {
  const state = mailPulls.get(db);
  return state !== undefined && !state.open;
}
