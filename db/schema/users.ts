import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { images } from './images';

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull().unique(),
    /** argon2id hash; null for accounts that only sign in with Google. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /**
     * How others see the name (issue 30): 'initial' ("Förnamn E.", the default for new accounts)
     * or 'full' ("Förnamn Efternamn"; accounts from before the choice existed, migration 0015).
     */
    nameDisplay: text('name_display', { enum: ['full', 'initial'] })
      .notNull()
      .default('initial'),
    imageId: text('image_id').references(() => images.id, { onDelete: 'set null' }),
    isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
    isBanned: integer('is_banned', { mode: 'boolean' }).notNull().default(false),
    /** Why an admin banned the account, shown to its owner at login (null when not banned or none given). */
    banReason: text('ban_reason'),
    /** Appointed by an admin: works the report queue, the rating bursts and the log; manages nobody. */
    isModerator: integer('is_moderator', { mode: 'boolean' }).notNull().default(false),
    emailConfirmed: integer('email_confirmed', { mode: 'boolean' }).notNull().default(false),
    isDemo: integer('is_demo', { mode: 'boolean' }).notNull().default(false),
    /** 'sv' | 'en': the language mails are written in. */
    language: text('language').notNull().default('sv'),
    favoritesCount: integer('favorites_count').notNull().default(0),
    /** An admin's choice: a mail (at most one an hour) when reports hide a post. */
    modDigest: integer('mod_digest', { mode: 'boolean' }).notNull().default(false),
    /**
     * Fan-out on read (services/notifications/favorite-reviews.ts): new reviews of the user's
     * favourites posted up to this time are already notification rows. Null: none pulled yet, so
     * each favourite counts from the time it was made. Migration 0025 set it for existing users.
     */
    favoriteReviewsAt: integer('favorite_reviews_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('users_created_at_idx').on(t.createdAt), index('users_is_admin_idx').on(t.isAdmin), index('users_image_idx').on(t.imageId)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token's secret half; the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Single-use e-mail tokens: 'confirm' (24 h) and 'reset' (1 h). Only the hash is stored.
 * A confirmation token carries the credentials of the registration that issued it (password
 * hash, names, language, avatar): confirming applies exactly those, so whoever registered an
 * address before its owner can never have their password activated by the owner's click.
 */
export const emailTokens = sqliteTable(
  'email_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['confirm', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    pendingPasswordHash: text('pending_password_hash'),
    pendingFirstName: text('pending_first_name'),
    pendingLastName: text('pending_last_name'),
    pendingLanguage: text('pending_language'),
    /** No foreign key, like images.owner_id; the image sweep keeps an image a token names. */
    pendingImageId: text('pending_image_id'),
  },
  (t) => [index('email_tokens_user_kind_idx').on(t.userId, t.kind)],
);

/** A sign-in identity at an OpenID provider, keyed by issuer + subject. */
export const oauthAccounts = sqliteTable(
  'oauth_accounts',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('oauth_accounts_user_id_idx').on(t.userId)],
);

export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: text('id').primaryKey(),
    fromName: text('from_name').notNull(),
    userEmail: text('user_email').notNull(),
    message: text('message').notNull(),
    language: text('language').notNull().default('sv'),
    createdAt: integer('created_at').notNull(),
    mailedAt: integer('mailed_at'),
    /** When an admin marked it read in the inbox (/contact-inbox); null while unread. */
    readAt: integer('read_at'),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    // The inbox's unread count walks only unread rows.
    index('contact_messages_unread_idx')
      .on(t.createdAt)
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * Mails waiting to be sent (server/services/ops/mail-outbox.ts). A request only inserts a row, so a
 * slow or unreachable mail server neither delays nor fails it; a worker sends due rows, retries
 * failures with backoff and deletes a row once sent (its body may hold a sign-in link). Rows
 * survive restarts; ones that keep failing are listed for admins.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    /** Extra mail headers as a JSON object (List-Unsubscribe of notification mails); null: none. */
    headers: text('headers'),
    /** A contact-form message this mail relays: its mailed_at is set once the mail is sent. */
    contactMessageId: text('contact_message_id').references(() => contactMessages.id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    /** Set when the worker gave up after the last attempt; the row stays for admins to see. */
    failedAt: integer('failed_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.failedAt, t.nextAttemptAt)],
);
