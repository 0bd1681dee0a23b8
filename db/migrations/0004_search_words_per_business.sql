-- Comment search, rebuilt so each word is indexed under its business: the one column holds
-- search_words(business_id, text, location, author) (db/client.ts): every word and each of its
-- prefixes, prefixed with the business's key. A search for the start of a word is then one exact
-- token, whose list FTS5 walks newest first and stops at the page; before, a prefix query merged
-- the lists of every matching word site-wide before ANDing the business.
-- Contentless (the words are derived from comments, nothing reads them back) with deletes allowed,
-- and detail=none: searches are words ANDed, never phrases or column filters.
-- search_words was an application function that openDb registered; migration 0011 replaced the
-- triggers that call it, and the app no longer defines it. So that a new database can still be
-- created, the statement that indexed the existing comments here was taken out: migration 0005
-- queues every comment, which the server indexes when it starts.
DROP TRIGGER `comments_fts_insert`;--> statement-breakpoint
DROP TRIGGER `comments_fts_update`;--> statement-breakpoint
DROP TRIGGER `comments_fts_delete`;--> statement-breakpoint
DROP TRIGGER `comments_fts_author`;--> statement-breakpoint
DROP TABLE `comments_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `comments_fts` USING fts5(
  `words`,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  detail = none
);--> statement-breakpoint
CREATE TRIGGER `comments_fts_insert` AFTER INSERT ON `comments` BEGIN
  INSERT INTO `comments_fts` (`rowid`, `words`)
  VALUES (new.rowid, search_words(new.business_id, new.text, new.business_location,
    (SELECT `first_name` || ' ' || `last_name` FROM `users` WHERE `id` = new.user_id)));
END;--> statement-breakpoint
CREATE TRIGGER `comments_fts_update` AFTER UPDATE OF `text`, `business_location`, `business_id` ON `comments` BEGIN
  UPDATE `comments_fts` SET `words` = search_words(new.business_id, new.text, new.business_location,
    (SELECT `first_name` || ' ' || `last_name` FROM `users` WHERE `id` = new.user_id))
  WHERE `rowid` = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `comments_fts_delete` AFTER DELETE ON `comments` BEGIN
  DELETE FROM `comments_fts` WHERE `rowid` = old.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `comments_fts_author` AFTER UPDATE OF `first_name`, `last_name` ON `users` BEGIN
  UPDATE `comments_fts` SET `words` = (
    SELECT search_words(c.`business_id`, c.`text`, c.`business_location`, new.first_name || ' ' || new.last_name)
    FROM `comments` c WHERE c.`rowid` = `comments_fts`.`rowid`)
  WHERE `rowid` IN (SELECT `rowid` FROM `comments` WHERE `user_id` = new.id);
END;
