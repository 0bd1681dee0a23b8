ALTER TABLE `users` ADD `name_display` text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
CREATE INDEX `comments_user_public_idx` ON `comments` (`user_id`,`created_at`) WHERE "comments"."hidden_at" IS NULL AND "comments"."removed_at" IS NULL;--> statement-breakpoint
-- Accounts from before the choice keep the full name they have been shown with; new ones get the initial.
UPDATE `users` SET `name_display` = 'full';
