import { newId } from '../lib/ids';
import type { branches, businessRatings, businesses, commentRatings, comments, favorites, replies, replyRatings, users } from '../../db/schema';
import { demoBusinesses, suggestionBox, type SeedBusiness } from './businesses';
import { demoComments, demoFavorites, EMOJI_RATE_POOL, seededRandom } from './community';
import { emojiRatingColumns, groupBy, starRatingColumns } from './counts';
import { demoUsers, type UserKey } from './users';
import { swedishSortKey } from '../lib/sv-sort-key';
import { titleSearchOf } from '../services/business/business';
import { demoBranchFacts, demoBusinessFacts } from './places';

export type DemoRows = {
  users: (typeof users.$inferInsert)[];
  businesses: (typeof businesses.$inferInsert)[];
  /** Each business's category by its Swedish name (business id → name), resolved against the list when inserted. */
  categoryOf: Map<string, string>;
  branches: (typeof branches.$inferInsert)[];
  businessRatings: (typeof businessRatings.$inferInsert)[];
  favorites: (typeof favorites.$inferInsert)[];
  comments: (typeof comments.$inferInsert)[];
  replies: (typeof replies.$inferInsert)[];
  commentRatings: (typeof commentRatings.$inferInsert)[];
  replyRatings: (typeof replyRatings.$inferInsert)[];
};

/** The suggestion box first: the directory lists it first and it gets the oldest timestamp. */
export const seedBusinesses: SeedBusiness[] = [suggestionBox, ...demoBusinesses];

/**
 * businesses.title_search. The businesses service owns this rule and must use exactly the same
 * call, or a search could miss demo businesses (`åhléns` must find `ÅHLÉNS`).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SEED = 20240602;

/** How many users rate a post: most get a few, some none (so "no ratings yet" shows too). */
const COMMENT_RATER_COUNTS = [0, 1, 2, 2, 3, 3, 4, 5] as const;
const REPLY_RATER_COUNTS = [0, 0, 1, 1, 2, 3] as const;
/** Share of (user, business) pairs with a star rating besides those given with a comment. */
const EXTRA_STAR_RATING_SHARE = 0.3;

/**
 * Builds every demo row with its count and average columns derived from the rating, reply,
 * comment and favourite rows built here. Pure apart from the random ids; `iconIds` is keyed by
 * business title.
 */
export function buildDemoRows(input: {
  now: number;
  passwordHash: string;
  iconIds: Record<string, string>;
  /** Stored pictures by index in demoComments (server/seed/pictures.ts). */
  pictureIds?: ReadonlyMap<number, string>;
}): DemoRows {
  const { now } = input;
  const random = seededRandom(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const between = (from: number, to: number) => Math.floor(from + random() * (to - from));

  const userRows = demoUsers.map((u, i) => {
    const createdAt = now - (60 - i) * DAY;
    return {
      id: newId(),
      email: u.email,
      passwordHash: input.passwordHash,
      firstName: u.firstName,
      lastName: u.lastName,
      isAdmin: 'isAdmin' in u && u.isAdmin,
      emailConfirmed: true,
      isDemo: true,
      language: 'sv',
      favoritesCount: 0,
      createdAt,
      updatedAt: createdAt,
    };
  });
  const userIdOf = new Map(demoUsers.map((u, i) => [u.key, userRows[i].id]));
  const userId = (key: UserKey) => userIdOf.get(key) as string;
  /** `count` users picked at random, never the author: nobody rates their own post. */
  const othersThan = (authorId: string, count: number) =>
    userRows
      .filter((u) => u.id !== authorId)
      .map((u) => ({ id: u.id, order: random() }))
      .sort((a, b) => a.order - b.order)
      .slice(0, count)
      .map((u) => u.id);

  const businessRows = seedBusinesses.map((b, i) => {
    const iconId = input.iconIds[b.title];
    if (!iconId) throw new Error(`no icon stored for demo business ${b.title}`);
    const createdAt = now - 90 * DAY + i * MINUTE;
    return {
      id: newId(),
      title: b.title,
      titleSearch: titleSearchOf(b.title),
      titleSort: swedishSortKey(b.title),
      description: b.description,
      descriptionEn: b.descriptionEn ?? null,
      ...demoBusinessFacts(b.title),
      iconId,
      isSuggestionBox: b.isSuggestionBox ?? false,
      ratingCount: 0,
      ratingSum: 0,
      commentCount: 0,
      createdAt,
      updatedAt: createdAt,
    };
  });
  const businessIdOf = new Map(seedBusinesses.map((b, i) => [b.title, businessRows[i].id]));
  const businessId = (title: string) => {
    const id = businessIdOf.get(title);
    if (!id) throw new Error(`demo data names an unknown business: ${title}`);
    return id;
  };

  const branchRows = seedBusinesses.flatMap((b, i) =>
    b.branches.map((branch, position) => ({
      id: newId(),
      businessId: businessRows[i].id,
      location: branch.location,
      address: branch.address ?? null,
      ...demoBranchFacts(b.title, b.category, branch.location, branch.address ?? null),
      position,
    })),
  );

  const commentRows: DemoRows['comments'] = [];
  const replyRows: DemoRows['replies'] = [];
  for (const [index, c] of demoComments.entries()) {
    const business = seedBusinesses.find((b) => b.title === c.business);
    if (!business?.branches.some((branch) => branch.location === c.location)) {
      throw new Error(`demo comment location ${c.location} is not a branch of ${c.business}`);
    }
    const commentId = newId();
    const createdAt = now - c.hoursAgo * HOUR - between(0, 50) * MINUTE;
    commentRows.push({
      id: commentId,
      businessId: businessId(c.business),
      userId: userId(c.author),
      businessLocation: c.location,
      branchId: branchRows.find((b) => b.businessId === businessId(c.business) && b.location === c.location)?.id ?? null,
      text: c.text,
      imageId: input.pictureIds?.get(index) ?? null,
      createdAt,
      updatedAt: createdAt,
    });
    for (const r of c.replies) {
      // Jitter stays under an hour, so replies keep their order and stay before `now`.
      const replyAt = createdAt + r.after * HOUR + between(0, 50) * MINUTE;
      replyRows.push({
        id: newId(),
        commentId,
        businessId: businessId(c.business),
        userId: userId(r.author),
        text: r.text,
        createdAt: replyAt,
        updatedAt: replyAt,
      });
    }
  }

  const emojiRatingsOf = (post: { userId: string; createdAt: number }, raterCounts: readonly number[]) =>
    othersThan(post.userId, pick(raterCounts)).map((raterId) => ({
      userId: raterId,
      rate: pick(EMOJI_RATE_POOL),
      createdAt: between(post.createdAt, now),
    }));
  const commentRatingRows = commentRows.flatMap((c) => emojiRatingsOf(c, COMMENT_RATER_COUNTS).map((r) => ({ commentId: c.id, ...r })));
  const replyRatingRows = replyRows.flatMap((r) => emojiRatingsOf(r, REPLY_RATER_COUNTS).map((rating) => ({ replyId: r.id, ...rating })));

  // One star rating per (business, user): the random ones first, then those given with a
  // comment, oldest first, so the latest comment's stars win as a re-rating would.
  const stars = new Map<string, DemoRows['businessRatings'][number]>();
  const rateBusiness = (business: string, user: string, rate: number, at: number) =>
    stars.set(`${business} ${user}`, { businessId: business, userId: user, rate, createdAt: at, updatedAt: at });
  const adminId = userRows.find((u) => u.isAdmin)?.id;
  seedBusinesses.forEach((b, i) => {
    if (b.isSuggestionBox || b.adminRate === undefined) return;
    // The admin who added it rated it in the form, like any other rating.
    if (adminId) rateBusiness(businessRows[i].id, adminId, b.adminRate, businessRows[i].createdAt);
    for (const u of userRows) {
      if (u.isAdmin || random() >= EXTRA_STAR_RATING_SHARE) continue;
      const rate = Math.min(5, Math.max(1, b.adminRate + pick([-1, 0, 0, 1])));
      rateBusiness(businessRows[i].id, u.id, rate, between(now - 40 * DAY, now - 30 * DAY));
    }
  });
  demoComments
    .map((c, i) => ({ stars: c.stars, row: commentRows[i] }))
    .sort((a, b) => a.row.createdAt - b.row.createdAt)
    .forEach(({ stars: rate, row }) => {
      if (rate !== undefined) rateBusiness(row.businessId, row.userId, rate, row.createdAt);
    });
  const businessRatingRows = [...stars.values()];
  // Each comment shows its author's current stars (comments.author_rate).
  for (const c of commentRows) c.authorRate = stars.get(`${c.businessId} ${c.userId}`)?.rate ?? null;

  const favoriteRows = Object.entries(demoFavorites).flatMap(([key, titles]) =>
    (titles ?? []).map((title) => ({ userId: userId(key as UserKey), businessId: businessId(title), createdAt: between(now - 30 * DAY, now) })),
  );

  const businessIds = businessRows.map((b) => b.id);
  const starsOfBusiness = groupBy(businessIds, businessRatingRows, (r) => r.businessId);
  const commentsOfBusiness = groupBy(businessIds, commentRows, (c) => c.businessId);
  for (const b of businessRows) {
    Object.assign(b, starRatingColumns(starsOfBusiness(b.id).map((r) => r.rate)), { commentCount: commentsOfBusiness(b.id).length });
  }
  const commentIds = commentRows.map((c) => c.id);
  const repliesOfComment = groupBy(commentIds, replyRows, (r) => r.commentId);
  const ratingsOfComment = groupBy(commentIds, commentRatingRows, (r) => r.commentId);
  for (const c of commentRows) {
    Object.assign(c, emojiRatingColumns(ratingsOfComment(c.id).map((r) => r.rate)), { replyCount: repliesOfComment(c.id).length });
  }
  const ratingsOfReply = groupBy(
    replyRows.map((r) => r.id),
    replyRatingRows,
    (r) => r.replyId,
  );
  for (const r of replyRows) Object.assign(r, emojiRatingColumns(ratingsOfReply(r.id).map((rating) => rating.rate)));
  const favoritesOfUser = groupBy(
    userRows.map((u) => u.id),
    favoriteRows,
    (f) => f.userId,
  );
  for (const u of userRows) u.favoritesCount = favoritesOfUser(u.id).length;

  return {
    users: userRows,
    businesses: businessRows,
    categoryOf: new Map(seedBusinesses.map((b, i) => [businessRows[i].id, b.category])),
    branches: branchRows,
    businessRatings: businessRatingRows,
    favorites: favoriteRows,
    // Oldest first, as a live site inserts them: rowid order is posting order (the comment search pages by it).
    comments: [...commentRows].sort((a, b) => a.createdAt - b.createdAt),
    replies: replyRows,
    commentRatings: commentRatingRows,
    replyRatings: replyRatingRows,
  };
}
