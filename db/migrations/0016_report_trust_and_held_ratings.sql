ALTER TABLE `users` ADD `is_moderator` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `business_ratings` ADD `held_by` text;--> statement-breakpoint
ALTER TABLE `business_ratings` ADD `counted` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `business_ratings_held_idx` ON `business_ratings` (`held_by`) WHERE held_by is not null;--> statement-breakpoint
ALTER TABLE `comment_ratings` ADD `counted` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `reply_ratings` ADD `counted` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `rating_bursts` ADD `resolution` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `established` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `reports_comment_reporter_idx` ON `reports` (`comment_id`,`reporter_id`,`resolution`);--> statement-breakpoint
CREATE INDEX `reports_reply_reporter_idx` ON `reports` (`reply_id`,`reporter_id`,`resolution`);
--> statement-breakpoint
-- Banned users' ratings leave the public figures (services/rating-tally.ts); the affected
-- businesses' and posts' kept columns are counted again from the ratings that still count.
UPDATE `business_ratings` SET `counted` = false WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `is_banned` = 1);--> statement-breakpoint
UPDATE `businesses` SET
  `rating_sum` = (SELECT coalesce(sum(`rate`), 0) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1),
  `rating_count` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1),
  `stars_1` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1 AND r.`rate` = 1),
  `stars_2` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1 AND r.`rate` = 2),
  `stars_3` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1 AND r.`rate` = 3),
  `stars_4` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1 AND r.`rate` = 4),
  `stars_5` = (SELECT count(*) FROM `business_ratings` r WHERE r.`business_id` = `businesses`.`id` AND r.`counted` = 1 AND r.`rate` = 5)
WHERE `id` IN (SELECT `business_id` FROM `business_ratings` WHERE `counted` = 0);
--> statement-breakpoint
UPDATE `comment_ratings` SET `counted` = false WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `is_banned` = 1);--> statement-breakpoint
UPDATE `comments` SET
  `rated_1` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1 AND r.`rate` = 1),
  `rated_2` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1 AND r.`rate` = 2),
  `rated_3` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1 AND r.`rate` = 3),
  `rated_4` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1 AND r.`rate` = 4),
  `rated_5` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1 AND r.`rate` = 5),
  `rating_count` = (SELECT count(*) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1),
  `rating_avg` = (SELECT avg(`rate`) FROM `comment_ratings` r WHERE r.`comment_id` = `comments`.`id` AND r.`counted` = 1)
WHERE `id` IN (SELECT `comment_id` FROM `comment_ratings` WHERE `counted` = 0);
--> statement-breakpoint
UPDATE `reply_ratings` SET `counted` = false WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `is_banned` = 1);--> statement-breakpoint
UPDATE `replies` SET
  `rated_1` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1 AND r.`rate` = 1),
  `rated_2` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1 AND r.`rate` = 2),
  `rated_3` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1 AND r.`rate` = 3),
  `rated_4` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1 AND r.`rate` = 4),
  `rated_5` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1 AND r.`rate` = 5),
  `rating_count` = (SELECT count(*) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1),
  `rating_avg` = (SELECT avg(`rate`) FROM `reply_ratings` r WHERE r.`reply_id` = `replies`.`id` AND r.`counted` = 1)
WHERE `id` IN (SELECT `reply_id` FROM `reply_ratings` WHERE `counted` = 0);
