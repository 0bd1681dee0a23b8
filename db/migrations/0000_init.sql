CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`from_name` text NOT NULL,
	`user_email` text NOT NULL,
	`message` text NOT NULL,
	`language` text DEFAULT 'sv' NOT NULL,
	`created_at` integer NOT NULL,
	`mailed_at` integer
);
--> statement-breakpoint
CREATE INDEX `contact_messages_created_at_idx` ON `contact_messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `email_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_tokens_token_hash_unique` ON `email_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_tokens_user_kind_idx` ON `email_tokens` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`issuer`, `subject`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_accounts_user_id_idx` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`image_id` text,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_banned` integer DEFAULT false NOT NULL,
	`email_confirmed` integer DEFAULT false NOT NULL,
	`is_demo` integer DEFAULT false NOT NULL,
	`language` text DEFAULT 'sv' NOT NULL,
	`favorites_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE INDEX `users_is_admin_idx` ON `users` (`is_admin`);--> statement-breakpoint
CREATE TABLE `images` (
	`id` text PRIMARY KEY NOT NULL,
	`file_name` text NOT NULL,
	`kind` text NOT NULL,
	`mime` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`owner_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `images_file_name_unique` ON `images` (`file_name`);--> statement-breakpoint
CREATE INDEX `images_created_at_idx` ON `images` (`created_at`);--> statement-breakpoint
CREATE TABLE `branches` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`location` text NOT NULL,
	`address` text,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `branches_business_idx` ON `branches` (`business_id`,`position`);--> statement-breakpoint
CREATE TABLE `business_ratings` (
	`business_id` text NOT NULL,
	`user_id` text NOT NULL,
	`rate` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`business_id`, `user_id`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `business_ratings_user_idx` ON `business_ratings` (`user_id`);--> statement-breakpoint
CREATE TABLE `businesses` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`title_search` text NOT NULL,
	`category` text NOT NULL,
	`description` text NOT NULL,
	`admin_rate` real NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`image_id` text,
	`icon_id` text,
	`is_suggestion_box` integer DEFAULT false NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`icon_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `businesses_title_search_idx` ON `businesses` (`title_search`);--> statement-breakpoint
CREATE INDEX `businesses_created_at_idx` ON `businesses` (`created_at`);--> statement-breakpoint
CREATE TABLE `favorites` (
	`user_id` text NOT NULL,
	`business_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `business_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `favorites_business_idx` ON `favorites` (`business_id`);--> statement-breakpoint
CREATE TABLE `comment_ratings` (
	`comment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`rate` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`comment_id`, `user_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_ratings_user_idx` ON `comment_ratings` (`user_id`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text NOT NULL,
	`business_location` text NOT NULL,
	`text` text NOT NULL,
	`image_id` text,
	`reply_count` integer DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`rating_avg` real,
	`rated_1` integer DEFAULT 0 NOT NULL,
	`rated_2` integer DEFAULT 0 NOT NULL,
	`rated_3` integer DEFAULT 0 NOT NULL,
	`rated_4` integer DEFAULT 0 NOT NULL,
	`rated_5` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comments_feed_idx` ON `comments` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_most_replied_idx` ON `comments` (`reply_count`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_top_rated_idx` ON `comments` (`rating_avg`,`rating_count`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_business_idx` ON `comments` (`business_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_user_idx` ON `comments` (`user_id`);--> statement-breakpoint
CREATE TABLE `replies` (
	`id` text PRIMARY KEY NOT NULL,
	`comment_id` text NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text NOT NULL,
	`text` text NOT NULL,
	`image_id` text,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`rating_avg` real,
	`rated_1` integer DEFAULT 0 NOT NULL,
	`rated_2` integer DEFAULT 0 NOT NULL,
	`rated_3` integer DEFAULT 0 NOT NULL,
	`rated_4` integer DEFAULT 0 NOT NULL,
	`rated_5` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `replies_comment_idx` ON `replies` (`comment_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `replies_user_idx` ON `replies` (`user_id`);--> statement-breakpoint
CREATE INDEX `replies_created_at_idx` ON `replies` (`created_at`);--> statement-breakpoint
CREATE TABLE `reply_ratings` (
	`reply_id` text NOT NULL,
	`user_id` text NOT NULL,
	`rate` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`reply_id`, `user_id`),
	FOREIGN KEY (`reply_id`) REFERENCES `replies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reply_ratings_user_idx` ON `reply_ratings` (`user_id`);