import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Every stored upload. Files live in DATA_DIR/uploads under a content-hash name. A row that no
 * user, business, comment or reply points at for 24 hours is swept with its file.
 */
export const images = sqliteTable(
  'images',
  {
    id: text('id').primaryKey(),
    /** e.g. '3f7a…c1.webp' — the SHA-256 of the encoded bytes. */
    fileName: text('file_name').notNull().unique(),
    /** 'avatar' | 'business' | 'icon' | 'comment' | 'reply' | 'reply-edit' | 'demo' */
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** Who uploaded it; plain text (no foreign key) so deleting a user never blocks on it. */
    ownerId: text('owner_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('images_created_at_idx').on(t.createdAt)],
);
