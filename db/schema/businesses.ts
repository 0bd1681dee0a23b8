import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { images } from './images';
import { users } from './users';

/**
 * The one bilingual list of categories (docs/product.md §7): admins pick one for a business or
 * add a new one with its Swedish and English names. Names are unique by their Swedish folded form
 * (checked by services/business/categories.ts, since SQLite's lower() does not fold Å, Ä, Ö).
 */
export const categories = sqliteTable('categories', {
  id: text('id').primaryKey(),
  nameSv: text('name_sv').notNull(),
  nameEn: text('name_en').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The directory's "by rating" order is a Bayesian average: every business starts with
 * BAYES_PRIOR_COUNT imagined ratings of BAYES_PRIOR_MEAN stars (the middle of the scale), so one
 * 5-star rating (score 3.33) does not outrank a hundred 4.8s (4.71). Fixed, not the site's
 * average, so a score changes only with its own business's ratings. README documents it.
 */
export const BAYES_PRIOR_COUNT = 5;
export const BAYES_PRIOR_MEAN = 3;

export const businesses = sqliteTable(
  'businesses',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    /** title lower-cased with Swedish rules, for case-insensitive containment search. */
    titleSearch: text('title_search').notNull(),
    /** Always set by the services; nullable only because SQLite cannot add a NOT NULL reference. */
    categoryId: text('category_id').references(() => categories.id),
    description: text('description').notNull(),
    /** The English description; the Swedish one is shown in English while this is null. */
    descriptionEn: text('description_en'),
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    /**
     * (prior count × prior mean + rating_sum) / (prior count + rating_count); null with no
     * ratings, so unrated businesses sort last. Computed by SQLite from the two kept columns, so
     * it moves in the same statement as they do and cannot drift.
     */
    bayesScore: real('bayes_score').generatedAlwaysAs(
      sql.raw(`CASE WHEN rating_count > 0 THEN (${BAYES_PRIOR_COUNT * BAYES_PRIOR_MEAN}.0 + rating_sum) / (${BAYES_PRIOR_COUNT}.0 + rating_count) END`),
      { mode: 'virtual' },
    ),
    /** The title's key for A–Ö order by binary comparison (server/lib/sv-sort-key.ts). */
    titleSort: text('title_sort').notNull().default(''),
    /** How many of the ratings gave 1 … 5 stars (the breakdown); kept with rating_count. */
    stars1: integer('stars_1').notNull().default(0),
    stars2: integer('stars_2').notNull().default(0),
    stars3: integer('stars_3').notNull().default(0),
    stars4: integer('stars_4').notNull().default(0),
    stars5: integer('stars_5').notNull().default(0),
    imageId: text('image_id').references(() => images.id, { onDelete: 'set null' }),
    iconId: text('icon_id').references(() => images.id, { onDelete: 'set null' }),
    /** The "Add New / Lägg till ny" suggestion box: listed first, never deleted. */
    isSuggestionBox: integer('is_suggestion_box', { mode: 'boolean' }).notNull().default(false),
    commentCount: integer('comment_count').notNull().default(0),
    /** The member whose suggestion became this business (services/business/business-suggestions.ts), credited on its page. */
    suggestedBy: text('suggested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The business's own website (https URL) and phone number, shown on its page (issue 31.1). */
    website: text('website'),
    phone: text('phone'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('businesses_title_search_idx').on(t.titleSearch),
    index('businesses_created_at_idx').on(t.createdAt),
    // The directory's orders, the suggestion box first in each (services/business/directory.ts).
    index('businesses_dir_name_idx').on(sql`${t.isSuggestionBox} desc`, t.titleSort, sql`${t.createdAt} desc`, t.id),
    index('businesses_dir_rating_idx').on(sql`${t.isSuggestionBox} desc`, sql`${t.bayesScore} desc`, t.id),
    index('businesses_dir_reviews_idx').on(sql`${t.isSuggestionBox} desc`, sql`${t.ratingCount} desc`, t.id),
    index('businesses_dir_newest_idx').on(sql`${t.isSuggestionBox} desc`, sql`${t.createdAt} desc`, t.id),
    // A deleted account's credits are cleared (ON DELETE SET NULL) without a scan.
    index('businesses_suggested_by_idx')
      .on(t.suggestedBy)
      .where(sql`suggested_by is not null`),
  ],
);

export const branches = sqliteTable(
  'branches',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** The branch's name as comments name it ("Malmö Hyllie"); `town` and `area` are its parts. */
    location: text('location').notNull(),
    /** The street address ("Stadiongatan 40"). */
    address: text('address'),
    position: integer('position').notNull().default(0),
    /** The normalised town the city filter lists ("Malmö"), and the part of it ("Hyllie"), if any. */
    town: text('town').notNull().default(''),
    area: text('area'),
    postalCode: text('postal_code'),
    /** WGS 84 degrees; both or neither (services/business/business-facts.ts). */
    lat: real('lat'),
    lng: real('lng'),
    phone: text('phone'),
    /** The opening hours as JSON (shared/schemas/opening-hours.ts): a weekly schedule and dated exceptions. */
    openingHours: text('opening_hours'),
  },
  (t) => [
    index('branches_business_idx').on(t.businessId, t.position),
    // The directory's city filter: the businesses with a branch in a town.
    index('branches_town_idx').on(t.town, t.businessId),
  ],
);

/**
 * Every change to a business's or branch's facts (website, phone, address, hours …): who, when,
 * and each changed field's value before and after as JSON (services/business/business-facts.ts).
 */
export const businessFactChanges = sqliteTable(
  'business_fact_changes',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** The acting user, kept by name after the account is gone. */
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    /** `{ field: [before, after] }`, branch fields as `branch:<id>.<field>`. */
    changes: text('changes').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('business_fact_changes_business_idx').on(t.businessId, t.createdAt)],
);

export const businessRatings = sqliteTable(
  'business_ratings',
  {
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rate: integer('rate').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /**
     * The rating burst holding this rating out of the public figures (services/moderation/rating-bursts.ts)
     * until a moderator accepts it; it stays set when the burst is rejected.
     */
    heldBy: text('held_by'),
    /**
     * Whether the rating is in the business's rating_sum, rating_count and stars_1..5: not held and
     * its rater not banned. Kept with those columns, so the figures never need a scan.
     */
    counted: integer('counted', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.userId] }),
    // A burst's held ratings, for the business page's "n awaiting review" and the decision.
    index('business_ratings_held_idx')
      .on(t.heldBy)
      .where(sql`held_by is not null`),
    index('business_ratings_user_idx').on(t.userId),
    // A business's ratings of the last hour, for the rating-burst check (services/moderation/rating-bursts.ts).
    index('business_ratings_recent_idx').on(t.businessId, t.updatedAt),
  ],
);

export const favorites = sqliteTable(
  'favorites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.businessId] }), index('favorites_business_idx').on(t.businessId)],
);

/**
 * A member's proposal of a missing place (issue 31.5): a business with one branch, waiting for a
 * moderator or an admin. Approving it creates the business (business_id, its suggested_by credits
 * the member); rejecting it keeps the reason the member is told. Goes with its member's account.
 */
export const businessSuggestions = sqliteTable(
  'business_suggestions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** A category's name as the member wrote or picked it (Swedish or English); the approver's can differ. */
    category: text('category').notNull(),
    location: text('location').notNull(),
    address: text('address').notNull(),
    website: text('website'),
    /** 'pending' | 'approved' | 'rejected'. */
    status: text('status').notNull().default('pending'),
    /** Why it was rejected, as the member is told it. */
    reason: text('reason'),
    businessId: text('business_id').references(() => businesses.id, { onDelete: 'set null' }),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: integer('decided_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // The moderators' queue, oldest first, and the decided ones newest first.
    index('business_suggestions_status_idx').on(t.status, t.createdAt),
    // A member's own suggestions, newest first.
    index('business_suggestions_user_idx').on(t.userId, t.createdAt),
  ],
);
