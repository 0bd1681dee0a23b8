-- Full-text index for the comment search on a business page (branch location, text, author
-- name). Rows share the comment's rowid; triggers keep it in step with comments and names.
CREATE VIRTUAL TABLE `comments_fts` USING fts5(
  `business_id` UNINDEXED,
  `text`,
  `location`,
  `author`,
  tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `comments_fts_insert` AFTER INSERT ON `comments` BEGIN
  INSERT INTO `comments_fts` (`rowid`, `business_id`, `text`, `location`, `author`)
  VALUES (new.rowid, new.business_id, new.text, new.business_location,
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
