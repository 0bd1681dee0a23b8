DROP INDEX `replies_comment_user_idx`;--> statement-breakpoint
CREATE INDEX `replies_comment_repliers_idx` ON `replies` (`comment_id`,`created_at`,`user_id`);