import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * A version per scope of what the server keeps in memory (server/lib/data-stamp.ts, `scopedStamp`):
 * row `businesses` gets a new random version from triggers (migration 0035) whenever a business
 * (but its comment count), a branch, a category or an image is written, by any connection, in the
 * same transaction. The directory snapshot and the business lists are kept while it holds, so a
 * reaction or a reply no longer rebuilds them. Random, not counted: a version rolled back and
 * written again can never come back to a value something was kept under.
 */
export const keptVersions = sqliteTable('kept_versions', {
  scope: text('scope').primaryKey(),
  version: integer('version').notNull(),
});
