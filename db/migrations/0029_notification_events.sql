CREATE TABLE `notification_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`post_id` text NOT NULL,
	`comment_id` text,
	`key` text NOT NULL,
	`created_at` integer NOT NULL
);
