DROP INDEX `comments_top_rated_idx`;--> statement-breakpoint
ALTER TABLE `comments` ADD `bayes_score` real GENERATED ALWAYS AS (CASE WHEN rating_count > 0 THEN (15.0 + rating_avg * rating_count) / (5.0 + rating_count) END) VIRTUAL;--> statement-breakpoint
CREATE INDEX `comments_top_rated_idx` ON `comments` (`bayes_score`,`rating_count`,`created_at`);