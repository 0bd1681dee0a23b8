DROP INDEX `comment_ratings_recent_idx`;--> statement-breakpoint
CREATE INDEX `comment_ratings_newest_idx` ON `comment_ratings` (`comment_id`,`created_at`,`user_id`,`rate`);--> statement-breakpoint
DROP INDEX `reply_ratings_recent_idx`;--> statement-breakpoint
CREATE INDEX `reply_ratings_newest_idx` ON `reply_ratings` (`reply_id`,`created_at`,`user_id`,`rate`);--> statement-breakpoint
-- Comment search, rebuilt so the business is an indexed token: `business_key` holds hex(business_id)
-- (one token, whatever characters the id has), and a search ANDs it with the typed words, so a
-- common word is matched within one business instead of site-wide and then filtered.
-- detail=column keeps no word positions (searches are words ANDed, never phrases), which halves
-- the work of merging a prefix's lists.
DROP TRIGGER `comments_fts_insert`;--> statement-breakpoint
DROP TRIGGER `comments_fts_update`;--> statement-breakpoint
DROP TRIGGER `comments_fts_delete`;--> statement-breakpoint
DROP TRIGGER `comments_fts_author`;--> statement-breakpoint
DROP TABLE `comments_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `comments_fts` USING fts5(
  `business_key`,
  `text`,
  `location`,
  `author`,
  tokenize = 'unicode61 remove_diacritics 2',
  detail = column
);
--> statement-breakpoint
INSERT INTO `comments_fts` (`rowid`, `business_key`, `text`, `location`, `author`)
  SELECT c.`rowid`, hex(c.`business_id`), c.`text`, c.`business_location`, u.`first_name` || ' ' || u.`last_name`
  FROM `comments` c LEFT JOIN `users` u ON u.`id` = c.`user_id`;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_insert` AFTER INSERT ON `comments` BEGIN
  INSERT INTO `comments_fts` (`rowid`, `business_key`, `text`, `location`, `author`)
  VALUES (new.rowid, hex(new.business_id), new.text, new.business_location,
    (SELECT `first_name` || ' ' || `last_name` FROM `users` WHERE `id` = new.user_id));
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_update` AFTER UPDATE OF `text`, `business_location` ON `comments` BEGIN
  UPDATE `comments_fts` SET `text` = new.text, `location` = new.business_location WHERE `rowid` = new.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_delete` AFTER DELETE ON `comments` BEGIN
  DELETE FROM `comments_fts` WHERE `rowid` = old.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_author` AFTER UPDATE OF `first_name`, `last_name` ON `users` BEGIN
  UPDATE `comments_fts` SET `author` = new.first_name || ' ' || new.last_name
  WHERE `rowid` IN (SELECT `rowid` FROM `comments` WHERE `user_id` = new.id);
END;
