PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_notifications` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`comment_id` text,
	`business_id` text,
	`suggestion_id` text,
	`reply_id` text,
	`group_key` text,
	`count` integer DEFAULT 1 NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`mailed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`suggestion_id`) REFERENCES `business_suggestions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Hand-edited: the old text ids are not carried over (the new key is the rowid, assigned in the old rows' order).
INSERT INTO `__new_notifications`("user_id", "kind", "actor_id", "comment_id", "business_id", "suggestion_id", "reply_id", "group_key", "count", "reason", "created_at", "read_at", "mailed_at") SELECT "user_id", "kind", "actor_id", "comment_id", "business_id", "suggestion_id", "reply_id", "group_key", "count", "reason", "created_at", "read_at", "mailed_at" FROM `notifications` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `notifications`;--> statement-breakpoint
ALTER TABLE `__new_notifications` RENAME TO `notifications`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`created_at`) WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_read_list_idx` ON `notifications` (`user_id`,`created_at`) WHERE "notifications"."read_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_reaction_group_idx` ON `notifications` (`user_id`,`group_key`) WHERE "notifications"."group_key" IS NOT NULL AND "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_favorite_review_idx` ON `notifications` (`user_id`,`comment_id`) WHERE "notifications"."kind" = 'favoriteReview';--> statement-breakpoint
CREATE INDEX `notifications_unmailed_idx` ON `notifications` (`created_at`) WHERE "notifications"."mailed_at" IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_read_idx` ON `notifications` (`read_at`) WHERE "notifications"."read_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_comment_idx` ON `notifications` (`comment_id`,`reply_id`) WHERE "notifications"."comment_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_business_idx` ON `notifications` (`business_id`) WHERE "notifications"."business_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_suggestion_idx` ON `notifications` (`suggestion_id`) WHERE "notifications"."suggestion_id" IS NOT NULL;