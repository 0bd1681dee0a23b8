import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { images } from './images';
import { users } from './users';

export const businesses = sqliteTable(
  'businesses',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    /** title lower-cased with Swedish rules, for case-insensitive containment search. */
    titleSearch: text('title_search').notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    /** The rate the admin entered (1–5); shown while there are no user ratings. */
    adminRate: real('admin_rate').notNull(),
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
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
  (t) => [primaryKey({ columns: [t.businessId, t.userId] }), index('business_ratings_user_idx').on(t.userId)],
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
