DROP INDEX `rating_bursts_open_idx`;--> statement-breakpoint
ALTER TABLE `rating_bursts` ADD `comment_id` text REFERENCES comments(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `rating_bursts` ADD `reply_id` text REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `rating_bursts_comment_idx` ON `rating_bursts` (`comment_id`,`resolved_at`) WHERE comment_id is not null;--> statement-breakpoint
CREATE INDEX `rating_bursts_reply_idx` ON `rating_bursts` (`reply_id`,`resolved_at`) WHERE reply_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `rating_bursts_open_idx` ON `rating_bursts` (`business_id`) WHERE resolved_at is null and comment_id is null and reply_id is null;--> statement-breakpoint
ALTER TABLE `comment_ratings` ADD `held_by` text;--> statement-breakpoint
CREATE INDEX `comment_ratings_held_idx` ON `comment_ratings` (`held_by`) WHERE held_by is not null;--> statement-breakpoint
ALTER TABLE `reply_ratings` ADD `held_by` text;--> statement-breakpoint
CREATE INDEX `reply_ratings_held_idx` ON `reply_ratings` (`held_by`) WHERE held_by is not null;