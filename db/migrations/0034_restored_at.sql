ALTER TABLE `comments` ADD `restored_at` integer;--> statement-breakpoint
CREATE INDEX `comments_restored_business_idx` ON `comments` (`business_id`,`restored_at`) WHERE "comments"."restored_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `comments_restored_idx` ON `comments` (`restored_at`) WHERE "comments"."restored_at" IS NOT NULL;