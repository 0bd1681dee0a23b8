CREATE TABLE `auto_hides` (
	`id` text PRIMARY KEY NOT NULL,
	`comment_id` text,
	`reply_id` text,
	`hidden_at` integer NOT NULL,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reply_id`) REFERENCES `replies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `auto_hides_hidden_at_idx` ON `auto_hides` (`hidden_at`);--> statement-breakpoint
CREATE INDEX `auto_hides_comment_idx` ON `auto_hides` (`comment_id`);--> statement-breakpoint
CREATE INDEX `auto_hides_reply_idx` ON `auto_hides` (`reply_id`);--> statement-breakpoint
CREATE TABLE `mod_digests` (
	`user_id` text PRIMARY KEY NOT NULL,
	`from_at` integer NOT NULL,
	`send_at` integer NOT NULL,
	`mail_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `rating_bursts` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`ratings` integer NOT NULL,
	`first_at` integer NOT NULL,
	`detected_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rating_bursts_open_idx` ON `rating_bursts` (`business_id`) WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX `rating_bursts_business_idx` ON `rating_bursts` (`business_id`,`resolved_at`);--> statement-breakpoint
CREATE INDEX `rating_bursts_queue_idx` ON `rating_bursts` (`resolved_at`,`detected_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `mod_digest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `removal_reason` text;--> statement-breakpoint
ALTER TABLE `replies` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `replies` ADD `removal_reason` text;--> statement-breakpoint
CREATE INDEX `business_ratings_recent_idx` ON `business_ratings` (`business_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `mod_log_action_idx` ON `mod_log` (`action`,`created_at`);--> statement-breakpoint
CREATE INDEX `mod_log_target_kind_idx` ON `mod_log` (`target_kind`,`created_at`);