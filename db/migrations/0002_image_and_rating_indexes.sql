CREATE INDEX `users_image_idx` ON `users` (`image_id`);--> statement-breakpoint
CREATE INDEX `comment_ratings_recent_idx` ON `comment_ratings` (`comment_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_image_idx` ON `comments` (`image_id`);--> statement-breakpoint
CREATE INDEX `replies_image_idx` ON `replies` (`image_id`);--> statement-breakpoint
CREATE INDEX `reply_ratings_recent_idx` ON `reply_ratings` (`reply_id`,`created_at`);