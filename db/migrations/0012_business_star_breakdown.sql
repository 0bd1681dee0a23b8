ALTER TABLE `businesses` ADD `stars_1` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `stars_2` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `stars_3` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `stars_4` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `stars_5` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `author_rate` integer;--> statement-breakpoint
CREATE INDEX `comments_business_stars_idx` ON `comments` (`business_id`,`author_rate`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_business_helpful_idx` ON `comments` (`business_id`,`rating_avg`,`rating_count`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_business_replied_idx` ON `comments` (`business_id`,`reply_count`,`created_at`);--> statement-breakpoint
-- Hand-added: fill the new columns from the ratings already stored.
UPDATE `businesses` SET
  `stars_1` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`rate` = 1),
  `stars_2` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`rate` = 2),
  `stars_3` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`rate` = 3),
  `stars_4` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`rate` = 4),
  `stars_5` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`rate` = 5);--> statement-breakpoint
UPDATE `comments` SET `author_rate` = (
  SELECT r.`rate` FROM `business_ratings` r WHERE r.`business_id` = `comments`.`business_id` AND r.`user_id` = `comments`.`user_id`
);
