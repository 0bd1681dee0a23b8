CREATE TABLE `notification_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`replies` text,
	`reactions` text,
	`reviews` text,
	`moderation` text,
	`token` text NOT NULL,
	`digest_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notification_threads` (
	`user_id` text NOT NULL,
	`comment_id` text NOT NULL,
	`mailed_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `comment_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_threads_comment_idx` ON `notification_threads` (`comment_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`comment_id` text NOT NULL,
	`reply_id` text,
	`group_key` text,
	`count` integer DEFAULT 1 NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`mailed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reply_id`) REFERENCES `replies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`created_at`) WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_reaction_group_idx` ON `notifications` (`user_id`,`group_key`) WHERE "notifications"."group_key" IS NOT NULL AND "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_unmailed_idx` ON `notifications` (`created_at`) WHERE "notifications"."mailed_at" IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_read_idx` ON `notifications` (`read_at`) WHERE "notifications"."read_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_actor_idx` ON `notifications` (`actor_id`);--> statement-breakpoint
CREATE INDEX `notifications_comment_idx` ON `notifications` (`comment_id`);--> statement-breakpoint
CREATE INDEX `notifications_reply_idx` ON `notifications` (`reply_id`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;--> statement-breakpoint
CREATE INDEX `replies_comment_user_idx` ON `replies` (`comment_id`,`user_id`);