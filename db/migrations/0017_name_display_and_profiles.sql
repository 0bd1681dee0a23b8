ALTER TABLE `users` ADD `name_display` text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
CREATE INDEX `comments_user_public_idx` ON `comments` (`user_id`,`created_at`) WHERE "comments"."hidden_at" IS NULL AND "comments"."removed_at" IS NULL;--> statement-breakpoint
-- Accounts from before the choice keep the full name they have been shown with; new ones get the initial.
UPDATE `users` SET `name_display` = 'full';
--> statement-breakpoint
-- Search indexes the author as others see the name: a change of the choice queues their posts again.
DROP TRIGGER `comments_fts_author`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_author` AFTER UPDATE OF `first_name`, `last_name`, `name_display` ON `users` BEGIN
  INSERT OR IGNORE INTO `comments_fts_queue` (`comment_rowid`)
  SELECT `rowid` FROM `comments` WHERE `user_id` = new.id AND `hidden_at` IS NULL AND `removed_at` IS NULL;
END;
