DROP INDEX `comment_ratings_newest_idx`;--> statement-breakpoint
CREATE INDEX `comment_ratings_newest_idx` ON `comment_ratings` (`comment_id`,`created_at`,`user_id`,`rate`,`counted`);--> statement-breakpoint
DROP INDEX `reply_ratings_newest_idx`;--> statement-breakpoint
CREATE INDEX `reply_ratings_newest_idx` ON `reply_ratings` (`reply_id`,`created_at`,`user_id`,`rate`,`counted`);