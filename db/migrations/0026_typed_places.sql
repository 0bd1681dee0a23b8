ALTER TABLE `comments` ADD `place_key` text;--> statement-breakpoint
CREATE INDEX `comments_place_idx` ON `comments` (`business_id`,`place_key`,`created_at`) WHERE "comments"."place_key" IS NOT NULL;--> statement-breakpoint
-- Hand-added: existing comments at another place get their key (placeKeyOf in
-- services/comments/comment-branches.ts; sv_fold is registered by db/client.ts before migrating).
UPDATE `comments` SET `place_key` = trim(replace(replace(replace(sv_fold(`business_location`), char(9), ' '), '   ', ' '), '  ', ' ')) WHERE `branch_id` IS NULL;--> statement-breakpoint
-- Hand-added: a comment shows its author's stars only while they count (held or banned: none).
UPDATE `comments` SET `author_rate` = NULL WHERE `author_rate` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `business_ratings` r WHERE r.`business_id` = `comments`.`business_id` AND r.`user_id` = `comments`.`user_id` AND r.`counted` = 1);
