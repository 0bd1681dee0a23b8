import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { images } from './images';
import { users } from './users';

/**
 * The one bilingual list of categories (PRODUCT.md section 7): admins pick one for a business or
 * add a new one with its Swedish and English names. Names are unique by their Swedish folded form
 * (checked by services/categories.ts, since SQLite's lower() does not fold Å, Ä, Ö).
 */
export const categories = sqliteTable('categories', {
  id: text('id').primaryKey(),
  nameSv: text('name_sv').notNull(),
  nameEn: text('name_en').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

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
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('businesses_title_search_idx').on(t.titleSearch), index('businesses_created_at_idx').on(t.createdAt)],
);

export const branches = sqliteTable(
  'branches',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location: text('location').notNull(),
    address: text('address'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('branches_business_idx').on(t.businessId, t.position)],
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
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.userId] }),
    index('business_ratings_user_idx').on(t.userId),
    // A business's ratings of the last hour, for the rating-burst check (services/rating-bursts.ts).
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
