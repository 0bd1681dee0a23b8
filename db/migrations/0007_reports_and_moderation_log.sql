CREATE TABLE `mod_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `mod_log_created_idx` ON `mod_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`comment_id` text,
	`reply_id` text,
	`reporter_id` text NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	`resolved_by` text,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reply_id`) REFERENCES `replies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_comment_idx` ON `reports` (`comment_id`,`reporter_id`) WHERE resolved_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_reply_idx` ON `reports` (`reply_id`,`reporter_id`) WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX `reports_queue_idx` ON `reports` (`resolved_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_id`);--> statement-breakpoint
ALTER TABLE `comments` ADD `hidden_at` integer;--> statement-breakpoint
ALTER TABLE `comments` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `replies` ADD `hidden_at` integer;