DROP INDEX `comments_business_helpful_idx`;--> statement-breakpoint
DROP INDEX `comments_business_replied_idx`;--> statement-breakpoint
CREATE INDEX `comments_business_helpful_idx` ON `comments` (`business_id`,`rating_avg`,`rating_count`,`created_at`) WHERE "comments"."rating_avg" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `comments_business_replied_idx` ON `comments` (`business_id`,`reply_count`,`created_at`) WHERE "comments"."reply_count" > 0;