DROP INDEX `comments_most_replied_idx`;--> statement-breakpoint
DROP INDEX `comments_top_rated_idx`;--> statement-breakpoint
CREATE INDEX `comments_most_replied_idx` ON `comments` (`reply_count`,`created_at`) WHERE "comments"."reply_count" > 0;--> statement-breakpoint
CREATE INDEX `comments_top_rated_idx` ON `comments` (`bayes_score`,`rating_count`,`created_at`) WHERE "comments"."bayes_score" IS NOT NULL;