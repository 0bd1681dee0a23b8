import { sql } from 'drizzle-orm';
import { check, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * The operator's words for the site (issue 29 item 15): its name, a tagline and the home page's
 * welcome text in both languages. One row (id 1) once an admin has saved them; a null column, or
 * no row, means the release's own text (shared/schemas/site-settings.ts).
 */
export const siteSettings = sqliteTable(
  'site_settings',
  {
    id: integer('id').primaryKey(),
    name: text('name'),
    taglineSv: text('tagline_sv'),
    taglineEn: text('tagline_en'),
    welcomeSv: text('welcome_sv'),
    welcomeEn: text('welcome_en'),
    updatedAt: integer('updated_at').notNull(),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('site_settings_one_row', sql`${t.id} = 1`)],
);
